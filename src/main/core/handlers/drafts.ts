import type { Cache } from '../cache/cache';
import type { HandlerMap } from './types';

/** Drafts, one row per key in the account's cache file (migration 012); written at once. */
export function draftHandlers({
  cache,
  clock = Date.now,
}: {
  cache: Cache;
  clock?: () => number;
}): HandlerMap<'drafts.get' | 'drafts.set'> {
  const get = cache.db.prepare('SELECT text, updated_at AS updatedAt FROM drafts WHERE key = ?');
  const put = cache.db.prepare(
    'INSERT INTO drafts (key, text, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at',
  );
  const drop = cache.db.prepare('DELETE FROM drafts WHERE key = ?');
  return {
    'drafts.get': ({ key }) =>
      (get.get(key) as { text: string; updatedAt: number } | undefined) ?? { text: '', updatedAt: null },
    'drafts.set': ({ key, text }) => {
      if (!text.trim()) {
        drop.run(key);
        return { kept: false };
      }
      put.run(key, text, clock());
      return { kept: true };
    },
  };
}
