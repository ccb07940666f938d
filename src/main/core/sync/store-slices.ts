import { workSlice, yieldToLoop } from '../api/list-elements';

/** Items stored between two looks at the clock (each look costs more than storing one). */
const CHUNK = 32;

/**
 * Stores a list the service answered a slice at a time: each slice is one transaction of a few
 * chunks, as many as fit in the work slice (`SLICE_MS`), and the event loop is given back between
 * slices, so an IPC call waits at most about one slice behind a long list. `storeChunk` writes
 * each item of its chunk whole, inside the slice's transaction: a read between two slices sees
 * every item as it was or as stored, never half. What it asks the outbox (rule 7) it asks per
 * chunk, so a local change made between two slices is seen by the slices after it. A crash
 * between slices keeps the slices committed; the next pull stores the list again.
 */
export async function storeInSlices<T>(
  transaction: (work: () => void) => void,
  items: readonly T[],
  storeChunk: (chunk: readonly T[]) => void,
): Promise<void> {
  let at = 0;
  while (at < items.length) {
    const slice = workSlice();
    const first = at;
    transaction(() => {
      while (at < items.length && (at === first || !slice.due())) {
        const chunk = items.slice(at, Math.min(items.length, at + CHUNK));
        storeChunk(chunk);
        at += chunk.length;
      }
    });
    if (at < items.length) await yieldToLoop();
  }
}
