import type { Cache } from '../cache/cache';
import type { HandlerMap } from './types';

/**
 * Drafts, kept in the account's outbox file (`cache.drafts`), which is never thrown away: a
 * damaged cache is rebuilt and the drafts stay. Written at once; an empty text drops the draft.
 */
export function draftHandlers({
  cache,
  clock = Date.now,
}: {
  cache: Cache;
  clock?: () => number;
}): HandlerMap<'drafts.get' | 'drafts.set'> {
  return {
    'drafts.get': ({ key }) => cache.drafts.get(key) ?? { text: '', updatedAt: null },
    'drafts.set': ({ key, text }) => {
      if (!text.trim()) {
        cache.drafts.drop(key);
        return { kept: false };
      }
      cache.drafts.put(key, text, clock());
      return { kept: true };
    },
  };
}
