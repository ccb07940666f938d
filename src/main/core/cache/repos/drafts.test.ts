import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { accountCache } from '../../handlers/index';

describe('drafts repository', () => {
  it('keeps one draft per key, replaces it, and drops it alone', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    expect(cache.drafts.get('message:t1')).toBeNull();
    cache.drafts.put('message:t1', 'first', 1000);
    cache.drafts.put('message:t2', 'other', 1500);
    cache.drafts.put('message:t1', 'second', 2000);
    expect(cache.drafts.get('message:t1')).toEqual({ text: 'second', updatedAt: 2000 });
    cache.drafts.drop('message:t1');
    expect(cache.drafts.get('message:t1')).toBeNull();
    expect(cache.drafts.get('message:t2')).toEqual({ text: 'other', updatedAt: 1500 });
  });
});
