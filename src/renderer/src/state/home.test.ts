// Home's day: which days it asks the core for (the user's local day, whatever UTC's date), the
// late / today / this-week groups with their caps and empty words, today's events, time logged.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CalendarEvent } from '@shared/api/events';
import type { DueTasks, TaskRow } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';
import { dueSections, eventSpan, eventsOn, homeDays, loggedMinutes } from './home';

vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
plainRunes();
const { HomeState } = await import('./home.svelte');

// The zone is changed for a test, as the process's TZ (the renderer's types know no `process`).
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const savedTz = env['TZ'];
afterEach(() => {
  if (savedTz === undefined) delete env['TZ'];
  else env['TZ'] = savedTz;
});

const row = (id: string, deadline: string): TaskRow =>
  ({ id, name: id, projectId: 'p1', deadline }) as TaskRow;
const group = (rows: TaskRow[], total = rows.length, unlistedAssigned = total - rows.length) => ({
  rows,
  total,
  unlistedAssigned,
});
const none = group([]);

describe("Home's days", () => {
  it('asks for the local day: at 23:30 UTC in Berlin it is already tomorrow', () => {
    env['TZ'] = 'Europe/Berlin';
    // Saturday 28 November 23:30 UTC is Sunday 29 November 00:30 in Berlin.
    const days = homeDays(new Date('2026-11-28T23:30:00Z'));
    expect(days).toEqual({ today: '2026-11-29', monday: '2026-11-23', sunday: '2026-11-29' });
    // What the cache answers for these days: tasks-due.test.ts.
  });

  it('at 03:30 UTC in New York it is still the day before', () => {
    env['TZ'] = 'America/New_York';
    // Sunday 29 November 03:30 UTC is Saturday 28 November 22:30 in New York.
    const days = homeDays(new Date('2026-11-29T03:30:00Z'));
    expect(days).toEqual({ today: '2026-11-28', monday: '2026-11-23', sunday: '2026-11-29' });
  });

  it('runs the week Monday to Sunday, a Monday its own start', () => {
    env['TZ'] = 'UTC';
    expect(homeDays(new Date('2026-11-30T08:00:00Z'))).toEqual({
      today: '2026-11-30',
      monday: '2026-11-30',
      sunday: '2026-12-06',
    });
  });
});

describe("Home's groups", () => {
  it('lists late, today and later this week in that order, capped, the rest as "N more"', () => {
    const late = Array.from({ length: 10 }, (_, i) => row(`late${i}`, '2026-11-01'));
    const sections = dueSections(
      { late: group(late, 23), today: group([row('t', '2026-11-28')]), later: none },
      10,
    );
    expect(sections.map((s) => [s.key, s.title, s.rows.length, s.more])).toEqual([
      ['late', 'Late', 10, 13],
      ['today', 'Due today', 1, 0],
      ['later', 'Later this week', 0, 0],
    ]);
  });

  it('leads "N more" to Action required only when none of the tasks not listed is assigned to me', () => {
    const rows = [row('a', '2026-11-01')];
    const tabs = (unlisted: number) =>
      dueSections({ late: group(rows, 4, unlisted), today: group(rows), later: none }, 10).map((s) => [
        s.more,
        s.moreIn,
      ]);
    expect(tabs(0)).toEqual([
      [3, 'action'],
      [0, 'assigned'],
      [0, 'assigned'],
    ]);
    expect(tabs(1)[0]).toEqual([3, 'assigned']);
    expect(tabs(3)[0]).toEqual([3, 'assigned']);
    // Rows the renderer's own cap drops are not counted by the core: Assigned.
    const five = Array.from({ length: 5 }, (_, i) => row(`r${i}`, '2026-11-01'));
    expect(dueSections({ late: group(five, 5, 0), today: none, later: none }, 3)[0]!.moreIn).toBe('assigned');
  });

  it('caps a group the core answered longer than the cap', () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(`r${i}`, '2026-11-29'));
    const [, , later] = dueSections({ late: none, today: none, later: group(rows) }, 3);
    expect(later!.rows.map((r) => r.id)).toEqual(['r0', 'r1', 'r2']);
    expect(later!.more).toBe(2);
  });

  it('says briefly that a group is empty', () => {
    expect(
      dueSections({ late: none, today: none, later: none }).map((s) => [s.rows.length, s.empty]),
    ).toEqual([
      [0, 'Nothing late'],
      [0, 'Nothing due today'],
      [0, 'Nothing else due this week'],
    ]);
  });

  it("keeps the day's events of known types, by start then name", () => {
    const event = (id: string, startDate: string, endDate?: string, eventType = 'company-event') =>
      ({ id, name: id, eventType, startDate, endDate }) as CalendarEvent;
    const events = [
      event('b', '2026-11-28'),
      event('span', '2026-11-26', '2026-11-30', 'personal-vacation'),
      event('a', '2026-11-28'),
      event('tomorrow', '2026-11-29'),
      event('odd', '2026-11-28', undefined, 'unknown-type'),
    ];
    expect(eventsOn(events, '2026-11-28').map((e) => e.id)).toEqual(['span', 'a', 'b']);
  });

  it("says how long an event goes on from Home's day, not the clock's (past midnight, before Home reads again)", () => {
    vi.useFakeTimers({ now: new Date(2026, 10, 29, 0, 10) });
    try {
      // Home still shows Saturday 28 November: the vacation ends on its day, the trip the next.
      expect(eventSpan({ startDate: '2026-11-26', endDate: '2026-11-28' }, '2026-11-28')).toBe(' · last day');
      expect(eventSpan({ startDate: '2026-11-26', endDate: '2026-11-29' }, '2026-11-28')).toBe(
        ' · until Tomorrow',
      );
      expect(eventSpan({ startDate: '2026-11-28', endDate: undefined }, '2026-11-28')).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it("adds the week's minutes and today's", () => {
    const reports = [
      { reportDate: '2026-11-23', reported: 90 },
      { reportDate: '2026-11-28', reported: 30 },
      { reportDate: '2026-11-28', reported: 15 },
    ];
    expect(loggedMinutes(reports, '2026-11-28')).toEqual({ today: 45, week: 135 });
    expect(loggedMinutes([], '2026-11-28')).toEqual({ today: 0, week: 0 });
  });
});

describe('HomeState', () => {
  function answering(due: DueTasks) {
    const asked: [string, unknown][] = [];
    const bridge = {
      invoke: (channel: string, input: unknown) => {
        asked.push([channel, input]);
        if (channel === 'tasks.due') return Promise.resolve(due);
        if (channel === 'events.list')
          return Promise.resolve([
            { id: 'e1', name: 'Standup', eventType: 'company-event', startDate: '2026-11-28' },
          ]);
        if (channel === 'time.mine')
          return Promise.resolve([
            { reportDate: '2026-11-27', reported: 60 },
            { reportDate: '2026-11-28', reported: 20 },
          ]);
        return Promise.reject(new Error(`unexpected ${channel}`));
      },
      on: () => () => undefined,
      onConnection: () => () => undefined,
    } as unknown as Bridge;
    return { bridge, asked };
  }

  it("asks the cache for the user's local day and week and shows the groups, events and time", async () => {
    env['TZ'] = 'Europe/Berlin';
    const { bridge, asked } = answering({
      late: group([row('old', '2026-11-20')]),
      today: none,
      later: group([row('sun', '2026-11-29')], 12),
    });
    // 28 November 10:00 in Berlin.
    const home = new HomeState(bridge, () => new Date('2026-11-28T09:00:00Z'));
    await home.load();
    expect(asked).toEqual([
      ['tasks.due', { today: '2026-11-28', through: '2026-11-29', perGroup: 10 }],
      ['events.list', { from: '2026-11-28', to: '2026-11-28' }],
      ['time.mine', { from: '2026-11-23', to: '2026-11-29' }],
    ]);
    expect(home.due!.map((s) => [s.key, s.rows.map((r) => r.id), s.more])).toEqual([
      ['late', ['old'], 0],
      ['today', [], 0],
      ['later', ['sun'], 11],
    ]);
    expect(home.events!.map((e) => e.name)).toEqual(['Standup']);
    expect(home.eventsDay).toBe('2026-11-28');
    expect(home.logged).toEqual({ today: 20, week: 80 });
    expect(home.error('due')).toBeUndefined();
    expect(home.today).toBe('2026-11-28');
  });

  /** A bridge that answers as `answering` does and hands its cache-change listeners to the test. */
  function live(due: DueTasks) {
    const { bridge, asked } = answering(due);
    const listeners = new Set<(change: { entities: string[] }) => void>();
    (bridge as unknown as { on: unknown }).on = (
      channel: string,
      fn: (change: { entities: string[] }) => void,
    ) => {
      if (channel !== 'cache.onDidChange') throw new Error(`unexpected ${channel}`);
      listeners.add(fn);
      return () => listeners.delete(fn);
    };
    const change = (...entities: string[]) => listeners.forEach((fn) => fn({ entities }));
    let wake: (() => void) | undefined;
    const wakes = (fn: () => void) => {
      wake = fn;
      return () => (wake = undefined);
    };
    const channels = () => asked.map(([channel]) => channel);
    return { bridge, asked, channels, change, wakes, wake: () => wake?.(), listeners };
  }
  const dueNone = { late: none, today: none, later: none };

  describe('over time', () => {
    afterEach(() => vi.useRealTimers());

    it('reads all three again at the next local midnight, and stops at leave', async () => {
      env['TZ'] = 'Europe/Berlin';
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      // Saturday 28 November 23:30 in Berlin.
      vi.setSystemTime(new Date('2026-11-28T22:30:00Z'));
      const { bridge, asked, wakes } = live(dueNone);
      const home = new HomeState(bridge, () => new Date(), wakes);
      const leave = home.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(home.today).toBe('2026-11-28');
      asked.length = 0;
      // Half an hour later, Sunday begins: nothing changed in the cache, yet Home moves on.
      await vi.advanceTimersByTimeAsync(30 * 60_000);
      expect(asked).toEqual([
        ['tasks.due', { today: '2026-11-29', through: '2026-11-29', perGroup: 10 }],
        ['events.list', { from: '2026-11-29', to: '2026-11-29' }],
        ['time.mine', { from: '2026-11-23', to: '2026-11-29' }],
      ]);
      expect(home.today).toBe('2026-11-29');
      expect(home.eventsDay).toBe('2026-11-29');
      asked.length = 0;
      // And again the next midnight (the timer is set again each day), into a new week.
      await vi.advanceTimersByTimeAsync(24 * 3_600_000);
      expect(asked[0]).toEqual(['tasks.due', { today: '2026-11-30', through: '2026-12-06', perGroup: 10 }]);
      expect(home.today).toBe('2026-11-30');
      asked.length = 0;
      leave();
      await vi.advanceTimersByTimeAsync(3 * 24 * 3_600_000);
      expect(asked).toEqual([]);
    });

    it('reads all three again when the window comes back on another day, not on the same day', async () => {
      env['TZ'] = 'UTC';
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      vi.setSystemTime(new Date('2026-11-27T18:00:00Z'));
      const { bridge, channels, wakes, wake, asked } = live(dueNone);
      const home = new HomeState(bridge, () => new Date(), wakes);
      const leave = home.start();
      await vi.advanceTimersByTimeAsync(0);
      asked.length = 0;
      wake();
      await vi.advanceTimersByTimeAsync(0);
      expect(channels()).toEqual([]);
      // The computer slept through midnight: its timers did not run, the clock moved on.
      vi.setSystemTime(new Date('2026-11-28T08:00:00Z'));
      wake();
      await vi.advanceTimersByTimeAsync(0);
      expect(channels()).toEqual(['tasks.due', 'events.list', 'time.mine']);
      expect(home.today).toBe('2026-11-28');
      leave();
    });

    it('reads again what a cache change touched (tasks, projects, events, time reports), nothing else', async () => {
      env['TZ'] = 'UTC';
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      vi.setSystemTime(new Date('2026-11-27T18:00:00Z'));
      const { bridge, channels, change, wakes, asked, listeners } = live(dueNone);
      const home = new HomeState(bridge, () => new Date(), wakes);
      const leave = home.start();
      await vi.advanceTimersByTimeAsync(0);
      const after = async (...entities: string[]) => {
        asked.length = 0;
        change(...entities);
        await vi.advanceTimersByTimeAsync(50);
        return channels().sort();
      };
      // The user's own deadline edit, offline too, changes the cached tasks.
      expect(await after('tasks')).toEqual(['tasks.due', 'time.mine']);
      expect(await after('projects')).toEqual(['tasks.due']);
      expect(await after('events')).toEqual(['events.list']);
      expect(await after('timeReports')).toEqual(['time.mine']);
      expect(await after('users')).toEqual([]);
      leave();
      expect(listeners.size).toBe(0);
    });

    it('reads all three again on a cache change after the day moved on (the timer slept)', async () => {
      env['TZ'] = 'UTC';
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      vi.setSystemTime(new Date('2026-11-27T18:00:00Z'));
      const { bridge, channels, change, wakes, asked } = live(dueNone);
      const home = new HomeState(bridge, () => new Date(), wakes);
      const leave = home.start();
      await vi.advanceTimersByTimeAsync(0);
      asked.length = 0;
      vi.setSystemTime(new Date('2026-11-28T08:00:00Z'));
      change('events');
      await vi.advanceTimersByTimeAsync(50);
      expect(channels().sort()).toEqual(['events.list', 'tasks.due', 'time.mine']);
      expect(home.today).toBe('2026-11-28');
      leave();
    });
  });

  it('keeps what it read when a read again fails, with the error beside it, until a read succeeds', async () => {
    let fail = false;
    const { bridge } = answering({ late: group([row('old', '2026-11-20')]), today: none, later: none });
    const invoke = bridge.invoke.bind(bridge);
    (bridge as unknown as { invoke: unknown }).invoke = (channel: string, input: unknown) =>
      fail ? Promise.reject(new Error('the cache is closed')) : invoke(channel as never, input as never);
    const home = new HomeState(bridge, () => new Date('2026-11-28T09:00:00Z'));
    await home.load();
    fail = true;
    await home.load();
    expect(home.due!.map((s) => s.rows.length)).toEqual([1, 0, 0]);
    expect(home.events).toHaveLength(1);
    expect(home.logged).toEqual({ today: 20, week: 80 });
    expect([home.error('due'), home.error('events'), home.error('time')]).toEqual([
      expect.stringMatching(/cache is closed/),
      expect.stringMatching(/cache is closed/),
      expect.stringMatching(/cache is closed/),
    ]);
    fail = false;
    await home.loadDue();
    expect(home.error('due')).toBeUndefined();
  });

  it('keeps the other parts when one read fails, and says which', async () => {
    const bridge = {
      invoke: (channel: string) =>
        channel === 'tasks.due'
          ? Promise.reject(new Error('the cache is closed'))
          : channel === 'events.list'
            ? Promise.resolve([])
            : Promise.resolve([]),
      on: () => () => undefined,
      onConnection: () => () => undefined,
    } as unknown as Bridge;
    const home = new HomeState(bridge, () => new Date('2026-11-28T09:00:00Z'));
    await home.load();
    expect(home.due).toBeUndefined();
    expect(home.error('due')).toMatch(/cache is closed/);
    expect(home.events).toEqual([]);
    expect(home.logged).toEqual({ today: 0, week: 0 });
  });
});
