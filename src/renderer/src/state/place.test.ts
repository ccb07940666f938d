// Where the window reopens: the kept place opened in place of Home before any view is drawn,
// Home when none is kept, when it is not valid, when the read fails or is not answered in time;
// the current place kept as the user moves once it settles, never Home before the kept one is
// open, the latest place sent once the one on its way is answered, the first place of another
// account kept. Runes stood in for by plain values; the clock is the test's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';

vi.hoisted(() => {
  const plain = <T>(value: T): T => value;
  (globalThis as Record<string, unknown>)['$state'] = Object.assign(plain, { raw: plain });
});
vi.mock('../lib/bridge', () => import('../lib/bridge-double'));

const { PlaceState, REMEMBER_DELAY_MS, REOPEN_WAIT_MS } = await import('./place.svelte');
const { Navigation } = await import('../lib/navigation.svelte');

const NOW = new Date(2026, 10, 28, 9, 30);

/**
 * A bridge answering `app.lastPlace` with `kept` (or failing, or only once `answer` is called),
 * recording what is remembered.
 */
function fakeBridge(kept: unknown, { fail = false, late = false } = {}) {
  const remembered: unknown[] = [];
  const waiting: (() => void)[] = [];
  const lateAnswers: (() => void)[] = [];
  let hold = false;
  const bridge = {
    invoke: async (channel: string, arg: unknown) => {
      if (channel === 'app.lastPlace') {
        if (fail) throw new Error('offline');
        if (late) await new Promise<void>((resolve) => lateAnswers.push(resolve));
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
    answer: () => lateAnswers.splice(0).forEach((resolve) => resolve()),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Lets the answers come and the place settle (the test's clock). */
const settle = () => vi.advanceTimersByTimeAsync(REMEMBER_DELAY_MS);

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

describe('PlaceState.reopen, the place not answered in time', () => {
  it('opens Home past the wait, then the place when it comes if the user did not move', async () => {
    const fake = fakeBridge({ kind: 'mywork', tab: 'action' }, { late: true });
    const nav = new Navigation();
    const place = new PlaceState(fake.bridge);
    const reading = place.reopen(nav, NOW);
    await vi.advanceTimersByTimeAsync(REOPEN_WAIT_MS);
    await reading;
    expect(place.placed).toBe(true);
    expect(nav.route).toEqual({ kind: 'home' });
    // Home drawn meanwhile is not kept over the place on its way.
    place.remember(nav.route);
    await settle();
    expect(fake.remembered).toEqual([]);
    fake.answer();
    await settle();
    expect(nav.route).toEqual({ kind: 'mywork', tab: 'action' });
    expect(nav.canGoBack).toBe(false);
    place.remember(nav.route);
    await settle();
    expect(fake.remembered).toEqual([]);
  });

  it('does not move a user who moved before the late place came', async () => {
    const fake = fakeBridge({ kind: 'mywork', tab: 'action' }, { late: true });
    const nav = new Navigation();
    const place = new PlaceState(fake.bridge);
    const reading = place.reopen(nav, NOW);
    await vi.advanceTimersByTimeAsync(REOPEN_WAIT_MS);
    await reading;
    nav.go({ kind: 'updates' });
    place.remember(nav.route);
    fake.answer();
    await settle();
    expect(nav.route).toEqual({ kind: 'updates' });
    expect(fake.remembered).toEqual([{ kind: 'updates' }]);
  });

  it('does not move a user back on the first Home, nor open it in another account', async () => {
    for (const meanwhile of ['back', 'switch'] as const) {
      const fake = fakeBridge({ kind: 'mywork', tab: 'action' }, { late: true });
      const nav = new Navigation();
      const place = new PlaceState(fake.bridge);
      const reading = place.reopen(nav, NOW);
      await vi.advanceTimersByTimeAsync(REOPEN_WAIT_MS);
      await reading;
      if (meanwhile === 'back') {
        // A task opened from Home's list, then Back: on the first Home again, with no history.
        nav.openTask('t1');
        nav.back();
        expect(nav.canGoBack).toBe(false);
      } else place.switched();
      fake.answer();
      await settle();
      expect(nav.route, meanwhile).toEqual({ kind: 'home' });
    }
  });

  it('reads the place again when asked (the start tried again)', async () => {
    let answers = 0;
    const bridge = {
      invoke: async (channel: string) => {
        if (channel !== 'app.lastPlace') return null;
        answers += 1;
        // The first read is never answered (a core that did not open).
        if (answers === 1) await new Promise(() => {});
        return { kind: 'settings' };
      },
    } as unknown as Bridge;
    const nav = new Navigation();
    const place = new PlaceState(bridge);
    const first = place.reopen(nav, NOW);
    await vi.advanceTimersByTimeAsync(REOPEN_WAIT_MS);
    await first;
    expect(nav.route).toEqual({ kind: 'home' });
    await place.reopen(nav, NOW);
    expect(nav.route).toEqual({ kind: 'settings' });
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
    await settle();
    place.remember({ kind: 'settings' });
    await settle();
    place.remember({ kind: 'changes' });
    await settle();
    place.remember({ kind: 'mywork', tab: 'action' });
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'updates' }]);
    fake.release();
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'updates' }, { kind: 'mywork', tab: 'action' }]);
  });

  it('keeps the place once it settled, and at once when the page goes', async () => {
    const fake = fakeBridge(null);
    const place = new PlaceState(fake.bridge);
    await place.reopen(new Navigation(), NOW);
    place.remember({ kind: 'updates' });
    await vi.advanceTimersByTimeAsync(REMEMBER_DELAY_MS - 1);
    place.remember({ kind: 'settings' });
    await vi.advanceTimersByTimeAsync(REMEMBER_DELAY_MS - 1);
    expect(fake.remembered).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.remembered).toEqual([{ kind: 'settings' }]);
    place.remember({ kind: 'changes' });
    place.flush();
    await Promise.resolve();
    expect(fake.remembered).toEqual([{ kind: 'settings' }, { kind: 'changes' }]);
    // Nothing is left to send.
    await settle();
    expect(fake.remembered).toHaveLength(2);
  });

  it('sends the place at once when the page goes, although one is still on its way', async () => {
    const fake = fakeBridge(null);
    const place = new PlaceState(fake.bridge);
    await place.reopen(new Navigation(), NOW);
    // The core not answering yet (still opening): the page goes before it does.
    fake.hold();
    place.remember({ kind: 'updates' });
    await settle();
    place.remember({ kind: 'settings' });
    place.flush();
    await Promise.resolve();
    expect(fake.remembered).toEqual([{ kind: 'updates' }, { kind: 'settings' }]);
    fake.release();
    await settle();
    expect(fake.remembered).toHaveLength(2);
  });

  it('does not keep again a place just reopened, its parameters in another order', async () => {
    const kept = { kind: 'project', projectId: 'p1', layout: 'overview', documentId: 'd1', taskId: 't2' };
    const fake = fakeBridge(kept);
    const nav = new Navigation();
    const place = new PlaceState(fake.bridge);
    await place.reopen(nav, NOW);
    place.remember(nav.route);
    await settle();
    expect(fake.remembered).toEqual([]);
  });

  it('keeps neither the week of My Time nor the month and event of the calendar', async () => {
    const fake = fakeBridge({ kind: 'calendar', view: 'month' });
    const nav = new Navigation();
    const place = new PlaceState(fake.bridge);
    await place.reopen(nav, NOW);
    // Paging the calendar's months stays the same place.
    place.remember({ kind: 'calendar', view: 'month', month: '2026-12', eventId: 'e1' });
    await settle();
    expect(fake.remembered).toEqual([]);
    place.remember({ kind: 'mytime', week: '2026-11-23' });
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'mytime' }]);
  });

  it('keeps the first place seen in another account, even the one kept before the switch', async () => {
    const fake = fakeBridge(null);
    const place = new PlaceState(fake.bridge);
    await place.reopen(new Navigation(), NOW);
    place.remember({ kind: 'settings' });
    await settle();
    // A place waiting to settle when the account switches is the other account's.
    place.remember({ kind: 'changes' });
    place.switched();
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'settings' }]);
    place.remember({ kind: 'settings' });
    await settle();
    expect(fake.remembered).toEqual([{ kind: 'settings' }, { kind: 'settings' }]);
  });
});
