import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleFirstPull } from './first-pull';

/**
 * A sync that counts its starts, synced before (`lastSyncedAt` set) unless said otherwise; the
 * schedule reads nothing else of its status (passed `as never` for that reason).
 */
function fakeSync(lastSyncedAt: string | null = '2026-11-26T08:00:00') {
  return { start: vi.fn(), status: () => ({ lastSyncedAt }) };
}

describe('the first pull after an account opens', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts at once when the cache was never synced (nothing to show before it)', () => {
    const sync = fakeSync(null);
    scheduleFirstPull(sync as never);
    expect(sync.start).toHaveBeenCalledTimes(1);
  });

  it('waits while the window reads, and starts once its reads pause', () => {
    const sync = fakeSync();
    const first = scheduleFirstPull(sync as never, { quietMs: 300, latestMs: 3_000 });
    first.read();
    vi.advanceTimersByTime(200);
    first.read();
    vi.advanceTimersByTime(200);
    expect(sync.start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(sync.start).toHaveBeenCalledTimes(1);
    // Later reads start nothing more.
    first.read();
    vi.advanceTimersByTime(5_000);
    expect(sync.start).toHaveBeenCalledTimes(1);
  });

  it("does not count the window's app.info: the pause after it is the page loading its first view", () => {
    const sync = fakeSync();
    const first = scheduleFirstPull(sync as never, { quietMs: 300, latestMs: 3_000 });
    first.read('app.info');
    vi.advanceTimersByTime(1_000);
    expect(sync.start).not.toHaveBeenCalled();
    first.read('projects.tree');
    vi.advanceTimersByTime(299);
    expect(sync.start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(sync.start).toHaveBeenCalledTimes(1);
  });

  it('starts at the latest after `latestMs`, window or not, and never once cancelled', () => {
    const sync = fakeSync();
    scheduleFirstPull(sync as never, { quietMs: 300, latestMs: 3_000 });
    vi.advanceTimersByTime(2_999);
    expect(sync.start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(sync.start).toHaveBeenCalledTimes(1);

    const closed = fakeSync();
    const pull = scheduleFirstPull(closed as never, { quietMs: 300, latestMs: 3_000 });
    pull.read();
    pull.cancel();
    vi.advanceTimersByTime(10_000);
    expect(closed.start).not.toHaveBeenCalled();
  });
});
