import pLimit, { type LimitFunction } from 'p-limit';
import type { ServiceClient } from '../api/client';
import { AbortedError } from '../api/errors';
import type { Cache } from '../cache/cache';
import type { CacheChange } from '../../../shared/ipc/events';
import type { SyncPhase } from '../../../shared/ipc/sync';
import type { PendingFields } from './pending';
import { withRetry, type RetryPolicy, type Sleep } from './retry';

/** What every sync step needs, passed in so tests control time, network and the outbox port. */
export interface SyncDeps {
  cache: Cache;
  client: ServiceClient;
  pending: PendingFields;
  /** The acting user (My Work). */
  userId: string;
  clock: () => Date;
  log: (message: string) => void;
  emitChange: (change: CacheChange) => void;
  retry: RetryPolicy;
  sleep?: Sleep;
}

/** Progress of one run, as the status shows it. */
export interface Progress {
  phase(phase: SyncPhase): void;
  /** More requests became known. */
  add(n: number): void;
  /** One request finished. */
  done(): void;
}

/**
 * A run's request gate: at most `concurrency` requests in flight, each retried on transient
 * failures outside the gate (a waiting retry holds no slot), all cancelled by `signal`.
 */
export function createGate(deps: SyncDeps, concurrency: number, signal: AbortSignal, progress: Progress) {
  const limit: LimitFunction = pLimit(concurrency);
  return function request<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    progress.add(1);
    return withRetry(
      () =>
        limit(() => {
          if (signal.aborted) throw new AbortedError('SYNC', '', 'cancelled');
          return call(signal);
        }),
      deps.retry,
      { signal, ...(deps.sleep ? { sleep: deps.sleep } : {}) },
    ).finally(() => progress.done());
  };
}

export type Gate = ReturnType<typeof createGate>;

/** `YYYY-MM-DDTHH:MM:SS.mmm` in local time, the cache's fetched-at stamps. */
export function stamp(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}.${p(date.getMilliseconds(), 3)}`;
}
