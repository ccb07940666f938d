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
 * first (ties in id order). Read a page at a time with the outbox asked once per page (a first
 * pull's 20,000 tasks asked one by one were 40,000 queries in one stretch of half a second), and
 * sorted a slice at a time: the loop is given back once the turn's budget is spent (pages of
 * 1,000, then the sort of all of them at once, were stretches of 20-40 ms on a loaded machine).
 */
export async function staleTasksByActivity(cache: Cache, pending: PendingFields): Promise<StaleTask[]> {
  const slice = workSlice();
  const stale: StaleTask[] = [];
  for (let page = cache.tasks.staleFetchStates('', STALE_PAGE); ;) {
    const known = withStructuralOf(
      pending,
      'task',
      page.map((s) => s.id),
    );
    for (const state of page) if (!known.isPendingStructural('task', state.id)) stale.push(state);
    if (page.length < STALE_PAGE) break;
    if (slice.due()) {
      await yieldToLoop();
      slice.reset();
    }
    page = cache.tasks.staleFetchStates(page[page.length - 1]!.id, STALE_PAGE);
  }
  return sortInSlices(stale, byActivity);
}
