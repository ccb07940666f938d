import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCacheDb } from '../db';
import { aTask } from '../fixtures';
import { TASK_LIST_COLUMNS, flattenTask } from './tasks';
import { JOINED_OF, LEAVE_EXTRAS, PACE_IDS } from './task-fingerprints';
import { accountCache } from '../../handlers/index';
import { resetTurns, turns } from '../../loop-turns.testing';

vi.mock('../../loop-turns', async (importOriginal) =>
  (await import('../../loop-turns.testing')).loopTurnsDouble(await importOriginal()),
);

const dirs: string[] = [];
afterEach(() => {
  resetTurns();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A cache with two tasks of project p1 stored as their elements `f1`, `f2` (answer `w1`). */
async function cachedList(file = ':memory:') {
  const cache = accountCache(openCacheDb(file));
  cache.tasks.upsertMany(
    [aTask({ id: 't1', projectId: 'p1' }), aTask({ id: 't2', projectId: 'p1' })].map(flattenTask),
  );
  cache.taskFingerprints.stored([
    ['t1', 'f1'],
    ['t2', 'f2'],
  ]);
  await cache.taskFingerprints.storedWhole('p1', 'w1', ['t1', 't2']);
  return cache;
}

/** An answer's ranges as the reader records them (two ranges), for `ids` with these elements. */
const rangesOf = (whole: string, ids: string[], fingerprints: string[]) => ({
  whole,
  ends: [10, 20],
  digests: ['d1', 'd2'],
  counts: [2, 4],
  ids,
  fingerprints,
  states: [],
});

/** Tasks t1-t4 of p1 stored as elements `f-t1`..`f-t4`, and the answer `w1` recorded by ranges. */
async function recordedList() {
  const cache = accountCache(openCacheDb(':memory:'));
  const f = cache.taskFingerprints;
  const ids = ['t1', 't2', 't3', 't4'];
  cache.tasks.upsertMany(ids.map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
  f.stored(ids.map((id) => [id, `f-${id}`]));
  const r1 = rangesOf(
    'w1',
    ids,
    ids.map((id) => `f-${id}`),
  );
  await f.storedWhole('p1', 'w1', ids, r1);
  return { cache, f, ids, r1 };
}

/**
 * Tasks t0..t(n-1) of p1 stored as elements `f-t0`.., recorded by ranges as answer `w1`; then a
 * read of the next answer `w2`, where t600 changed (stored again from its new element) and the
 * rest of the elements are vouched for by two spans of the record, asked about once.
 */
async function spansRead(n = 1_200) {
  const cache = accountCache(openCacheDb(':memory:'));
  const f = cache.taskFingerprints;
  const ids = Array.from({ length: n }, (_, i) => `t${i}`);
  cache.tasks.upsertMany(ids.map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
  f.stored(ids.map((id) => [id, `f-${id}`]));
  const r1 = rangesOf(
    'w1',
    ids,
    ids.map((id) => `f-${id}`),
  );
  await f.storedWhole('p1', 'w1', ids, r1);
  const known = f.forList('p1');
  expect(known.vouchRecorded(r1, 0, 600)).toBe(true);
  expect(known.vouchRecorded(r1, 601, n)).toBe(true);
  cache.tasks.upsertMany([flattenTask(aTask({ id: 't600', projectId: 'p1', name: 'New' }))]);
  f.stored([['t600', 'f-t600-new']]);
  expect(known.lostSince().size).toBe(0);
  const r2 = rangesOf(
    'w2',
    ids,
    ids.map((id) => (id === 't600' ? 'f-t600-new' : `f-${id}`)),
  );
  const vouched = {
    recorded: r1,
    spans: [
      [0, 600],
      [601, n],
    ] as const,
  };
  return { cache, f, ids, r1, r2, vouched };
}

describe('task fingerprints: list elements held as sent', () => {
  it('knows each element and the whole answer while the rows are as stored', async () => {
    const { taskFingerprints: f } = await cachedList();
    expect(f.idOf('f1')).toBe('t1');
    expect(f.idOf('f3')).toBeUndefined();
    expect([...(f.wholeAnswer('w1') ?? [])].sort()).toEqual(['t1', 't2']);
    expect(f.wholeAnswer('w2')).toBeUndefined();
    expect(f.size).toBe(2);
  });

  it('forgets a row written since, or removed, and the whole answer with it', async () => {
    const cache = await cachedList();
    const f = cache.taskFingerprints;
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', name: 'Written here' }))]);
    expect(f.idOf('f1')).toBeUndefined();
    expect(f.idOf('f2')).toBe('t2');
    expect(f.wholeAnswer('w1')).toBeUndefined();
    cache.transaction(() => cache.tasks.delete(['t2']));
    expect(f.idOf('f2')).toBeUndefined();
    expect(f.size).toBe(0);
  });

  it('keeps them over a write of the task detail only (not the list shape)', async () => {
    const cache = await cachedList();
    cache.tasks.setDetail('t1', null, '2026-01-02T00:00:00');
    expect(cache.taskFingerprints.idOf('f1')).toBe('t1');
    expect(cache.taskFingerprints.wholeAnswer('w1')).toBeDefined();
  });

  it('a task stored from another element leaves the answer that held it', async () => {
    const { taskFingerprints: f } = await cachedList();
    f.stored([['t1', 'f1b']]);
    expect(f.idOf('f1')).toBeUndefined();
    expect(f.idOf('f1b')).toBe('t1');
    expect(f.wholeAnswer('w1')).toBeUndefined();
    // The new answer is proved whole again; an answer naming a task not held is not.
    await f.storedWhole('p1', 'w2', ['t1', 't2']);
    expect([...(f.wholeAnswer('w2') ?? [])].sort()).toEqual(['t1', 't2']);
    await f.storedWhole('p1', 'w3', ['t1', 't2', 't9']);
    expect(f.wholeAnswer('w3')).toBeUndefined();
    expect(f.wholeAnswer('w2')).toBeUndefined();
  });

  it('a large list joins a slice at a time; a row written meanwhile leaves it not whole', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const ids = Array.from({ length: 4_500 }, (_, i) => `t${i}`);
    cache.tasks.upsertMany(ids.map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
    cache.taskFingerprints.stored(ids.map((id) => [id, `f-${id}`] as const));
    await cache.taskFingerprints.storedWhole('p1', 'w1', ids);
    expect(cache.taskFingerprints.wholeAnswer('w1')).toHaveLength(ids.length);
    // The next answer: its first slice joins at once, the rest after the loop is given back.
    const joining = cache.taskFingerprints.storedWhole('p1', 'w2', ids);
    expect(cache.taskFingerprints.wholeAnswer('w1')).toBeUndefined();
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't10', projectId: 'p1', name: 'Written here' }))]);
    await joining;
    expect(cache.taskFingerprints.wholeAnswer('w2')).toBeUndefined();
    // The same answer once every row is as stored again (t10 stored from its element anew).
    cache.taskFingerprints.stored([['t10', 'f-t10b']]);
    await cache.taskFingerprints.storedWhole('p1', 'w2', ids);
    expect(cache.taskFingerprints.wholeAnswer('w2')).toHaveLength(ids.length);
  });

  it('a long list stored whole gives the loop back every few hundred ids when the turn is spent, not only between joins', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const f = cache.taskFingerprints;
    const ids = Array.from({ length: 6_000 }, (_, i) => `t${i}`);
    cache.tasks.upsertMany(ids.map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
    f.stored(ids.map((id) => [id, `f-${id}`] as const));
    turns.spentAlways = true;
    turns.givenBack = 0;
    try {
      // As a first sync stores a list: every task joins, the answer recorded by ranges.
      const count = await f.storedWhole(
        'p1',
        'w1',
        ids,
        rangesOf(
          'w1',
          ids,
          ids.map((id) => `f-${id}`),
        ),
      );
      expect(count).toBe(ids.length);
    } finally {
      turns.spentAlways = false;
    }
    expect(f.wholeAnswer('w1')).toHaveLength(ids.length);
    // Its ids gone through three times (for the joining ones, the copies they hold, those that
    // left), each a few hundred at a time; the code before gave it back between joins only (2).
    expect(turns.givenBack).toBeGreaterThanOrEqual((3 * ids.length) / PACE_IDS - 1);
    expect(f.longestStretch).toBeLessThanOrEqual(PACE_IDS);
  });

  it('a list read again finds its elements from memory and joins only the tasks new to it', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const f = cache.taskFingerprints;
    const ids = Array.from({ length: 3_000 }, (_, i) => `t${i}`);
    cache.tasks.upsertMany(ids.map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
    f.stored(ids.map((id) => [id, `f-${id}`] as const));
    await f.storedWhole('p1', 'w1', ids);
    // Another list's task is found through the cache, as any element not held by this list.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'o1', projectId: 'p2' }))]);
    f.stored([['o1', 'f-o1']]);
    const known = f.forList('p1');
    await known.prepare();
    expect(known.idOf('f-t5')).toBe('t5');
    expect(known.idOf('f-o1')).toBe('o1');
    expect(known.idOf('f-none')).toBeUndefined();
    expect(known.lostSince?.().size).toBe(0);
    // t7 changed on the service (stored from its new element), o1 moved into this list.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't7', projectId: 'p1', name: 'Changed there' }))]);
    f.stored([['t7', 'f-t7b']]);
    const joins: string[] = [];
    cache.db.function('note_join', (id: unknown) => (joins.push(String(id)), 0));
    cache.db.exec(
      `CREATE TEMP TRIGGER joined AFTER UPDATE OF list_key ON task_fingerprints
       BEGIN SELECT note_join(new.task_id); END`,
    );
    await f.storedWhole('p1', 'w2', [...ids, 'o1']);
    expect(joins.sort()).toEqual(['o1', 't7']);
    expect(f.wholeAnswer('w2')).toHaveLength(ids.length + 1);
    expect(f.forList('p1').idOf('f-t7b')).toBe('t7');
    expect(f.forList('p1').idOf('f-t7')).toBeUndefined();
  });

  it('finds the tasks joining or leaving a list by their ids, not by reading the whole list', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    for (const sql of [JOINED_OF, LEAVE_EXTRAS]) {
      const plan = (cache.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('p1', '["t1"]') as { detail: string }[])
        .map((row) => row.detail)
        .join('\n');
      expect(plan).toMatch(
        /SEARCH task_fingerprints USING INDEX sqlite_autoindex_task_fingerprints_1 \(task_id=\?\)/,
      );
      expect(plan).not.toMatch(/task_fingerprints_list/);
    }
  });

  it('a task the answer no longer holds leaves its list, which is then whole without it', async () => {
    const cache = await cachedList();
    const f = cache.taskFingerprints;
    await f.storedWhole('p1', 'w2', ['t2']);
    expect(f.wholeAnswer('w2')).toEqual(['t2']);
    expect(f.forList('p1').idOf('f1')).toBe('t1');
    // Back in the next answer: it joins again.
    await f.storedWhole('p1', 'w3', ['t1', 't2']);
    expect([...(f.wholeAnswer('w3') ?? [])].sort()).toEqual(['t1', 't2']);
    // One task left and one not held came: as many as before, but not the same list.
    await f.storedWhole('p1', 'w4', ['t1', 't9']);
    expect(f.wholeAnswer('w4')).toBeUndefined();
    expect(f.wholeAnswer('w3')).toBeUndefined();
  });

  it('a task another list takes leaves the first one, in memory as in the file', async () => {
    const cache = await cachedList();
    const f = cache.taskFingerprints;
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'x', projectId: 'p2' }))]);
    f.stored([['x', 'fx']]);
    await f.storedWhole('p2', 'v1', ['x']);
    expect(f.wholeAnswer('v1')).toEqual(['x']);
    // x is listed by p1 now (its project moved there): it joins p1 and leaves p2.
    await f.storedWhole('p1', 'w2', ['t1', 't2', 'x']);
    expect([...(f.wholeAnswer('w2') ?? [])].sort()).toEqual(['t1', 't2', 'x']);
    const inFile = cache.db
      .prepare(`SELECT task_id FROM task_fingerprints WHERE list_key = 'p2'`)
      .pluck()
      .all();
    expect(inFile).toEqual([]);
    expect(f.wholeAnswer('v1') ?? []).toEqual([]);
    expect(f.forList('p1').idOf('fx')).toBe('x');
  });

  it('tells a list read which of the tasks it answered were written while it read', async () => {
    const cache = await cachedList();
    const known = cache.taskFingerprints.forList('p1');
    await known.prepare();
    expect(known.idOf('f1')).toBe('t1');
    expect(known.idOf('f2')).toBe('t2');
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't2', projectId: 'p1', name: 'Written here' }))]);
    expect([...(known.lostSince?.() ?? [])]).toEqual(['t2']);
    // The next read knows the list as the cache holds it now.
    const again = cache.taskFingerprints.forList('p1');
    await again.prepare();
    expect(again.idOf('f2')).toBeUndefined();
    expect(again.idOf('f1')).toBe('t1');
    expect(again.lostSince?.().size).toBe(0);
  });

  it('vouches for a span of the recorded answer at once while none of its tasks left the list, and tells of one written meanwhile', async () => {
    const { cache, f, r1: ranges } = await recordedList();
    expect(f.forList('p1').ranges()).toBe(ranges);
    // Another record (not the one kept with these members) is not vouched for.
    expect(f.forList('p1').vouchRecorded({ ...ranges }, 0, 4)).toBe(false);
    // t2 stored again from another element (a change met in a read): its span is looked up
    // element by element, the other span still vouched for at once.
    f.stored([['t2', 'f-t2-new']]);
    const known = f.forList('p1');
    expect(known.vouchRecorded(ranges, 0, 2)).toBe(false);
    expect(known.vouchRecorded(ranges, 2, 4)).toBe(true);
    expect(known.lostSince().size).toBe(0);
    // A row of a span vouched for written while the list is read: told as lost.
    expect(known.vouchRecorded(ranges, 2, 4)).toBe(true);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't4', projectId: 'p1', name: 'Written here' }))]);
    expect([...known.lostSince()]).toEqual(['t4']);
    // The members were read again since: the record is no longer theirs.
    expect(f.forList('p1').vouchRecorded(ranges, 2, 4)).toBe(false);
  });

  it("a row joined by its id that holds another copy than the answer's element is not taken as the answer's", async () => {
    const { cache, f, ids } = await recordedList();
    // This list's read stores t2's new element; then another list's read (an older answer, the
    // task in project q) stores its own copy over it, before this list is stored whole.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't2', projectId: 'p1', name: 'New' }))]);
    f.stored([['t2', 'f-t2-new']]);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't2', projectId: 'q', name: 'Old' }))]);
    f.stored([['t2', 'f-t2-q']]);
    const r2 = rangesOf('w2', ids, ['f-t1', 'f-t2-new', 'f-t3', 'f-t4']);
    await f.storedWhole('p1', 'w2', ids, r2);
    // Not whole (t2's row is not this answer's), no ranges kept, nothing vouched for: the next
    // pull reads t2's element again. Before, the list was whole and t2's span vouched for at
    // every later pull, the row holding project q's copy.
    expect(f.wholeAnswer('w2')).toBeUndefined();
    const known = f.forList('p1');
    expect(known.ranges()).toBeUndefined();
    expect(known.vouchRecorded(r2, 0, 2)).toBe(false);
    expect(f.idOf('f-t2-new')).toBeUndefined();
  });

  it('an answer naming a task twice, with two texts, is whole when the row holds either of them', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const f = cache.taskFingerprints;
    cache.tasks.upsertMany(['t1', 't2', 't3'].map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
    // The pull stores each element in turn: t2's second copy last.
    f.stored([
      ['t1', 'f-t1'],
      ['t2', 'f-t2-b'],
      ['t3', 'f-t3'],
    ]);
    const ids = ['t1', 't2', 't3', 't2'];
    const ranges = rangesOf('w1', ids, ['f-t1', 'f-t2-a', 'f-t3', 'f-t2-b']);
    await f.storedWhole('p1', 'w1', ids, ranges);
    // Before, t2's first copy (not the row's) made it leave: the list never whole, read and
    // stored again at every pull.
    expect([...(f.wholeAnswer('w1') ?? [])].sort()).toEqual(['t1', 't2', 't3']);
  });

  it('stores a list whole through the ids outside the spans vouched for, not every element', async () => {
    const { f, ids, r2, vouched } = await spansRead();
    const before = f.idsLookedUp;
    await f.storedWhole('p1', 'w2', ['t600'], r2, vouched);
    // t600 alone, not the 1,200 (before, every id of the answer, once in a set and once among
    // the members).
    expect(f.idsLookedUp - before).toBeLessThan(10);
    expect(f.wholeAnswer('w2')).toHaveLength(ids.length);
    expect(f.forList('p1').ranges()).toBe(r2);
    expect(f.forList('p1').vouchRecorded(r2, 0, ids.length)).toBe(true);
  });

  it("a vouched span's task stored by another list after the read's last ask leaves the list not whole", async () => {
    const { cache, f, r2, vouched } = await spansRead();
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't100', projectId: 'q', name: 'Old' }))]);
    f.stored([['t100', 'f-t100-q']]);
    await f.storedWhole('p1', 'w2', ['t600'], r2, vouched);
    // t100's row holds project q's copy, not this answer's element: read again next pull.
    expect(f.wholeAnswer('w2')).toBeUndefined();
    expect(f.forList('p1').ranges()).toBeUndefined();
    expect(f.idOf('f-t100')).toBeUndefined();
  });

  it('a list whose answer lost a task while a span task left for another list is not stored whole', async () => {
    const { cache, f, ids, r1 } = await spansRead();
    // The new answer: t600 changed, t1199 gone from it (spans [0,600) and [601,1199) of r1).
    const answerIds = ids.filter((id) => id !== 't1199');
    const r2 = rangesOf(
      'w2',
      answerIds,
      answerIds.map((id) => (id === 't600' ? 'f-t600-new' : `f-${id}`)),
    );
    // After the read's last ask, another list's read stores t100 from its own element.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't100', projectId: 'q', name: 'Old' }))]);
    f.stored([['t100', 'f-t100-q']]);
    await f.storedWhole('p1', 'w2', ['t600'], r2, {
      recorded: r1,
      spans: [
        [0, 600],
        [601, 1199],
      ],
    });
    // Counted as a member, t100 would make the list look intact with t1199 in it and t100 not.
    expect(f.wholeAnswer('w2')).toBeUndefined();
  });

  it('a row of a vouched span written between the read and the store (the members read again) leaves the list not whole', async () => {
    const { cache, f, r2, vouched } = await spansRead();
    // t5's row is written (an edit, a detail): its fingerprint forgotten, the count falls, and
    // the store reads the members again, with no record of the spans' answer.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't5', projectId: 'p1', name: 'Edited' }))]);
    await f.storedWhole('p1', 'w2', ['t600'], r2, vouched);
    expect(f.wholeAnswer('w2')).toBeUndefined();
  });

  it('an answer naming a task of a vouched span again outside it counts it once', async () => {
    const { f, ids, vouched } = await spansRead();
    const twice = [...ids, 't5'];
    const r2 = rangesOf(
      'w2',
      twice,
      twice.map((id) => (id === 't600' ? 'f-t600-new' : `f-${id}`)),
    );
    await f.storedWhole('p1', 'w2', ['t600', 't5'], r2, vouched);
    expect([...(f.wholeAnswer('w2') ?? [])]).toHaveLength(ids.length);
    // Not distinct: no record to vouch for it by spans.
    expect(f.forList('p1').ranges()).toBeUndefined();
  });

  it('tells how many distinct tasks a list stored whole holds, so its ids need not be counted again', async () => {
    const { cache, f, ids, vouched } = await spansRead();
    const twice = [...ids, 't5'];
    const r2 = rangesOf(
      'w2',
      twice,
      twice.map((id) => (id === 't600' ? 'f-t600-new' : `f-${id}`)),
    );
    // Through spans, a task named twice counted once.
    expect(await f.storedWhole('p1', 'w2', ['t600', 't5'], r2, vouched)).toBe(ids.length);
    // The same answer again (a pull with no change): the intact list's rows.
    expect(await f.storedWhole('p1', 'w2', ['t600', 't5'], r2, vouched)).toBe(ids.length);
    // Through ids only, named twice.
    expect(await f.storedWhole('p1', 'w3', [...ids, 't1'])).toBe(ids.length);
    expect(await f.storedWhole('p1', 'w3', [...ids, 't1'])).toBe(ids.length);
    // Not whole (a task of the answer not held as its element): not told, the caller counts.
    expect(await f.storedWhole('p1', 'w4', [...ids, 'x'])).toBeUndefined();
    // Nor once a row of the intact list was written: the same answer is not intact any more.
    expect(await f.storedWhole('p1', 'w3', ids)).toBe(ids.length);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't7', projectId: 'p1', name: 'Edited' }))]);
    expect(await f.storedWhole('p1', 'w3', ids)).toBeUndefined();
  });

  it("tells of a task of a vouched span stored meanwhile from another list's element", async () => {
    const { f, r1 } = await recordedList();
    const known = f.forList('p1');
    expect(known.vouchRecorded(r1, 0, 4)).toBe(true);
    // Another list's read stores t2 from its own element: t2's row and the members both lose it,
    // so their counts still agree; t2 is told as lost all the same (before: nothing told).
    f.stored([['t2', 'f-t2-q']]);
    expect([...known.lostSince()]).toEqual(['t2']);
  });

  it('tells of a task looked up one by one and stored meanwhile from another element', async () => {
    const { f } = await recordedList();
    const known = f.forList('p1');
    await known.prepare();
    expect(known.idOf('f-t2')).toBe('t2');
    // Another list's read stores t2 from its own element: the row and the members both lose it,
    // so their counts agree; told all the same (before: nothing told).
    f.stored([['t2', 'f-t2-q']]);
    expect([...known.lostSince()]).toEqual(['t2']);
  });

  it("tells of a task answered from another list's row that was written meanwhile", async () => {
    const cache = await cachedList();
    const f = cache.taskFingerprints;
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't3', projectId: 'q' }))]);
    f.stored([['t3', 'f3']]);
    await f.storedWhole('q', 'wq', ['t3']);
    const known = f.forList('p1');
    await known.prepare();
    // t3 moved to p1: its element is met in p1's answer, its row still q's.
    expect(known.idOf('f3')).toBe('t3');
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't3', projectId: 'q', name: 'Written here' }))]);
    expect([...known.lostSince()]).toEqual(['t3']);
  });

  it("counts a list's rows again only when a row changed since the last count", async () => {
    const cache = await cachedList();
    const f = cache.taskFingerprints;
    const known = f.forList('p1');
    await known.prepare();
    const before = f.countReads;
    // Slices read with no write between: the count read once holds for every ask.
    for (let ask = 0; ask < 4; ask++) {
      expect(known.idOf('f1')).toBe('t1');
      expect(known.lostSince().size).toBe(0);
    }
    expect(f.countReads - before).toBeLessThanOrEqual(1);
    // A row written behind the read's back (any writer of the connection): counted again, and told.
    cache.db.prepare(`UPDATE tasks SET name = 'Written here' WHERE id = 't1'`).run();
    expect([...known.lostSince()]).toEqual([]);
    expect(known.idOf('f2')).toBe('t2');
    cache.db.prepare(`UPDATE tasks SET name = 'Written here' WHERE id = 't2'`).run();
    expect([...known.lostSince()]).toEqual(['t2']);
    expect(f.countReads - before).toBeGreaterThanOrEqual(2);
  });

  it('counts a list again after another connection (another process) wrote the cache file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fingerprints-'));
    dirs.push(dir);
    const file = join(dir, 'cache.sqlite');
    const cache = await cachedList(file);
    const known = cache.taskFingerprints.forList('p1');
    await known.prepare();
    expect(known.idOf('f2')).toBe('t2');
    expect(known.lostSince().size).toBe(0);
    expect(known.idOf('f1')).toBe('t1');
    // Another process on the same data folder edits t1: its row leaves the list (the trigger).
    const other = new Database(file);
    try {
      other.prepare(`UPDATE tasks SET name = 'Written elsewhere' WHERE id = 't1'`).run();
    } finally {
      other.close();
    }
    expect([...known.lostSince()]).toEqual(['t1']);
    cache.db.close();
  });

  it('tells each ask only of the tasks answered since the last one (asked after each slice)', async () => {
    const cache = await cachedList();
    const known = cache.taskFingerprints.forList('p1');
    await known.prepare();
    expect(known.idOf('f1')).toBe('t1');
    expect(known.lostSince().size).toBe(0);
    expect(known.idOf('f2')).toBe('t2');
    // Both rows written after the second look-up: only t2 was answered since the last ask.
    cache.tasks.upsertMany(
      ['t1', 't2'].map((id) => flattenTask(aTask({ id, projectId: 'p1', name: 'Written here' }))),
    );
    expect([...known.lostSince()]).toEqual(['t2']);
    expect(known.lostSince().size).toBe(0);
  });

  it('says whether a list may be answered as its last whole answer, so a list never whole is read as it comes', async () => {
    const cache = await cachedList();
    expect(cache.taskFingerprints.forList('p1').mayBeWhole()).toBe(true);
    expect(cache.taskFingerprints.forList('p9').mayBeWhole()).toBe(false);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', name: 'Written here' }))]);
    expect(cache.taskFingerprints.forList('p1').mayBeWhole()).toBe(false);
  });

  it('lasts in the cache file: a connection opened again knows what the last one stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fingerprints-'));
    dirs.push(dir);
    const file = join(dir, 'cache.sqlite');
    (await cachedList(file)).db.close();
    const again = accountCache(openCacheDb(file));
    expect(again.taskFingerprints.idOf('f2')).toBe('t2');
    expect([...(again.taskFingerprints.wholeAnswer('w1') ?? [])].sort()).toEqual(['t1', 't2']);
    again.db.close();
  });

  it('a list is not recorded whole when, while the loop was given back, another list took one of its tasks and one it no longer names is still in it', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const f = cache.taskFingerprints;
    const ids = Array.from({ length: 2_000 }, (_, i) => `t${i}`);
    const before = [...ids, 'x'];
    cache.tasks.upsertMany(before.map((id) => flattenTask(aTask({ id, projectId: 'p1' }))));
    f.stored(before.map((id) => [id, `f-${id}`] as const));
    await f.storedWhole('p1', 'w1', before);
    // The next answer no longer names x; it names t5, which p2's list stores (moved there) at
    // the first time the loop is given back, after t5 was counted a member.
    turns.spentAlways = true;
    try {
      turns.atGiveBack = () => {
        cache.transaction(() =>
          cache.tasks.upsertMany([flattenTask(aTask({ id: 't5', projectId: 'p2', name: 'Moved' }))]),
        );
        f.stored([['t5', 'f-t5-p2']]);
      };
      expect(await f.storedWhole('p1', 'w2', ids)).toBeUndefined();
    } finally {
      turns.spentAlways = false;
    }
    // One member too many counted and one extra left: the counts agree, yet x is in the list
    // and t5 is not. Not recorded whole, the answer is read again next time.
    expect(f.wholeAnswer('w2')).toBeUndefined();
  });

  it("a task joining a list from another list's rows leaves that list not whole", async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const f = cache.taskFingerprints;
    const b = ['b1', 'b2', 'T'];
    cache.tasks.upsertMany(b.map((id) => flattenTask(aTask({ id, projectId: 'pB' }))));
    f.stored(b.map((id) => [id, `f-${id}`] as const));
    expect(await f.storedWhole('pB', 'wB', b)).toBe(3);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'a1', projectId: 'pA' }))]);
    f.stored([['a1', 'f-a1']]);
    // A's answer names T too (a folder moved into A lists the same text): T's row joins A.
    expect(await f.storedWhole('pA', 'wA', ['a1', 'T'])).toBe(2);
    // B no longer holds T: its answer is not whole, and the same answer is joined again.
    expect(f.wholeAnswer('wB')).toBeUndefined();
    expect(await f.storedWhole('pB', 'wB', b)).toBe(3);
    expect([...(f.wholeAnswer('wB') ?? [])].sort()).toEqual(['T', 'b1', 'b2']);
    expect(f.wholeAnswer('wA')).toBeUndefined();
  });

  it('the triggers watch every column of the list shape (a new one needs them made again)', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const sql = cache.db
      .prepare(`SELECT sql FROM sqlite_schema WHERE name = 'task_fingerprint_row_updated'`)
      .pluck()
      .get() as string;
    const watched = /UPDATE OF (.*?) ON tasks/s
      .exec(sql)?.[1]
      ?.split(',')
      .map((c) => c.trim());
    expect(watched).toEqual([...TASK_LIST_COLUMNS]);
  });
});
