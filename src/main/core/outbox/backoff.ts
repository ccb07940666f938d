export interface BackoffPolicy {
  /** Delay before the first retry. */
  readonly baseMs: number;
  /** No wait is longer than this ("a few minutes"). */
  readonly maxMs: number;
}

export const defaultBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Exponential backoff with "equal jitter": half of the exponential step is fixed, half random,
 * so many clients that failed together do not come back together, and no wait is near zero.
 * `attempt` counts from 1.
 */
export function backoffDelay(
  attempt: number,
  random: () => number,
  policy: BackoffPolicy = defaultBackoff,
): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.round(exp / 2 + (exp / 2) * random());
}
