import { z } from 'zod';
import { channel } from './channel';
import { Id } from './read-common';
import { lazySchema } from '../lazy-schema';

/**
 * Rows a window reads first at start: more than a tall window shows, a small part of a large
 * inbox (thousands of rows), so the first screen does not wait for every row. The core reads the
 * same first page ahead while the window loads. Scrolling down reads the list's head further, a
 * page at a time (`INBOX_PAGE`).
 */
export const INBOX_FIRST_PAGE = 60;
/** Rows more read as the user scrolls or moves past those read. */
export const INBOX_PAGE = 60;

/** What a task's thread said last: a message, or a status change with no words. */
export const InboxLast = lazySchema(() =>
  z.object({
    messageId: z.string(),
    fromUserId: z.string(),
    at: z.string(),
    /** The message as typed (Markdown); empty for a bare status change. */
    text: z.string(),
    /** The status the message set, when it changed the status. */
    statusId: z.string().nullable(),
  }),
);
export type InboxLast = z.infer<typeof InboxLast>;

/** One task of the Action required inbox. */
export const InboxRow = lazySchema(() =>
  z.object({
    taskId: z.string(),
    shortId: z.string(),
    name: z.string(),
    projectId: z.string(),
    statusId: z.string(),
    statusName: z.string(),
    priority: z.number().int(),
    deadline: z.string().nullable(),
    /** Ticked and all to-do items over the task's lists ("3/5" on the row). */
    todoDone: z.number().int(),
    todoTotal: z.number().int(),
    /**
     * Who handed the task over and when: the last message addressed to the user (a reply handing
     * it over), else the last message from someone else, else the task's creator (none when that is
     * the user) and its creation.
     */
    handedBy: z.string().nullable(),
    handedAt: z.string().nullable(),
    last: InboxLast.nullable(),
    /** Something from someone else arrived (or the task came in) since the user last opened it. */
    unread: z.boolean(),
  }),
);
export type InboxRow = z.infer<typeof InboxRow>;

export const inboxChannels = {
  /**
   * The open tasks needing the acting user's action, the newest activity first. With `first`,
   * only the first `first` rows (the head of the list a window shows, answered sooner); `unread`
   * and `total` count the whole list either way.
   */
  'inbox.list': channel(
    () =>
      z
        .object({ first: z.number().int().min(1).max(100_000).optional() })
        .strict()
        .default({}),
    () => z.object({ rows: z.array(InboxRow), unread: z.number().int().optional(), total: z.number().int() }),
  ),
  /**
   * Which of the given tasks are unread tasks of the inbox: the read state of tasks below the
   * rows a window has read (opening one of them marks it read only if it is unread).
   */
  'inbox.unreadOf': channel(
    () => z.object({ taskIds: z.array(Id).min(1).max(5000) }).strict(),
    () => z.object({ taskIds: z.array(z.string()) }),
  ),
  /** Marks tasks read as they are now (opening a task does so). */
  'inbox.markRead': channel(
    () => z.object({ taskIds: z.array(Id).min(1).max(5000) }).strict(),
    () => z.object({ ok: z.literal(true) }),
  ),
  /** Marks a task unread again. */
  'inbox.markUnread': channel(
    () => z.object({ taskId: Id }).strict(),
    () => z.object({ ok: z.literal(true) }),
  ),
  /** Marks every task of the inbox read. */
  'inbox.markAllRead': channel(
    () => z.object({}).strict().default({}),
    () => z.object({ ok: z.literal(true) }),
  ),
};
