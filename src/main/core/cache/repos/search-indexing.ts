import { turnSpent, workSlice } from '../../loop-turns';
import type { SearchRepo } from './search';

/**
 * How long after the first cache change (with nothing waiting) the index is first brought up to
 * date: a first sync's My Work is stored in about a second, and its tasks wait for the index
 * rather than the index for them (cache migration 018).
 */
export const INDEX_START_DELAY_MS = 1_000;

/** Between two slices of indexing: the core's other work has most of each stretch. */
export const INDEX_PAUSE_MS = 50;

/** Longest slice of indexing; about 100 tasks on an idle machine. */
export const INDEX_SLICE_MS = 4;

/** Tasks indexed between two looks at the clock. */
const INDEX_BATCH = 16;

export interface SearchIndexing {
  /** The cache changed: tasks may wait for the index. */
  kick(): void;
  /** No slice runs after this (a slice never spans an await: none is under way). */
  stop(): void;
}

/**
 * Puts the tasks that wait for the full-text index into it, in the background: once a cache
 * change was told (`kick`), after `INDEX_START_DELAY_MS`, a slice of at most `INDEX_SLICE_MS`
 * (one transaction) every `INDEX_PAUSE_MS` until none waits. A slice is put off while other
 * work waits for its turn of the loop (`turnSpent`): the core's own work goes first. Tasks
 * waiting from a run before (the cache file reopened) are indexed from the start.
 */
export function startSearchIndexing(
  search: Pick<SearchRepo, 'pendingCount' | 'indexPending'>,
  transaction: (work: () => void) => void,
  log: (message: string) => void,
): SearchIndexing {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped || timer) return;
    timer = setTimeout(slice, ms);
    // A closed account stops it (`stop`); it alone must not keep a process alive.
    timer.unref();
  };

  function slice(): void {
    timer = undefined;
    if (stopped) return;
    if (turnSpent()) return schedule(INDEX_PAUSE_MS);
    let left = true;
    try {
      const clock = workSlice(INDEX_SLICE_MS);
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
    if (left) schedule(INDEX_PAUSE_MS);
  }

  if (search.pendingCount() > 0) schedule(INDEX_PAUSE_MS);
  return {
    kick: () => schedule(INDEX_START_DELAY_MS),
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
