import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('grows exponentially with jitter between half and the whole step', () => {
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(1, () => 0.999999)).toBe(1_000);
    expect(backoffDelay(3, () => 0)).toBe(2_000);
    expect(backoffDelay(3, () => 0.5)).toBe(3_000);
  });

  it('is capped at a few minutes however many attempts', () => {
    for (const attempt of [20, 100, 10_000]) {
      expect(backoffDelay(attempt, () => 0.999999)).toBeLessThanOrEqual(5 * 60_000);
      expect(backoffDelay(attempt, () => 0)).toBe(150_000);
    }
  });
});
