import type { UpdateGroup, UpdateItem } from '../../../../shared/ipc/updates';
import type { CacheDb } from '../db';
import { statementCache } from './statements';

/**
 * Changes without an actor (status, assignee) on a task with a local change sent or queued this
 * close to them are taken for the user's own, folded back by the pull: not updates.
 */
const OWN_CHANGE_WINDOW_MS = 10 * 60_000;

/** How long updates are kept: the view is about the recent days. */
const KEEP_MS = 14 * 24 * 3600_000;

/**
 * The updates that concern `@me`, newest first: on tasks assigned to the user, needing their
 * action, created by them, or commented on by them; not the user's own messages, nor status and
 * assignee changes the user's own queued edits explain.
 */
const LIST = `
  SELECT u.id, u.task_id AS taskId, u.kind, u.actor, u.at, u.read, u.captured_at AS capturedAt,
    CASE WHEN u.kind IN ('comment', 'reply') THEN m.message
         WHEN u.kind = 'status' THEN coalesce(s.name, u.detail)
         ELSE u.detail END AS detail,
    CASE WHEN u.kind = 'status' THEN nullif(trim(m.message), '') END AS text,
    t.short_id AS shortId, t.name, t.project_id AS projectId,
    CASE WHEN t.action_required_user_id = @me THEN 'actionRequired'
         WHEN t.assigned_to_user_id = @me THEN 'assigned'
         WHEN t.created_by_user_id = @me THEN 'created'
         ELSE 'commented' END AS relation
  FROM updates u
  JOIN tasks t ON t.id = u.task_id
  LEFT JOIN messages m ON u.kind IN ('comment', 'reply', 'status') AND m.id = u.detail
  LEFT JOIN statuses s ON u.kind = 'status' AND s.id = m.task_status_id
  WHERE u.actor IS NOT @me
    AND (t.assigned_to_user_id = @me OR t.action_required_user_id = @me OR t.created_by_user_id = @me
         OR EXISTS (SELECT 1 FROM messages mine WHERE mine.task_id = t.id AND mine.from_user_id = @me))
    AND NOT (u.actor IS NULL AND EXISTS (
      SELECT 1 FROM outbox_entry_keys k JOIN outbox_entries e ON e.id = k.entry_id
      WHERE k.key = 'task:' || u.task_id AND e.updated_at >= u.captured_at - ${OWN_CHANGE_WINDOW_MS}))
    -- A status change read from the task's fields, when its status note (with its author) came
    -- in the same pull, is the same change.
    AND NOT (u.actor IS NULL AND u.kind = 'status' AND EXISTS (
      SELECT 1 FROM updates n WHERE n.task_id = u.task_id AND n.kind = 'status' AND n.actor IS NOT NULL
        AND abs(n.captured_at - u.captured_at) < ${OWN_CHANGE_WINDOW_MS}))
  ORDER BY u.captured_at DESC, u.id DESC
  LIMIT @limit`;

interface Row {
  id: number;
  taskId: string;
  kind: UpdateItem['kind'];
  actor: string | null;
  at: string;
  read: number;
  capturedAt: number;
  detail: string | null;
  text: string | null;
  shortId: string;
  name: string;
  projectId: string;
  relation: UpdateGroup['relation'];
}

export type UpdatesRepo = ReturnType<typeof createUpdatesRepo>;

export function createUpdatesRepo(db: CacheDb) {
  const stmt = statementCache(db);
  return {
    /** Records changes as updates from `now` (a pull begins) until `stop` (it ended). */
    capture(now: number): void {
      stmt('UPDATE update_capture SET on_since = ? WHERE id = 1').run(now);
    },
    /** Stops recording; updates older than two weeks before the pull began are dropped. */
    stop(): void {
      db.transaction(() => {
        stmt(
          `DELETE FROM updates WHERE captured_at < (SELECT on_since FROM update_capture WHERE id = 1) - ${KEEP_MS}`,
        ).run();
        stmt('UPDATE update_capture SET on_since = NULL WHERE id = 1').run();
      })();
    },

    /** The updates concerning `me`, grouped by task, the task with the newest update first. */
    list(me: string, limit: number): { groups: UpdateGroup[]; unread: number } {
      const rows = stmt(LIST).all({ me, limit }) as Row[];
      const groups = new Map<string, UpdateGroup>();
      let unread = 0;
      for (const row of rows) {
        let group = groups.get(row.taskId);
        if (!group) {
          group = {
            taskId: row.taskId,
            shortId: row.shortId,
            name: row.name,
            projectId: row.projectId,
            relation: row.relation,
            items: [],
            unread: 0,
          };
          groups.set(row.taskId, group);
        }
        group.items.push({
          id: row.id,
          kind: row.kind,
          actor: row.actor,
          at: row.at,
          detail: row.detail,
          text: row.text,
          read: row.read === 1,
        });
        if (row.read !== 1) {
          group.unread++;
          unread++;
        }
      }
      return { groups: [...groups.values()], unread };
    },

    markRead(taskIds: readonly string[]): void {
      stmt('UPDATE updates SET read = 1 WHERE read = 0 AND task_id IN (SELECT value FROM json_each(?))').run(
        JSON.stringify(taskIds),
      );
    },
    markAllRead(): void {
      stmt('UPDATE updates SET read = 1 WHERE read = 0').run();
    },
  };
}
