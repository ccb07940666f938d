import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { createCache } from '../cache';
import { aMessage } from '../fixtures';

describe('messages repository: one message by id', () => {
  it('tells whether a message is cached and deletes it alone', () => {
    const cache = createCache(openCacheDb(':memory:'));
    cache.messages.replaceForTask('t1', [aMessage({ id: 'm1' }), aMessage({ id: 'm2' })]);
    expect(cache.messages.has('m1')).toBe(true);
    expect(cache.messages.has('m3')).toBe(false);
    cache.messages.delete('m1');
    cache.messages.delete('m3');
    expect(cache.messages.has('m1')).toBe(false);
    expect(cache.messages.listForTask('t1').map((m) => m.id)).toEqual(['m2']);
  });
});
