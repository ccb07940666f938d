// The tasks whose messages are stale, read at the end of a pull: every one found (but those with
// a structural change in the outbox), the most recently active first, and the loop given back
// while they are read and sorted.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCacheDb } from '../cache/db';
import { aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { accountCache } from '../handlers/index';
import { resetTurns, turns } from '../loop-turns.testing';
import { noPending, type PendingFields } from './pending';
import { staleTasksByActivity } from './stale-tasks';

vi.mock('../loop-turns', async (importOriginal) =>
  (await import('../loop-turns.testing')).loopTurnsDouble(await importOriginal()),
);

afterEach(resetTurns);

const COUNT = 2_500;
/** Activity in another order than the ids, with ties (a tenth of the tasks share each moment). */
const moment = (i: number) => `2026-01-01T00:00:00.${String(((i * 7919) % COUNT) % 250).padStart(6, '0')}`;
const id = (i: number) => `t${String(i).padStart(5, '0')}`;

function cacheWithStaleTasks() {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.tasks.upsertMany(
    Array.from({ length: COUNT }, (_, i) =>
      flattenTask(aTask({ id: id(i), projectId: 'P', recentActivityMoment: moment(i) })),
    ),
  );
  return cache;
}

describe('the stale tasks read at the end of a pull', () => {
  it('are every stale task but those with a structural change pending, the most recently active first, ties in id order', async () => {
    const cache = cacheWithStaleTasks();
    const moved = new Set([id(3), id(1_700)]);
    const pending: PendingFields = {
      ...noPending,
      pendingStructuralAmong: (_entity, ids) => new Set(ids.filter((i) => moved.has(i))),
    };
    const stale = await staleTasksByActivity(cache, pending);
    const expected = Array.from({ length: COUNT }, (_, i) => ({ id: id(i), at: moment(i) }))
      .filter((t) => !moved.has(t.id))
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? 1 : -1))
      .map((t) => t.id);
    expect(stale.map((s) => s.id)).toEqual(expected);
    const first = Number(expected[0]!.slice(1));
    expect(stale[0]).toEqual({
      id: expected[0],
      recentActivityMoment: moment(first),
      messagesActivityMoment: null,
      detailFetchedAt: null,
    });
  });

  it('give the loop back every few hundred tasks read, and while they are sorted, when the turn is spent', async () => {
    const cache = cacheWithStaleTasks();
    const original = cache.tasks.staleFetchStates.bind(cache.tasks);
    let readSinceYield = 0;
    let mostReadInOneTurn = 0;
    /** The loop given back this many times before the last page was read. */
    let yieldsBeforeLastRead = 0;
    vi.spyOn(cache.tasks, 'staleFetchStates').mockImplementation((afterId, limit) => {
      if (turns.givenBack !== yieldsBeforeLastRead) readSinceYield = 0;
      yieldsBeforeLastRead = turns.givenBack;
      const page = original(afterId, limit);
      readSinceYield += page.length;
      mostReadInOneTurn = Math.max(mostReadInOneTurn, readSinceYield);
      return page;
    });
    turns.spentAlways = true;
    turns.givenBack = 0;
    const stale = await staleTasksByActivity(cache, noPending);
    expect(stale).toHaveLength(COUNT);
    expect(mostReadInOneTurn).toBeLessThanOrEqual(250);
    // The sort of 2,500 tasks, a few hundred merged at a time.
    expect(turns.givenBack - yieldsBeforeLastRead).toBeGreaterThanOrEqual(COUNT / 500);
  });

  it('ask the outbox once per turn, over every page read in it, not once per page', async () => {
    const cache = cacheWithStaleTasks();
    const moved = new Set([id(3), id(1_700)]);
    /** The ids of each question, and the loop's give-backs counted when it was asked. */
    const questions: { ids: readonly string[]; at: number }[] = [];
    const pending: PendingFields = {
      ...noPending,
      pendingStructuralAmong: (_entity, ids) => {
        questions.push({ ids: [...ids], at: turns.givenBack });
        return new Set(ids.filter((i) => moved.has(i)));
      },
    };
    // All 13 pages in one turn: one question, over all 2,500 tasks.
    turns.neverSpent = true;
    turns.givenBack = 0;
    const stale = await staleTasksByActivity(cache, pending);
    expect(stale).toHaveLength(COUNT - moved.size);
    expect(questions.map((q) => q.ids.length)).toEqual([COUNT]);
    // Each page its own turn: one question per turn, over that turn's page, asked before the
    // loop is given back (the rows and the outbox read in one turn).
    turns.neverSpent = false;
    turns.spentAlways = true;
    questions.length = 0;
    turns.givenBack = 0;
    expect(await staleTasksByActivity(cache, pending)).toHaveLength(COUNT - moved.size);
    expect(questions.map((q) => q.ids.length)).toEqual([...Array<number>(12).fill(200), 100]);
    expect(questions.map((q) => q.at)).toEqual(Array.from({ length: 13 }, (_, i) => i));
  });
});
