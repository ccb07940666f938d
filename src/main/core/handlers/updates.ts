import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

/**
 * The Updates view: what pulls brought on the acting user's tasks (see the cache's `updates`).
 * Read state is the user's own, kept in the account's cache and never sent.
 */
export function updatesHandlers(
  deps: ReadDeps,
): HandlerMap<'updates.list' | 'updates.markRead' | 'updates.markAllRead'> {
  const { cache, userId } = deps;
  return {
    'updates.list': ({ limit }) => cache.updates.list(userId, limit),
    'updates.markRead': ({ taskIds }) => {
      cache.updates.markRead(taskIds);
      return { ok: true as const };
    },
    'updates.markAllRead': () => {
      cache.updates.markAllRead();
      return { ok: true as const };
    },
  };
}
