import pLimit, { type LimitFunction } from 'p-limit';
import type { ServiceClient } from '../api/client';
import { AbortedError } from '../api/errors';
import { turnSpent, workSlice, yieldToLoop } from '../loop-turns';
import type { Cache } from '../cache/cache';
import type { CacheChange } from '../../../shared/ipc/events';
import type { InitialSyncProgress, SyncPhase } from '../../../shared/ipc/sync';
import type { PendingFields } from './pending';
import type { ReadProblems } from './read-problems';
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
  /** Where what could not be read is recorded (the sync's; absent in some unit tests). */
  problems?: ReadProblems;
  /**
   * How long a first pull's project lists wait for the user's own lists to be stored (default
   * `MY_LISTS_HEAD_START_MS` of `entities/tasks`). Tests that hold my lists on purpose set it
   * longer than they hold them, so a loaded machine cannot end the wait under them.
   */
  myListsHeadStartMs?: number;
}

/** Progress of one run, as the status shows it. */
export interface Progress {
  phase(phase: SyncPhase): void;
  /** More requests became known. */
  add(n: number): void;
  /** One request finished. */
  done(): void;
  /** A first sync's progress moved (what is usable already); absent where no status shows it. */
  initial?(patch: Partial<InitialSyncProgress>): void;
}

/**
 * A run's request gate: at most `concurrency` requests in flight, each retried on transient
 * failures outside the gate (a waiting retry holds no slot), all cancelled by `signal`; a request
 * is sent within the loop's turn while its budget lasts (`loop-turns.ts`).
 */
export function createGate(
  deps: SyncDeps,
  concurrency: number,
  signal: AbortSignal,
  progress: Progress,
  options: { waitsTurn?: boolean } = {},
) {
  const limit: LimitFunction = pLimit(concurrency);
  // A read the user waits for (a task opened) does not wait behind a sync's queued work.
  const waitsTurn = options.waitsTurn ?? true;
  /** `counted`: the caller already added this request to the progress total. */
  return function request<T>(call: (signal: AbortSignal) => Promise<T>, counted = false): Promise<T> {
    if (!counted) progress.add(1);
    return withRetry(
      () =>
        limit(async () => {
          // A request's set-up, and the handling of its answer that follows, cost a millisecond
          // or more on a loaded machine: once the loop's turn has spent its budget, it is sent
          // in the next turn (a first sync's message reads ran six of them in a turn, beside a
          // slice of stored messages).
          if (waitsTurn && turnSpent()) await yieldToLoop();
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

/**
 * Groups many small cache writes (one per fetched task) into few transactions: writes run when
 * 64 are waiting (in the next turn once this turn's budget is spent) or 25 ms after the first,
 * whichever comes first. Each commit costs a WAL write,
 * so batching saves most of them during a large pull. A run stores writes for one work slice
 * (`SLICE_MS`) and gives the loop back before the rest (a first sync's 64 tasks' messages were one
 * stretch of up to 100 ms on a loaded machine); each write runs whole inside its transaction, so a
 * read between two runs sees a task's messages as they were or as stored. `flush` runs every
 * write waiting, in one transaction.
 */
export function createWriteBatcher(
  cache: { transaction<T>(fn: () => T): T },
  onFlush: () => void = () => {},
) {
  let queue: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  // A run waits for its turn of the loop (shared with the core's other work: `loop-turns.ts`);
  // a flush meanwhile makes it moot, which its number tells.
  let resuming = false;
  let resumes = 0;
  // A write that failed on the timer or between slices is thrown by the next explicit flush. It
  // costs only its own run's writes (rolled back: their tasks are not marked fetched, so the next
  // pull fetches them again); the writes after it still run.
  let failed: unknown = null;
  const stopWaiting = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    resuming = false;
    resumes++;
  };
  /** Runs the first waiting writes, all of them or as many as fit in `slice`, in one transaction. */
  const run = (slice?: { due(): boolean }): void => {
    let at = 0;
    const writes = queue;
    queue = [];
    try {
      cache.transaction(() => {
        while (at < writes.length && (at === 0 || !slice?.due())) writes[at++]!();
      });
    } finally {
      // Those not reached yet wait for the next run (after a failure too: only the
      // transaction's own writes are rolled back).
      queue = [...writes.slice(at), ...queue];
    }
    onFlush();
  };
  const runSlice = (): void => {
    stopWaiting();
    if (!queue.length) return;
    try {
      run(workSlice());
    } catch (err) {
      failed ??= err;
    }
    if (queue.length) resumeLater();
  };
  const resumeLater = (): void => {
    resuming = true;
    const mine = ++resumes;
    void yieldToLoop().then(() => {
      if (mine === resumes) runSlice();
    });
  };
  const flush = (): void => {
    stopWaiting();
    // Every write waiting runs (a failing one costs its run: the others are run again), then an
    // earlier failure is reported, once.
    while (queue.length) {
      try {
        run();
      } catch (err) {
        failed ??= err;
      }
    }
    const err = failed;
    failed = null;
    if (err) throw err;
  };
  return {
    write(fn: () => void): void {
      queue.push(fn);
      // Once the turn's budget is spent (the answers read in this turn), the run waits its turn.
      if (queue.length >= 64 && !resuming) {
        if (turnSpent()) resumeLater();
        else runSlice();
      } else if (!timer && !resuming) timer = setTimeout(runSlice, 25);
    },
    flush,
  };
}

export type WriteBatcher = ReturnType<typeof createWriteBatcher>;
