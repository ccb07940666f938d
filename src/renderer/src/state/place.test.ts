// Where the window reopens: the kept place opened in place of Home before any view is drawn,
// Home when none is kept, when it is not valid or when the read fails; the current place kept as
// the user moves, never Home before the kept one is open, the latest place sent once the one on
// its way is answered. Runes stood in for by plain values.
import { describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';

vi.hoisted(() => {
  const plain = <T>(value: T): T => value;
  (globalThis as Record<string, unknown>)['$state'] = Object.assign(plain, { raw: plain });
});
vi.mock('../lib/bridge', () => import('../lib/bridge-double'));

const { PlaceState } = await import('./place.svelte');
const { Navigation } = await import('../lib/navigation.svelte');

const NOW = new Date(2026, 10, 28, 9, 30);

/** A bridge answering `app.lastPlace` with `kept` (or failing), recording what is remembered. */
function fakeBridge(kept: unknown, { fail = false } = {}) {
  const remembered: unknown[] = [];
  const waiting: (() => void)[] = [];
  let hold = false;
  const bridge = {
    invoke: async (channel: string, arg: unknown) => {
      if (channel === 'app.lastPlace') {
        if (fail) throw new Error('offline');
        return kept;
      }
      if (channel === 'app.rememberPlace') {
        remembered.push(arg);
        if (hold) await new Promise<void>((resolve) => waiting.push(resolve));
        return null;
      }
      throw new Error(`unexpected ${channel}`);
    },
  } as unknown as Bridge;
  return {
    bridge,
    remembered,
    hold: () => (hold = true),
    release: () => {
      hold = false;
      waiting.splice(0).forEach((resolve) => resolve());
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('PlaceState.reopen', () => {
  it('opens the kept place instead of Home, with no history behind it', async () => {
    const nav = new Navigation();
    const place = new PlaceState(fakeBridge({ kind: 'mywork', tab: 'action' }).bridge);
    expect(place.placed).toBe(false);
    await place.reopen(nav, NOW);
    expect(place.placed).toBe(true);
    expect(nav.route).toEqual({ kind: 'mywork', tab: 'action' });
    expect(nav.canGoBack).toBe(false);
  });

  it('leaves a place the window went to while the kept one was read (a link)', async () => {
    const nav = new Navigation();
    const place = new PlaceState(fakeBridge({ kind: 'mywork', tab: 'action' }).bridge);
    const reading = place.reopen(nav, NOW);
    nav.go({ kind: 'task', taskId: 't9' });
    await reading;
    expect(nav.route).toEqual({ kind: 'task', taskId: 't9' });
  });

  it.each([
    ['none kept', fakeBridge(null)],
    ['an unknown kind', fakeBridge({ kind: 'dashboard' })],
    ['a damaged place', fakeBridge({ kind: 'project', layout: 'sideways', projectId: 'p1' })],
    ['a read that fails', fakeBridge(null, { fail: true })],
  ])('stays on Home for %s', async (_what, { bridge }) => {
    const nav = new Navigation();
    const place = new PlaceState(bridge);
    await place.reopen(nav, NOW);
    expect(place.placed).toBe(true);
    expect(nav.route).toEqual({ kind: 'home' });
  });
});

describe('PlaceState.remember', () => {
  it('keeps nothing before the kept place is open, nor that place again', async () => {
    const fake = fakeBridge({ kind: 'mywork', tab: 'assigned' });
    const nav = new Navigation();
    const place = new PlaceState(fake.bridge);
    place.remember(nav.route);
    await place.reopen(nav, NOW);
    place.remember(nav.route);
    await settle();
    expect(fake.remembered).toEqual([]);
    nav.go({ kind: 'project', projectId: 'p1', layout: 'list' });
    place.remember(nav.route);
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'project', projectId: 'p1', layout: 'list' }]);
  });

  it('does not keep Home when none was kept (none opens Home)', async () => {
    const fake = fakeBridge(null);
    const nav = new Navigation();
    const place = new PlaceState(fake.bridge);
    await place.reopen(nav, NOW);
    place.remember(nav.route);
    await settle();
    expect(fake.remembered).toEqual([]);
  });

  it('sends only the latest place once the one on its way is answered', async () => {
    const fake = fakeBridge(null);
    const place = new PlaceState(fake.bridge);
    await place.reopen(new Navigation(), NOW);
    fake.hold();
    place.remember({ kind: 'updates' });
    place.remember({ kind: 'settings' });
    place.remember({ kind: 'changes' });
    place.remember({ kind: 'mywork', tab: 'action' });
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'updates' }]);
    fake.release();
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'updates' }, { kind: 'mywork', tab: 'action' }]);
  });
});
