import type { Migration } from './types';

/**
 * The task list columns as this step found them (the list shape's fields): a write to any of
 * them makes a row no longer what its element said. A later step that adds a list column must
 * drop and make these triggers again with it (the repository's test compares them).
 */
const LIST_COLUMNS =
  'id, short_id, name, project_id, parent_task_id, status_id, status_name, system_status, ' +
  'system_type, schedule_status, task_type_id, task_type_name, priority, assigned_to_user_id, ' +
  'action_required_user_id, created_by_user_id, deadline, start_date, end_date, schedule_date, ' +
  'estimate, progress, moment_created, moment_closed, recent_activity_moment, users, ' +
  'custom_fields, form_submission, story_points, reported_time, todo_list';

/** What the triggers do for the row `old` once it was written: its element is to be read again. */
const FORGET_OLD = `
  UPDATE task_list_answers SET intact = 0
    WHERE intact = 1
      AND list_key = (SELECT list_key FROM task_fingerprints WHERE task_id = old.id);
  DELETE FROM task_fingerprints WHERE task_id = old.id;`;

/**
 * The fingerprints of the task list elements whose rows the cache holds exactly as the service
 * sent them, kept in the cache file so the first pull after a start skips what did not change,
 * as every later one does (they lived in memory until now: the first pull read every element).
 * `task_fingerprints`: a task's row as stored from the element with this fingerprint, and the
 * list (a root project's task list) whose whole answer holds it. `task_list_answers`: a list's
 * last whole answer, `intact` while every row it holds is as stored. Triggers keep both true:
 * any write to a task's list columns, or its removal, forgets the task's fingerprint and marks
 * its list's answer not intact, in the same statement, whoever writes.
 */
export const migration014: Migration = {
  version: 14,
  name: 'task-fingerprints',
  up(db) {
    db.exec(`
      CREATE TABLE task_fingerprints (
        task_id TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        list_key TEXT
      ) STRICT;
      CREATE INDEX task_fingerprints_list ON task_fingerprints (list_key) WHERE list_key IS NOT NULL;
      CREATE TABLE task_list_answers (
        list_key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        intact INTEGER NOT NULL CHECK (intact IN (0, 1))
      ) STRICT;
      CREATE INDEX task_list_answers_fingerprint ON task_list_answers (fingerprint);
      CREATE TRIGGER task_fingerprint_row_updated AFTER UPDATE OF ${LIST_COLUMNS} ON tasks
      BEGIN ${FORGET_OLD}
      END;
      CREATE TRIGGER task_fingerprint_row_deleted AFTER DELETE ON tasks
      BEGIN ${FORGET_OLD}
      END;
    `);
  },
};
