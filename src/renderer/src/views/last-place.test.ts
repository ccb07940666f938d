// The place the window reopens on: a route kept as a place and read back gives the same route
// (My Time and the calendar on this week and month); a place the window could not have written
// (an unknown kind, a parameter of another kind, a value out of its list, an empty id) gives
// none, and the window opens Home.
import { describe, expect, it } from 'vitest';
import { placeOf, placeText, routeOfPlace } from './last-place';
import type { Route } from './routes';

const NOW = new Date(2026, 10, 28, 9, 30);

describe('placeOf and routeOfPlace', () => {
  const kept: Route[] = [
    { kind: 'home' },
    { kind: 'mywork', tab: 'action' },
    { kind: 'mywork', tab: 'assigned', taskId: 't1' },
    { kind: 'project', projectId: 'p1', layout: 'board' },
    { kind: 'project', projectId: 'p1', layout: 'overview', documentId: 'd1', taskId: 't2' },
    { kind: 'updates' },
    { kind: 'tag', tagId: 'g1' },
    { kind: 'search', query: 'invoice' },
    { kind: 'task', taskId: 't3' },
    { kind: 'crm', tab: 'accounts', recordId: 'a1' },
    { kind: 'changes' },
    { kind: 'settings' },
  ];
  it.each(kept)('reopens %o as it was', (route) => {
    expect(routeOfPlace(JSON.parse(JSON.stringify(placeOf(route))), NOW)).toEqual(route);
  });

  it('reopens My Time on this week and the calendar on this month', () => {
    expect(routeOfPlace(placeOf({ kind: 'mytime', week: '2026-01-05', taskId: 't1' }), NOW)).toEqual({
      kind: 'mytime',
      week: '2026-11-23',
      taskId: 't1',
    });
    expect(
      routeOfPlace(placeOf({ kind: 'calendar', view: 'agenda', month: '2026-01', eventId: 'e1' }), NOW),
    ).toEqual({ kind: 'calendar', view: 'agenda', month: '2026-11' });
  });

  it('keeps the parameters in the order of their names, without those not reopened', () => {
    const route: Route = {
      kind: 'project',
      projectId: 'p1',
      layout: 'overview',
      taskId: 't2',
      documentId: 'd1',
    };
    expect(JSON.stringify(placeOf(route))).toBe(
      '{"kind":"project","documentId":"d1","layout":"overview","projectId":"p1","taskId":"t2"}',
    );
    // A place reopened is kept as the same text.
    expect(JSON.stringify(placeOf(routeOfPlace(placeOf(route), NOW)!))).toBe(JSON.stringify(placeOf(route)));
    expect(placeOf({ kind: 'mytime', week: '2026-01-05', taskId: 't1' })).toEqual({
      kind: 'mytime',
      taskId: 't1',
    });
    expect(placeOf({ kind: 'calendar', view: 'month', month: '2026-01', eventId: 'e1' })).toEqual({
      kind: 'calendar',
      view: 'month',
    });
    // Two orders of the same parameters are one place.
    expect(placeText({ kind: 'crm', tab: 'accounts', recordId: 'a1' })).toBe(
      placeText({ kind: 'crm', recordId: 'a1', tab: 'accounts' }),
    );
  });

  it('leaves out parameters that are not set', () => {
    expect(placeOf({ kind: 'project', projectId: 'p1', layout: 'list', taskId: undefined } as Route)).toEqual(
      {
        kind: 'project',
        projectId: 'p1',
        layout: 'list',
      },
    );
  });

  it.each([
    ['nothing kept', null],
    ['an unknown kind', { kind: 'dashboard' }],
    ['a parameter of another kind', { kind: 'mywork', tab: 'action', projectId: 'p1' }],
    ['a value out of its list', { kind: 'mywork', tab: 'later' }],
    ['a required parameter missing', { kind: 'project', layout: 'list' }],
    ['an empty id', { kind: 'task', taskId: '' }],
    ['an empty open task', { kind: 'updates', taskId: ' ' }],
    ['a parameter on a kind that takes none', { kind: 'settings', tab: 'x' }],
    ['a kind from the object prototype', { kind: 'constructor' }],
  ])('opens Home for %s', (_what, place) => {
    expect(routeOfPlace(place, NOW)).toBeUndefined();
  });
});
