import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './when-idle';

describe('whenIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('waits for the idle callback, bounded by the timeout it passes on', async () => {
    let idle: (() => void) | undefined;
    const requestIdleCallback = vi.fn((run: () => void) => (idle = run));
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    let done = false;
    const waiting = whenIdle(750).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 750 });
    idle!();
    await waiting;
    expect(done).toBe(true);
  });

  it('falls back to a short timer where there is no idle callback', async () => {
    vi.useFakeTimers();
    expect(typeof globalThis.requestIdleCallback).toBe('undefined');
    let done = false;
    const waiting = whenIdle().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(15);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });
});
