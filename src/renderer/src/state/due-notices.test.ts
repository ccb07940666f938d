import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';
import { AFTER_FIRST_SCREEN_MS } from '../lib/when-idle';

const shown = vi.hoisted(() => [] as string[]);
vi.mock('../lib/toasts.svelte', () => ({ toasts: { show: (message: string) => shown.push(message) } }));

const { watchDueTasks } = await import('./due-notices');

const NOON = new Date(2026, 10, 27, 12, 0, 0);

const group = (names: string[]) => ({
  rows: names.map((name, i) => ({ id: `t${i}`, name, closed: false })),
  total: names.length,
  unlistedAssigned: 0,
});

/**
 * A bridge that answers the two reads the check makes (`tasks.due` with `due`, Home's read) and
 * lets the test end a sync; `asked` holds the `tasks.due` questions.
 */
function fakeBridge(
  status: { lastSyncedAt: string | null } = { lastSyncedAt: '2026-11-27T11:59:00Z' },
  due = { late: group(['Overdue']), today: group(['Ship it']), later: group([]) },
) {
  const calls: string[] = [];
  const asked: unknown[] = [];
  const listeners: ((status: unknown) => void)[] = [];
  const bridge = {
    invoke: (channel: string, input: unknown) => {
      calls.push(channel);
      if (channel === 'sync.status') return Promise.resolve({ running: false, ...status });
      if (channel === 'tasks.due') asked.push(input);
      return channel === 'tasks.due'
        ? Promise.resolve(due)
        : Promise.reject(new Error(`not read: ${channel}`));
    },
    on: (_event: string, listener: (status: unknown) => void) => {
      listeners.push(listener);
      return () => undefined;
    },
  };
  const syncEnded = () =>
    listeners.forEach((l) => l({ running: false, lastSyncedAt: '2026-11-27T12:00:00Z' }));
  return { bridge: bridge as unknown as Bridge, calls, asked, syncEnded, status };
}

describe('watchDueTasks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    shown.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('reads no task when neither due toast is wanted (the default), also after a sync', async () => {
    const { bridge, calls, syncEnded } = fakeBridge();
    watchDueTasks(
      bridge,
      () => false,
      () => undefined,
      () => 'account-1',
      () => NOON,
    );
    syncEnded();
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS + 100);
    syncEnded();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toEqual([]);
    expect(shown).toEqual([]);
  });

  it('a sync that ends before the first screen is drawn: the tasks are read after it, once', async () => {
    const { bridge, calls, syncEnded } = fakeBridge();
    watchDueTasks(
      bridge,
      (kind) => kind === 'dueToday',
      () => undefined,
      () => 'account-1',
      () => NOON,
    );
    syncEnded();
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS - 100);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(calls.filter((c) => c === 'tasks.due')).toEqual(['tasks.due']);
    expect(shown).toEqual(['1 task due today: Ship it']);
  });

  it("a first sync that ends while the first screen's check reads the status: checked again after", async () => {
    const { bridge, calls, syncEnded, status } = fakeBridge({ lastSyncedAt: null });
    // The status answer of the first check arrives only after the sync ended (it was read before).
    let answerStatus = (): void => undefined;
    const invoke = bridge.invoke.bind(bridge);
    let held = true;
    (bridge as { invoke: unknown }).invoke = (channel: string, input: unknown) => {
      if (channel !== 'sync.status' || !held) return invoke(channel as never, input as never);
      held = false;
      const answer = invoke(channel as never, input as never);
      return new Promise((resolve) => (answerStatus = () => resolve(answer)));
    };
    watchDueTasks(
      bridge,
      (kind) => kind === 'dueToday',
      () => undefined,
      () => 'account-1',
      () => NOON,
    );
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS + 100);
    expect(calls).toEqual(['sync.status']);
    // The sync ends while that check waits; its answer (read before the end) says none yet.
    syncEnded();
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS + 100);
    status.lastSyncedAt = '2026-11-27T12:00:00Z';
    answerStatus();
    await vi.advanceTimersByTimeAsync(100);
    expect(shown).toEqual(['1 task due today: Ship it']);
  });

  it("asks Home's read for today through tomorrow, and toasts each day's count as the core gives it", async () => {
    // The core counts the tasks (assigned to me or awaiting my action): three due tomorrow, two listed.
    const { bridge, asked } = fakeBridge(undefined, {
      late: group(['Overdue']),
      today: group([]),
      later: { ...group(['Plan it', 'Sign it']), total: 3 },
    });
    watchDueTasks(
      bridge,
      () => true,
      () => undefined,
      () => 'account-1',
      () => NOON,
    );
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS + 100);
    expect(asked).toEqual([{ today: '2026-11-27', through: '2026-11-28', perGroup: 3 }]);
    expect(shown).toEqual(['3 tasks due tomorrow: Plan it…']);
  });

  it('reads again at the next sync when the read failed, and tells each account its own day', async () => {
    const { bridge, asked, syncEnded } = fakeBridge();
    let failing = true;
    const invoke = bridge.invoke.bind(bridge);
    bridge.invoke = ((channel: string, input: unknown) =>
      channel === 'tasks.due' && failing
        ? Promise.reject(new Error('The cache is busy.'))
        : invoke(channel as never, input as never)) as typeof bridge.invoke;
    let account = 'account-1';
    watchDueTasks(
      bridge,
      (kind) => kind === 'dueToday',
      () => undefined,
      () => account,
      () => NOON,
    );
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS + 100);
    expect(shown).toEqual([]);
    // The next sync's end reads it again, and tells the day's tasks.
    failing = false;
    syncEnded();
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual(['1 task due today: Ship it']);
    // Once a day per account: the same account's next sync tells nothing more ...
    syncEnded();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toHaveLength(1);
    // ... another account's first sync that day tells its own.
    account = 'account-2';
    syncEnded();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toHaveLength(2);
    expect(shown).toEqual(['1 task due today: Ship it', '1 task due today: Ship it']);
  });
});
