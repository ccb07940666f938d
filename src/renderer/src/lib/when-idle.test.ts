import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen, whenIdle } from './when-idle';

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

  it('after the first screen: waits its delay, then for the page to be idle', async () => {
    vi.useFakeTimers();
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', (run: () => void) => (idle = run));
    let done = false;
    const waiting = afterFirstScreen(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(idle).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(idle).toBeDefined();
    expect(done).toBe(false);
    idle!();
    await waiting;
    expect(done).toBe(true);
  });
});
