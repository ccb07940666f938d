import type { Cache } from '../cache/cache';
import type { HandlerMap } from './types';

/**
 * Drafts, one row per key in the account's outbox file (`outbox_drafts`, outbox migration 4),
 * which is never thrown away: a damaged cache is rebuilt and the drafts stay. Written at once. A
 * draft on a task created here follows the task to its real id (`TempIdMap.remap`).
 */
export function draftHandlers({
  cache,
  clock = Date.now,
}: {
  cache: Cache;
  clock?: () => number;
}): HandlerMap<'drafts.get' | 'drafts.set'> {
  const get = cache.db.prepare('SELECT text, updated_at AS updatedAt FROM outbox_drafts WHERE key = ?');
  const put = cache.db.prepare(
    'INSERT INTO outbox_drafts (key, text, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at',
  );
  const drop = cache.db.prepare('DELETE FROM outbox_drafts WHERE key = ?');
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
