import type { Migration } from './types';

// A message's `communicationFlow` codes as this version read them (the codes our service sends;
// the live service's are not documented: a message of another code reads as a comment). Written
// out here, not imported, so the migration stays as shipped whatever the shared list becomes.
const COMMUNICATION_FLOW = { reply: 3, statusChange: 4 } as const;

/** When a pull is storing what it fetched: only then are changes recorded as updates. */
const CAPTURING = `(SELECT on_since FROM update_capture WHERE id = 1) IS NOT NULL`;
const NOW_MS = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

/**
 * What each pull brought, kept for the Updates view (the API has no notification feed): new
 * messages (comments, replies, status notes), new tasks, and changes of a task's status or
 * assignee. Recorded by triggers while a pull stores its answers (`update_capture` holds the
 * moment the pull began; the sync sets and clears it), so the user's own edits, written outside
 * pulls, are not updates; the first pull, which brings everything, records nothing (no earlier
 * pull is recorded in sync_state yet). Who changed a status or an assignee is not in a task's
 * fields, so those rows have no actor. `at` is the service's moment (a message's date, the task's
 * recentActivityMoment); `captured_at` is this machine's, in milliseconds.
 */
export const migration010: Migration = {
  version: 10,
  name: 'updates',
  up(db) {
    db.exec(`
      CREATE TABLE update_capture (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        on_since INTEGER
      ) STRICT;
      INSERT INTO update_capture (id, on_since) VALUES (1, NULL);

      CREATE TABLE updates (
        id INTEGER PRIMARY KEY,
        task_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('comment', 'reply', 'status', 'assignee', 'new')),
        actor TEXT,
        at TEXT NOT NULL,
        captured_at INTEGER NOT NULL,
        detail TEXT,
        read INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX updates_task ON updates(task_id, captured_at);
      CREATE INDEX updates_captured ON updates(captured_at);

      CREATE TRIGGER updates_message AFTER INSERT ON messages
      WHEN ${CAPTURING} AND EXISTS (SELECT 1 FROM sync_state WHERE key = 'pull') BEGIN
        INSERT INTO updates (task_id, kind, actor, at, captured_at, detail)
        VALUES (new.task_id,
          CASE WHEN new.task_system_status_new IS NOT NULL OR new.communication_flow = ${COMMUNICATION_FLOW.statusChange} THEN 'status'
               WHEN new.communication_flow = ${COMMUNICATION_FLOW.reply} THEN 'reply'
               ELSE 'comment' END,
          new.from_user_id, new.date_created, ${NOW_MS}, new.id);
      END;
      CREATE TRIGGER updates_task_new AFTER INSERT ON tasks
      WHEN ${CAPTURING} AND EXISTS (SELECT 1 FROM sync_state WHERE key = 'pull') BEGIN
        INSERT INTO updates (task_id, kind, actor, at, captured_at, detail)
        VALUES (new.id, 'new', new.created_by_user_id, new.moment_created, ${NOW_MS}, NULL);
      END;
      CREATE TRIGGER updates_task_status AFTER UPDATE OF status_id ON tasks
      WHEN ${CAPTURING} AND old.status_id IS NOT new.status_id BEGIN
        INSERT INTO updates (task_id, kind, actor, at, captured_at, detail)
        VALUES (new.id, 'status', NULL, new.recent_activity_moment, ${NOW_MS}, new.status_name);
      END;
      CREATE TRIGGER updates_task_assignee AFTER UPDATE OF assigned_to_user_id ON tasks
      WHEN ${CAPTURING} AND old.assigned_to_user_id IS NOT new.assigned_to_user_id BEGIN
        INSERT INTO updates (task_id, kind, actor, at, captured_at, detail)
        VALUES (new.id, 'assignee', NULL, new.recent_activity_moment, ${NOW_MS}, new.assigned_to_user_id);
      END;
      CREATE TRIGGER updates_task_gone AFTER DELETE ON tasks BEGIN
        DELETE FROM updates WHERE task_id = old.id;
      END;
    `);
  },
};
