import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAccountDb, openAccountDb, openCacheDb, type CacheDb } from '../db';
import { aProject, aTask } from '../fixtures';
import { accountCache } from '../../handlers/index';
import { flattenTask } from './tasks';
import { INDEX_BEFORE_SEARCH_MAX } from './search';
import { INDEX_PAUSE_MS, INDEX_START_DELAY_MS, startSearchIndexing } from './search-indexing';
import type { Task } from '../../../../shared/api/tasks';

// Tasks are noted for the full-text index when stored and indexed later (cache migration 019);
// the search must find them at every moment in between, and the index must stay sound.

const open = (db: CacheDb = openCacheDb(':memory:')) => accountCache(db);
type TestCache = ReturnType<typeof open>;

const store = (cache: TestCache, tasks: readonly Task[]) =>
  cache.transaction(() => cache.tasks.upsertMany(tasks.map(flattenTask)));

const ids = (hits: readonly { id: string }[]) => hits.map((h) => h.id);

/** FTS5's own check of the index against its content: throws when they disagree. */
const integrityCheck = (cache: TestCache) =>
  cache.db.exec(`INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('integrity-check', 1)`);

/** More tasks than a search indexes itself, so that the search matches them directly. */
const MANY = INDEX_BEFORE_SEARCH_MAX + 50;

/** `MANY` filler tasks in p1, named so that no query below finds them. */
const filler = (from = 0) =>
  Array.from({ length: MANY }, (_, i) =>
    aTask({ id: `f${from + i}`, projectId: 'p1', name: `Filler ${from + i}` }),
  );

/** Tasks with the words the queries below look for, in two projects, with custom fields. */
const named = [
  aTask({ id: 'a1', projectId: 'p1', name: 'Quarterly budget review' }),
  aTask({ id: 'a2', projectId: 'p2', name: 'Budget for the offsite' }),
  aTask({ id: 'a3', projectId: 'p2', name: 'Réunion à São Paulo' }),
  aTask({
    id: 'a4',
    projectId: 'p1',
    name: 'Invoice run',
    customFieldsData: { f1: 'Purchase order PO-7781', f2: 42, f3: ['Northwind'] },
  }),
  aTask({ id: 'a5', projectId: 'p1', name: 'Send the e-mail draft' }),
];

const QUERIES = [
  'budget',
  'budg review',
  'reunion sao',
  'northwind',
  '7781',
  'e-mail',
  'invoice 42',
  'paulo budget',
];

describe('search: tasks stored before they are indexed', () => {
  it('a few waiting tasks are indexed by the search itself, before it runs', () => {
    const cache = open();
    store(cache, named);
    expect(cache.search.pendingCount()).toBe(named.length);
    expect(ids(cache.search.query('budget', ['task'], 10)).sort()).toEqual(['a1', 'a2']);
    expect(cache.search.pendingCount()).toBe(0);
    integrityCheck(cache);
  });

  it('many waiting tasks are matched directly: the same tasks as the index finds once they are in it', () => {
    const cache = open();
    store(cache, [...filler(), ...named]);
    const direct = QUERIES.map((q) => ids(cache.search.query(q, ['task'], 50)).sort());
    // The search indexed none of them itself.
    expect(cache.search.pendingCount()).toBe(MANY + named.length);
    cache.search.indexPending(MANY + named.length);
    expect(cache.search.pendingCount()).toBe(0);
    const indexed = QUERIES.map((q) => ids(cache.search.query(q, ['task'], 50)).sort());
    expect(direct).toEqual(indexed);
    expect(direct).toEqual([['a1', 'a2'], ['a1'], ['a3'], ['a4'], ['a4'], ['a5'], ['a4'], []]);
  });

  it('matched directly: the snippet marks the words, the project looked at first, a typo forgiven after the exact matches', () => {
    const cache = open();
    cache.projects.upsertMany([aProject({ id: 'p1', name: 'One' }), aProject({ id: 'p2', name: 'Two' })]);
    store(cache, [...filler(), ...named, aTask({ id: 'a6', projectId: 'p2', name: 'Revew notes' })]);
    expect(cache.search.query('northwind', ['task'], 10)).toEqual([
      {
        kind: 'task',
        id: 'a4',
        title: 'Invoice run',
        snippet: 'Purchase order PO-7781 42 \uE000Northwind\uE001',
        taskId: 'a4',
        projectId: 'p1',
        shortId: 'A4',
        date: null,
      },
    ]);
    expect(ids(cache.search.query('budget', ['task'], 10, 'p2'))).toEqual(['a2', 'a1']);
    expect(ids(cache.search.query('budget', ['task'], 10, 'p1'))).toEqual(['a1', 'a2']);
    expect(ids(cache.search.query('review', ['task'], 10))).toEqual(['a1', 'a6']);
    expect(cache.search.pendingCount()).toBeGreaterThan(INDEX_BEFORE_SEARCH_MAX);
  });

  it('a waiting task written between two direct searches is found by its new text only', () => {
    const cache = open();
    store(cache, [...filler(), ...named]);
    expect(ids(cache.search.query('budget', ['task'], 10)).sort()).toEqual(['a1', 'a2']);
    expect(ids(cache.search.query('northwind', ['task'], 10))).toEqual(['a4']);
    // Still waiting, written again: the words the last search kept for them are stale.
    store(cache, [
      aTask({ id: 'a1', projectId: 'p1', name: 'Yearly forecast' }),
      aTask({ id: 'a4', projectId: 'p1', name: 'Invoice run', customFieldsData: { f3: ['Contoso'] } }),
    ]);
    expect(cache.search.pendingCount()).toBeGreaterThan(INDEX_BEFORE_SEARCH_MAX);
    expect(ids(cache.search.query('budget', ['task'], 10))).toEqual(['a2']);
    expect(ids(cache.search.query('forecast', ['task'], 10))).toEqual(['a1']);
    expect(ids(cache.search.query('northwind', ['task'], 10))).toEqual([]);
    expect(ids(cache.search.query('contoso', ['task'], 10))).toEqual(['a4']);
  });

  it('a search that may not write (the cache read-only) matches the few waiting tasks directly', () => {
    const cache = open();
    store(cache, named);
    cache.db.pragma('query_only = 1');
    expect(ids(cache.search.query('budget', ['task'], 10)).sort()).toEqual(['a1', 'a2']);
    expect(ids(cache.search.query('northwind', ['task'], 10))).toEqual(['a4']);
    expect(cache.search.pendingCount()).toBe(named.length);
    cache.db.pragma('query_only = 0');
    expect(ids(cache.search.query('budget', ['task'], 10)).sort()).toEqual(['a1', 'a2']);
    expect(cache.search.pendingCount()).toBe(0);
    integrityCheck(cache);
  });

  it('an indexed task written again is found by its new text only, until and after it is indexed again', () => {
    const cache = open();
    store(cache, named);
    cache.search.indexPending(100);
    store(cache, filler());
    // Renamed after it was indexed: its index entry holds the old name, which must not be found.
    store(cache, [aTask({ id: 'a1', projectId: 'p1', name: 'Yearly forecast' })]);
    expect(cache.search.pendingCount()).toBe(MANY + 1);
    expect(ids(cache.search.query('quarterly', ['task'], 10))).toEqual([]);
    expect(ids(cache.search.query('forecast', ['task'], 10))).toEqual(['a1']);
    expect(ids(cache.search.query('budget', ['task'], 10))).toEqual(['a2']);
    cache.search.indexPending(MANY + 1);
    expect(ids(cache.search.query('quarterly', ['task'], 10))).toEqual([]);
    expect(ids(cache.search.query('forecast', ['task'], 10))).toEqual(['a1']);
    integrityCheck(cache);
  });

  it('updates and deletes of waiting tasks, mixed with indexing, leave a sound index that finds what is stored', () => {
    const cache = open();
    store(cache, [...named, ...filler()]);
    // Index part of them, so that some rows are indexed and some wait.
    cache.search.indexPending(3);
    integrityCheck(cache);
    // A waiting task renamed, then deleted; an indexed one deleted; a waiting one deleted and stored again.
    store(cache, [aTask({ id: 'a5', projectId: 'p1', name: 'Send the letter' })]);
    cache.tasks.delete(['a4', 'a1', 'f7']);
    integrityCheck(cache);
    store(cache, [aTask({ id: 'f7', projectId: 'p1', name: 'Northwind again' })]);
    store(cache, [aTask({ id: 'a2', projectId: 'p2', name: 'Budget for the offsite, revised' })]);
    integrityCheck(cache);
    const expected = [['a2'], [], ['a3'], ['f7'], [], [], [], ['a2']];
    const queries = [
      'budget',
      'budg review',
      'reunion sao',
      'northwind',
      '7781',
      'e-mail',
      'invoice 42',
      'revised',
    ];
    expect(queries.map((q) => ids(cache.search.query(q, ['task'], 50)).sort())).toEqual(expected);
    // Indexed a slice at a time, searched between the slices: the same answers at every step.
    while (cache.search.indexPending(97) > 0) {
      integrityCheck(cache);
      expect(queries.map((q) => ids(cache.search.query(q, ['task'], 50)).sort())).toEqual(expected);
    }
    expect(cache.search.pendingCount()).toBe(0);
    expect(cache.db.prepare('SELECT count(*) FROM tasks_fts').pluck().get()).toBe(
      cache.db.prepare('SELECT count(*) FROM tasks').pluck().get(),
    );
    integrityCheck(cache);
  });
});

describe('search index: brought up to date in the background', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('tasks waiting when the cache file was closed are indexed once it is opened again', async () => {
    dir = mkdtempSync(join(tmpdir(), 'search-index-'));
    const files = { cache: join(dir, 'cache.sqlite'), outbox: join(dir, 'outbox.sqlite') };
    const first = open(openAccountDb(files).db);
    store(first, [...filler(), ...named]);
    closeAccountDb(first.db);

    const again = open(openAccountDb(files).db);
    expect(again.search.pendingCount()).toBe(MANY + named.length);
    const log = vi.fn();
    const indexing = startSearchIndexing(again.search, again.transaction, log);
    try {
      await vi.waitFor(() => expect(again.search.pendingCount()).toBe(0), { timeout: 10_000, interval: 20 });
      expect(ids(again.search.query('northwind', ['task'], 10))).toEqual(['a4']);
      integrityCheck(again);
      expect(log).not.toHaveBeenCalled();
    } finally {
      indexing.stop();
      closeAccountDb(again.db);
    }
  });

  it('a change told brings the index up to date; held, nothing is indexed until released; once stopped, nothing more', async () => {
    const cache = open();
    const indexing = startSearchIndexing(cache.search, cache.transaction, () => {});
    /** Longer than a change waits before its first slice, and several slices more. */
    const aWhile = () =>
      new Promise((resolve) => setTimeout(resolve, INDEX_START_DELAY_MS + 20 * INDEX_PAUSE_MS));
    store(cache, filler());
    indexing.kick();
    await vi.waitFor(() => expect(cache.search.pendingCount()).toBe(0), { timeout: 10_000, interval: 20 });
    indexing.hold(true);
    store(cache, named);
    indexing.kick();
    await aWhile();
    expect(cache.search.pendingCount()).toBe(named.length);
    indexing.hold(false);
    await vi.waitFor(() => expect(cache.search.pendingCount()).toBe(0), { timeout: 10_000, interval: 20 });
    indexing.stop();
    store(cache, filler(MANY));
    indexing.kick();
    await aWhile();
    expect(cache.search.pendingCount()).toBe(MANY);
    integrityCheck(cache);
  });
});
