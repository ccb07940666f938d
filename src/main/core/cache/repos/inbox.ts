import type { InboxRow } from '../../../../shared/ipc/inbox';
import type { CacheDb } from '../db';
import { statementCache } from './statements';

/** The newest message of a task matching `extra` (a condition on `m`), as a correlated subquery. */
const NEWEST = (extra: string) =>
  `(SELECT m.id FROM messages m WHERE m.task_id = t.id ${extra} ORDER BY m.date_created DESC, m.rowid DESC LIMIT 1)`;

/**
 * The inbox's rows: every open task needing `@me`'s action, with who handed it over (the newest
 * message addressed to the user, else the newest from someone else, else the creator unless it is
 * the user), what its
 * thread said last, and whether something from someone else came since the user last read it.
 * Newest activity first. Three index look-ups per task (messages by task and date).
 */
const LIST_OF = (onlyFirst: boolean) => `
  SELECT t.id AS taskId, t.short_id AS shortId, t.name, t.project_id AS projectId,
    t.status_id AS statusId, t.status_name AS statusName, t.priority, t.deadline,
    t.todo_done AS todoDone, t.todo_total AS todoTotal,
    coalesce(h.from_user_id, o.from_user_id, nullif(t.created_by_user_id, @me)) AS handedBy,
    coalesce(h.date_created, o.date_created, t.moment_created) AS handedAt,
    l.id AS lastId, l.from_user_id AS lastFrom, l.date_created AS lastAt, l.message AS lastText,
    l.task_status_id AS lastStatusId,
    o.id AS otherId, s.task_id IS NOT NULL AS seenRow, s.message_id AS seenId
  FROM tasks t
  LEFT JOIN messages h ON h.id = ${NEWEST('AND m.to_user_id = @me AND m.from_user_id IS NOT @me')}
  LEFT JOIN messages o ON o.id = ${NEWEST('AND m.from_user_id IS NOT @me')}
  LEFT JOIN messages l ON l.id = ${NEWEST('')}
  LEFT JOIN inbox_seen s ON s.task_id = t.id
  WHERE t.action_required_user_id = @me AND t.moment_closed IS NULL${onlyFirst ? ` AND t.rowid IN (${FIRST})` : ''}
  ORDER BY coalesce(l.date_created, h.date_created, t.recent_activity_moment) DESC, t.rowid DESC`;

/**
 * The rowids of the inbox's first `@limit` tasks in the list's order, found with one index look-up
 * per task: `h` (a message of the task) exists only when `l` does, so the list's sort key is the
 * task's newest message date, else its recent activity. The three look-ups per row are then done
 * for these rows only.
 */
const FIRST = `
  SELECT f.rowid FROM tasks f
  WHERE f.action_required_user_id = @me AND f.moment_closed IS NULL
  ORDER BY coalesce((SELECT max(m.date_created) FROM messages m WHERE m.task_id = f.id), f.recent_activity_moment) DESC,
    f.rowid DESC
  LIMIT @limit`;
const LIST = LIST_OF(false);
const LIST_FIRST = LIST_OF(true);
/**
 * Every task of `@me`'s inbox marked read as it stands (its newest message from someone else), in
 * one statement: row by row, the first read of a 2,700-task inbox after a sync took 130-410 ms (load 4.5).
 */
const MARK_ALL = `
  INSERT INTO inbox_seen (task_id, message_id)
  SELECT t.id, ${NEWEST('AND m.from_user_id IS NOT @me')} FROM tasks t
  WHERE t.action_required_user_id = @me AND t.moment_closed IS NULL
  ON CONFLICT (task_id) DO UPDATE SET message_id = excluded.message_id`;
const COUNT = `SELECT count(*) FROM tasks t WHERE t.action_required_user_id = ? AND t.moment_closed IS NULL`;
/** An unread task of `@me`'s inbox (see `unread` in `list`), for `t` joined with its `inbox_seen` row `s`. */
const UNREAD = `t.action_required_user_id = @me AND t.moment_closed IS NULL
    AND (s.task_id IS NULL OR s.message_id IS NOT ${NEWEST('AND m.from_user_id IS NOT @me')})`;
/**
 * How many tasks of the inbox are unread, without reading their rows: one index look-up per task,
 * where a row costs three and its words.
 */
const COUNT_UNREAD = `SELECT count(*) FROM tasks t LEFT JOIN inbox_seen s ON s.task_id = t.id WHERE ${UNREAD}`;
/** Whether the task `@taskId` is an unread task of the inbox: the same test, for one task. */
const IS_UNREAD = `SELECT 1 FROM tasks t LEFT JOIN inbox_seen s ON s.task_id = t.id WHERE t.id = @taskId AND ${UNREAD}`;

interface ListRow {
  taskId: string;
  shortId: string;
  name: string;
  projectId: string;
  statusId: string;
  statusName: string;
  priority: number;
  deadline: string | null;
  todoDone: number;
  todoTotal: number;
  handedBy: string | null;
  handedAt: string | null;
  lastId: string | null;
  lastFrom: string | null;
  lastAt: string | null;
  lastText: string | null;
  lastStatusId: string | null;
  otherId: string | null;
  seenRow: number;
  seenId: string | null;
}

/** The key in sync_state that says the inbox's first read state was taken. */
const BASELINE = 'inbox:baseline';

export type InboxRepo = ReturnType<typeof createInboxRepo>;

export function createInboxRepo(db: CacheDb) {
  const stmt = statementCache(db);

  const rowsOf = (me: string, limit?: number) =>
    (limit === undefined ? stmt(LIST).all({ me }) : stmt(LIST_FIRST).all({ me, limit })) as ListRow[];

  /** Marks the given rows read as they stand. */
  function markRows(rows: readonly Pick<ListRow, 'taskId' | 'otherId'>[]): void {
    const put = stmt(
      `INSERT INTO inbox_seen (task_id, message_id) VALUES (?, ?)
       ON CONFLICT (task_id) DO UPDATE SET message_id = excluded.message_id`,
    );
    db.transaction(() => {
      for (const row of rows) put.run(row.taskId, row.otherId);
    })();
  }

  return {
    /**
     * The inbox of user `me`. The first time it is read after a pull brought the tasks, what is
     * there then counts as read: "new" means new since the user started using the inbox, not
     * the whole backlog of a first sync. With `limit`, only the first `limit` rows of the list.
     */
    list(me: string, limit?: number): InboxRow[] {
      const pulled = stmt(`SELECT 1 FROM sync_state WHERE key = 'pull'`).get() !== undefined;
      const baselined = stmt(`SELECT 1 FROM sync_state WHERE key = ?`).get(BASELINE) !== undefined;
      if (pulled && !baselined) {
        db.transaction(() => {
          stmt(MARK_ALL).run({ me });
          stmt(`INSERT INTO sync_state (key, fetched_at, value) VALUES (?, datetime('now'), NULL)`).run(
            BASELINE,
          );
        })();
      }
      return rowsOf(me, limit).map((r) => ({
        taskId: r.taskId,
        shortId: r.shortId,
        name: r.name,
        projectId: r.projectId,
        statusId: r.statusId,
        statusName: r.statusName,
        priority: r.priority,
        deadline: r.deadline,
        todoDone: r.todoDone,
        todoTotal: r.todoTotal,
        handedBy: r.handedBy,
        handedAt: r.handedAt,
        last:
          r.lastId && r.lastFrom && r.lastAt
            ? {
                messageId: r.lastId,
                fromUserId: r.lastFrom,
                at: r.lastAt,
                text: r.lastText ?? '',
                statusId: r.lastStatusId,
              }
            : null,
        // Before the first pull nothing is known to be new.
        unread: pulled && (!r.seenRow || r.seenId !== r.otherId),
      }));
    },

    /** How many tasks the whole inbox of `me` holds. */
    count(me: string): number {
      return stmt(COUNT).pluck().get(me) as number;
    },

    /** How many tasks of the whole inbox of `me` are unread (none before the first pull). */
    unreadCount(me: string): number {
      if (stmt(`SELECT 1 FROM sync_state WHERE key = 'pull'`).get() === undefined) return 0;
      return stmt(COUNT_UNREAD).pluck().get({ me }) as number;
    },

    /**
     * Which of `taskIds` are unread tasks of the inbox of `me` (none before the first pull): for a
     * task below the rows a window has read, whose mark it does not hold.
     */
    unreadOf(me: string, taskIds: readonly string[]): string[] {
      if (stmt(`SELECT 1 FROM sync_state WHERE key = 'pull'`).get() === undefined) return [];
      const one = stmt(IS_UNREAD);
      return taskIds.filter((taskId) => one.get({ me, taskId }) !== undefined);
    },

    /** Marks tasks read as they are now: their newest message from someone other than `me`. */
    markRead(me: string, taskIds: readonly string[]): void {
      const newest = stmt(
        `SELECT m.id FROM messages m WHERE m.task_id = ? AND m.from_user_id IS NOT ? ORDER BY m.date_created DESC, m.rowid DESC LIMIT 1`,
      ).pluck();
      markRows(
        taskIds.map((taskId) => ({
          taskId,
          otherId: (newest.get(taskId, me) as string | undefined) ?? null,
        })),
      );
    },

    /** Every task of the inbox read. */
    markAllRead(me: string): void {
      stmt(MARK_ALL).run({ me });
    },

    /** A task unread again (until it is opened or marked read). */
    markUnread(taskId: string): void {
      stmt('DELETE FROM inbox_seen WHERE task_id = ?').run(taskId);
    },
  };
}
