import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { localIdColumnsOf } from '../../entities';
import { accountCache, ENTITIES } from '../../handlers/index';
import { cacheRemapper } from '../../outbox/remap-cache';

describe('the running timer store', () => {
  it('keeps one timer, replaced by a put, forgotten only for the run named', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    expect(cache.timer.get()).toBeNull();
    cache.timer.put({ taskId: 't1', startedAt: 1_000, note: '', isBillable: false });
    cache.timer.put({ taskId: 't2', startedAt: 2_000, note: 'Review', isBillable: true });
    expect(cache.timer.get()).toEqual({ taskId: 't2', startedAt: 2_000, note: 'Review', isBillable: true });
    expect(cache.db.prepare('SELECT count(*) FROM timer').pluck().get()).toBe(1);
    // A stop meant for an earlier run forgets nothing.
    expect(cache.timer.clear(1_000)).toBe(false);
    expect(cache.timer.get()?.taskId).toBe('t2');
    expect(cache.timer.clear(2_000)).toBe(true);
    expect(cache.timer.get()).toBeNull();
    expect(cache.timer.clear(2_000)).toBe(false);
  });

  it('follows a task created offline to its real id', () => {
    const db = openCacheDb(':memory:');
    const cache = accountCache(db);
    cache.timer.put({ taskId: 'local-1', startedAt: 5, note: 'n', isBillable: false });
    db.transaction(() => cacheRemapper(db, localIdColumnsOf(ENTITIES))('local-1', 'Ab12Cd'))();
    expect(cache.timer.get()?.taskId).toBe('Ab12Cd');
  });
});
