import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

/**
 * The Action required inbox of the acting user, and its read state. Read state is the user's
 * own, kept in the account's cache: it is never sent to the service (the API has no notion of
 * it), so these writes skip the outbox.
 */
export function inboxHandlers(
  deps: ReadDeps,
): HandlerMap<'inbox.list' | 'inbox.markRead' | 'inbox.markUnread' | 'inbox.markAllRead'> {
  const { cache, userId } = deps;
  return {
    'inbox.list': ({ first }) => {
      // A first page answers the page's first screen without reading every row; its unread
      // count is not known then (it needs the whole list).
      if (first !== undefined) {
        return { rows: cache.inbox.list(userId, first), total: cache.inbox.count(userId) };
      }
      const rows = cache.inbox.list(userId);
      return { rows, unread: rows.filter((row) => row.unread).length, total: rows.length };
    },
    'inbox.markRead': ({ taskIds }) => {
      cache.inbox.markRead(userId, taskIds);
      return { ok: true as const };
    },
    'inbox.markUnread': ({ taskId }) => {
      cache.inbox.markUnread(taskId);
      return { ok: true as const };
    },
    'inbox.markAllRead': () => {
      cache.inbox.markAllRead(userId);
      return { ok: true as const };
    },
  };
}
