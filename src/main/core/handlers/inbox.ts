import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

/**
 * The Action required inbox of the acting user, and its read state. Read state is the user's
 * own, kept in the account's cache: it is never sent to the service (the API has no notion of
 * it), so these writes skip the outbox.
 */
export function inboxHandlers(
  deps: ReadDeps,
): HandlerMap<'inbox.list' | 'inbox.unreadOf' | 'inbox.markRead' | 'inbox.markUnread' | 'inbox.markAllRead'> {
  const { cache, userId } = deps;
  return {
    'inbox.list': ({ first }) => {
      // A window of the list's head (the rows on screen and above them) without reading every
      // row; the counts are of the whole list.
      if (first !== undefined) {
        const rows = cache.inbox.list(userId, first);
        return { rows, unread: cache.inbox.unreadCount(userId), total: cache.inbox.count(userId) };
      }
      const rows = cache.inbox.list(userId);
      return { rows, unread: rows.filter((row) => row.unread).length, total: rows.length };
    },
    'inbox.unreadOf': ({ taskIds }) => ({ taskIds: cache.inbox.unreadOf(userId, taskIds) }),
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
