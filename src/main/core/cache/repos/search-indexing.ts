import { turnSpent, workSlice } from '../../loop-turns';
import type { SearchRepo } from './search';

/** How long after a cache change the first slice runs: the writes of one pull come together. */
export const INDEX_START_DELAY_MS = 50;

/** How long a slice is put off while other work of the core waits for its turn of the loop. */
export const INDEX_PAUSE_MS = 10;

/** Tasks indexed between two looks at the clock. */
const INDEX_BATCH = 16;

export interface SearchIndexing {
  /** The cache changed: tasks may wait for the index. */
  kick(): void;
  /**
   * Held: no slice runs (a first sync's My Work is being stored: its tasks wait for the index
   * rather than My Work for the index). Released: the slices go on.
   */
  hold(held: boolean): void;
  /** No slice runs after this (a slice never spans an await: none is under way). */
  stop(): void;
}

/**
 * Puts the tasks that wait for the full-text index (cache migration 019) into it when the core
 * is idle: a slice (one transaction, at most the loop's work slice, `workSlice`) runs only in a
 * turn of the loop where no other work waits (`turnSpent`); while some does, the slice is put off
 * by `INDEX_PAUSE_MS`. It begins `INDEX_START_DELAY_MS` after a cache change is told (`kick`),
 * and at once for tasks waiting from an earlier run (the cache file reopened), and goes on until
 * none waits. A search finds the waiting tasks meanwhile (`SearchRepo.query`).
 */
export function startSearchIndexing(
  search: Pick<SearchRepo, 'pendingCount' | 'indexPending'>,
  transaction: (work: () => void) => void,
  log: (message: string) => void,
): SearchIndexing {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let held = false;

  const schedule = (ms: number) => {
    if (stopped || held || timer) return;
    timer = setTimeout(step, ms);
    // A closed account stops it (`stop`); it alone must not keep a process alive.
    timer.unref();
  };

  function step(): void {
    timer = undefined;
    if (stopped || held) return;
    if (turnSpent()) return schedule(INDEX_PAUSE_MS);
    let left = true;
    try {
      const clock = workSlice();
      transaction(() => {
        do left = search.indexPending(INDEX_BATCH) === INDEX_BATCH;
        while (left && !clock.due());
      });
    } catch (err) {
      // The cache refused the write (the disk full): the tasks keep waiting, and a search still
      // finds them; the next cache change tries again.
      log(`search index: tasks not indexed: ${String(err)}`);
      return;
    }
    if (left) schedule(0);
  }

  if (search.pendingCount() > 0) schedule(0);
  return {
    kick: () => schedule(INDEX_START_DELAY_MS),
    hold(now) {
      if (now === held) return;
      held = now;
      if (held) {
        clearTimeout(timer);
        timer = undefined;
      } else if (search.pendingCount() > 0) schedule(0);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
