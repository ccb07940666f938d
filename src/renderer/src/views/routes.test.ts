// The list of places is checked by type: these tests import its types only (the list itself
// names the views, which only the renderer's build compiles).
import { describe, expect, it } from 'vitest';
import type { Route, RouteEntry, RouteTable, ShownView } from './routes';

const shown = { component: () => ({}), props: {} } as unknown as ShownView;
/** The least an entry has: a view and a title. */
const bare = { view: () => shown, title: () => 'A place' };
const table: RouteTable = {
  home: bare,
  project: bare,
  mywork: bare,
  mytime: bare,
  updates: bare,
  tag: bare,
  search: bare,
  task: bare,
  calendar: bare,
  crm: bare,
  changes: bare,
  settings: bare,
};

describe('the list of places', () => {
  it('has one entry per kind of place: a kind left out or unknown does not compile', () => {
    const { mytime: _left, ...withoutOne } = table;
    // @ts-expect-error: `mytime` is missing
    const missing: RouteTable = withoutOne;
    // @ts-expect-error: `invoices` is no kind of place
    const extra: RouteTable = { ...table, invoices: bare };
    expect([missing, extra]).toHaveLength(2);
    expect(Object.keys(table)).toHaveLength(12);
  });

  it('needs a view and a title in each entry, and reads the place of its own kind', () => {
    // @ts-expect-error: the title is missing
    const noTitle: RouteEntry<'mytime'> = { view: () => shown };
    // @ts-expect-error: the view is missing
    const noView: RouteEntry<'mytime'> = { title: () => 'My Time' };
    // A title reads the parameters of its own kind only.
    const weekTitle: RouteEntry<'mytime'> = { ...bare, title: (route) => `Week of ${route.week}` };
    // @ts-expect-error: a My Time place has no `tab`
    const wrongParams: RouteEntry<'mytime'> = { ...bare, title: (route) => route.tab };
    expect([noTitle, noView, wrongParams]).toHaveLength(3);
    expect(weekTitle.title({ kind: 'mytime', week: '2026-11-23' })).toBe('Week of 2026-11-23');
  });

  it('takes sidebar links and "Go to" commands that lead to a place of the entry’s kind', () => {
    const link = {
      section: 'mywork',
      at: 40,
      icon: 'clock',
      label: 'My Time',
      testid: 'nav-mytime',
    } as const;
    const withLink: RouteEntry<'mytime'> = {
      ...bare,
      sidebar: [{ ...link, to: () => ({ kind: 'mytime', week: '2026-11-23' }) }],
      goTo: [{ id: 'go-mytime', label: 'Go to My Time', to: () => ({ kind: 'mytime', week: '2026-11-23' }) }],
    };
    const elsewhere: RouteEntry<'mytime'> = {
      ...bare,
      // @ts-expect-error: the link leads to Updates, not to My Time
      sidebar: [{ ...link, to: () => ({ kind: 'updates' }) }],
    };
    const badId: RouteEntry<'mytime'> = {
      ...bare,
      // @ts-expect-error: a "Go to" command's id starts with `go-`
      goTo: [{ id: 'mytime', label: 'Go to My Time', to: () => ({ kind: 'mytime', week: '2026-11-23' }) }],
    };
    expect([elsewhere, badId]).toHaveLength(2);
    expect(withLink.sidebar?.[0]?.to()).toEqual({ kind: 'mytime', week: '2026-11-23' });
  });

  it('gives each kind its parameters', () => {
    const week: Route = { kind: 'mytime', week: '2026-11-23', taskId: 't1' };
    // @ts-expect-error: a My Time place names its week
    const noWeek: Route = { kind: 'mytime' };
    // @ts-expect-error: Changes opens no task beside it
    const changesWithTask: Route = { kind: 'changes', taskId: 't1' };
    expect([week, noWeek, changesWithTask]).toHaveLength(3);
  });
});
