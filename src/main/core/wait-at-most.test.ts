import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settledWithin, valueWithin } from './wait-at-most';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('waiting at most a bound', () => {
  it('settledWithin: true once the work settles in time (a failure too), false at the bound, no timer left', async () => {
    expect(await settledWithin(Promise.resolve('x'), 1_000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('refused')), 1_000)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);

    const never = new Promise<void>(() => {});
    const waited = settledWithin(never, 1_000);
    await vi.advanceTimersByTimeAsync(999);
    let answer: boolean | undefined;
    void waited.then((v) => (answer = v));
    await vi.advanceTimersByTimeAsync(0);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("valueWithin: the work's value or its own failure in time, the late error at the bound, no timer left", async () => {
    const late = () => new Error('took over 5 ms');
    expect(await valueWithin(Promise.resolve(7), 5, late)).toBe(7);
    await expect(valueWithin(Promise.reject(new Error('refused')), 5, late)).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);

    const waited = valueWithin(new Promise<number>(() => {}), 5, late);
    const failed = expect(waited).rejects.toThrow('took over 5 ms');
    await vi.advanceTimersByTimeAsync(5);
    await failed;
    expect(vi.getTimerCount()).toBe(0);
  });
});
