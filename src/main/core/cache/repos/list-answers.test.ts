import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { aProject } from '../fixtures';
import { accountCache } from '../../handlers/index';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A cache holding projects p1 and p2, stored from the answer `w1` of the list `/projects`. */
function storedList(file = ':memory:') {
  const cache = accountCache(openCacheDb(file));
  cache.transaction(() => {
    cache.projects.upsertMany([aProject({ id: 'p1' }), aProject({ id: 'p2' })]);
    cache.listAnswers.stored('/projects', 'projects', 'w1', ['p1', 'p2']);
  });
  return cache;
}

describe('list answers: whole lists held as last stored', () => {
  it('holds the answer stored, with its ids, and no other answer or list', () => {
    const cache = storedList();
    expect(cache.listAnswers.held('/projects', 'w1')).toEqual(['p1', 'p2']);
    expect(cache.listAnswers.held('/projects', 'w2')).toBeUndefined();
    expect(cache.listAnswers.held('/users', 'w1')).toBeUndefined();
  });

  it('lets go of the answer once any row of its table is written, by whoever', () => {
    for (const write of [
      (c: ReturnType<typeof storedList>) => c.projects.upsertMany([aProject({ id: 'p1', name: 'Renamed' })]),
      (c: ReturnType<typeof storedList>) => c.projects.upsertMany([aProject({ id: 'p3' })]),
      (c: ReturnType<typeof storedList>) => c.projects.delete(['p2']),
      (c: ReturnType<typeof storedList>) => c.projects.setSettings('p1', null, '2026-01-02T00:00:00'),
    ]) {
      const cache = storedList();
      write(cache);
      expect(cache.listAnswers.held('/projects', 'w1')).toBeUndefined();
    }
  });

  it('keeps the answer through writes to other tables', () => {
    const cache = storedList();
    cache.org.users.replace([{ id: 'u1', name: 'Ann', primaryEmail: 'ann@example.com' }]);
    expect(cache.listAnswers.held('/projects', 'w1')).toEqual(['p1', 'p2']);
  });

  it('holds a store recorded after it in the same transaction, and one forgotten no longer', () => {
    const cache = storedList();
    const before = cache.listAnswers.writes('projects');
    cache.transaction(() => {
      cache.projects.upsertMany([aProject({ id: 'p1', name: 'Renamed' })]);
      cache.listAnswers.stored('/projects', 'projects', 'w2', ['p1', 'p2']);
    });
    expect(cache.listAnswers.writes('projects')).toBe(before + 1);
    expect(cache.listAnswers.held('/projects', 'w1')).toBeUndefined();
    expect(cache.listAnswers.held('/projects', 'w2')).toEqual(['p1', 'p2']);
    cache.listAnswers.forget('/projects');
    expect(cache.listAnswers.held('/projects', 'w2')).toBeUndefined();
  });

  it('is kept in the cache file: held after the cache is opened again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'list-answers-'));
    dirs.push(dir);
    const file = join(dir, 'cache.sqlite');
    storedList(file).db.close();
    const again = accountCache(openCacheDb(file));
    expect(again.listAnswers.held('/projects', 'w1')).toEqual(['p1', 'p2']);
    again.db.close();
  });
});
