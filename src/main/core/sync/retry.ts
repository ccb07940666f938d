import { AbortedError, isTransient } from '../api/errors';

export interface RetryPolicy {
  /** Attempts in all, including the first. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 200, maxDelayMs: 5_000 };

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError('WAIT', '', 'cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError('WAIT', '', 'cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Runs `attempt` until it succeeds, a non-transient error occurs, or the attempts run out.
 * Transient errors (network, timeout, 429, 5xx) wait with exponential backoff and full jitter,
 * or as long as the service's Retry-After asks.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: { signal?: AbortSignal | undefined; sleep?: Sleep; random?: () => number } = {},
): Promise<T> {
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isTransient(err) || n >= policy.attempts || options.signal?.aborted) throw err;
      const retryAfter = (err as { retryAfterMs?: number | null }).retryAfterMs ?? null;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
      await wait(retryAfter ?? Math.round(backoff * (0.5 + random() / 2)), options.signal);
    }
  }
}
