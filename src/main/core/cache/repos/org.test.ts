import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { accountCache } from '../../handlers/index';

describe('org repository: task tags one at a time', () => {
  it('adds, tells and removes one tag of one task, leaving the others', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.org.tags.replace([{ id: 'g1', name: 'Urgent', color: null }]);
    cache.org.setTaskTags('t2', ['g1']);
    expect(cache.org.taskHasTag('t1', 'g1')).toBe(false);
    cache.org.addTaskTag('t1', 'g1');
    cache.org.addTaskTag('t1', 'g1');
    expect(cache.org.taskHasTag('t1', 'g1')).toBe(true);
    expect(cache.org.tagsOfTask('t1')).toEqual([{ id: 'g1', name: 'Urgent', color: null }]);
    expect(cache.org.taskIdsOfTag('g1').sort()).toEqual(['t1', 't2']);
    cache.org.removeTaskTag('t1', 'g1');
    expect(cache.org.taskHasTag('t1', 'g1')).toBe(false);
    expect(cache.org.taskIdsOfTag('g1')).toEqual(['t2']);
  });

  it('addTaskTag records the link only; seeTag records an unknown tag once, keeping a known name', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.org.addTaskTag('t1', 'g9');
    expect(cache.org.tags.all()).toEqual([]);
    cache.org.seeTag('g9');
    cache.org.seeTag('g9');
    expect(cache.org.tags.all()).toEqual([{ id: 'g9', name: 'g9', color: null }]);
    cache.org.tags.replace([{ id: 'g9', name: 'Later', color: 3 }]);
    cache.org.seeTag('g9');
    expect(cache.org.tags.all()).toEqual([{ id: 'g9', name: 'Later', color: 3 }]);
  });
});
