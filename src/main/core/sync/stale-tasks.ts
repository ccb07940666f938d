import type { Cache } from '../cache/cache';
import type { TaskFetchState } from '../cache/repos/tasks';
import { workSlice, yieldToLoop } from '../loop-turns';
import { sortInSlices } from './sort-in-slices';
import { withStructuralOf, type PendingFields } from './pending';

/** The stale tasks' fetch states read at once (see `TasksRepo.staleFetchStates`). */
export const STALE_PAGE = 200;

export type StaleTask = TaskFetchState & { id: string };

/** The most recently active first. Moments compare as text: one service stamps them all in one format. */
const byActivity = (a: StaleTask, b: StaleTask): number =>
  a.recentActivityMoment === b.recentActivityMoment
    ? 0
    : a.recentActivityMoment < b.recentActivityMoment
      ? 1
      : -1;

/**
 * The tasks whose messages are stale (their activity moved since they were fetched), but those
 * with a structural change in the outbox (created, moved, deleted here), the most recently active
 * first (ties in id order). Read a page at a time until the turn's budget is spent, then the
 * outbox asked once over the pages read in that turn (its answer costs with the outbox's backlog,
 * not with the ids asked: asked per page of 200 it was most of the scan), then the loop given
 * back; the rows and the outbox are read in the same turn, so no change between them is missed.
 * Sorted a slice at a time (pages of 1,000, then the sort of all of them at once, were stretches
 * of 20-40 ms on a loaded machine).
 */
export async function staleTasksByActivity(cache: Cache, pending: PendingFields): Promise<StaleTask[]> {
  const slice = workSlice();
  const stale: StaleTask[] = [];
  let read: StaleTask[] = [];
  for (let page = cache.tasks.staleFetchStates('', STALE_PAGE); ;) {
    read = read.length ? read.concat(page) : page;
    const last = page.length < STALE_PAGE;
    if (last || slice.due()) {
      const known = withStructuralOf(
        pending,
        'task',
        read.map((s) => s.id),
      );
      for (const state of read) if (!known.isPendingStructural('task', state.id)) stale.push(state);
      read = [];
      if (last) break;
      await yieldToLoop();
      slice.reset();
    }
    page = cache.tasks.staleFetchStates(page[page.length - 1]!.id, STALE_PAGE);
  }
  return sortInSlices(stale, byActivity);
}
