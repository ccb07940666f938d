import { turnSpent, workSlice, yieldToLoop } from '../loop-turns';

/**
 * Items stored between two looks at the clock, and asked about at once (the outbox, rule 7: one
 * question per chunk). A task stored costs about 0.15 ms on a loaded machine: 32 of them, the
 * least a slice stores, were up to about 5 ms past the turn's budget; 16 are half that.
 */
export const STORE_CHUNK = 16;

/**
 * Stores a list the service answered a slice at a time: each slice is one transaction of a few
 * chunks, as many as fit in the work slice (`SLICE_MS`), and the event loop is given back between
 * slices, so an IPC call waits at most about one slice behind a long list. `storeChunk` writes
 * each item of its chunk whole, inside the slice's transaction: a read between two slices sees
 * every item as it was or as stored, never half. What it asks the outbox (rule 7) it asks per
 * chunk, so a local change made between two slices is seen by the slices after it. A crash
 * between slices keeps the slices committed; the next pull stores the list again.
 *
 * A list handed over in a turn whose budget other work spent (several lists answered in one turn
 * of the loop) waits for its turn before its first slice, which then stores at least one chunk.
 */
export async function storeInSlices<T>(
  transaction: (work: () => void) => void,
  items: readonly T[],
  storeChunk: (chunk: readonly T[]) => void,
): Promise<void> {
  if (items.length && turnSpent()) await yieldToLoop();
  let at = 0;
  while (at < items.length) {
    const slice = workSlice();
    const first = at;
    transaction(() => {
      while (at < items.length && (at === first || !slice.due())) {
        const chunk = items.slice(at, Math.min(items.length, at + STORE_CHUNK));
        storeChunk(chunk);
        at += chunk.length;
      }
    });
    if (at < items.length) await yieldToLoop();
  }
}
