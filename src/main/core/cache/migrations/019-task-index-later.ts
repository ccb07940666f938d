import type { Migration } from './types';

/**
 * Tasks are put in the full-text index after they are stored, not as they are stored. A first
 * sync stores thousands of tasks, and indexing each one in its insert took about half of the
 * insert's time, on the way to My Work's rows. Now a write of a task's searched text (a new
 * task, a new name or new custom-field values) only notes its rowid in `tasks_fts_pending`; the
 * search repository indexes noted rows a few at a time when the core is idle, and before a
 * search when only a few wait. A search reads the noted rows from `tasks` directly, never their
 * index entries (which hold the text before the write, or nothing).
 *
 * `tasks_fts` holds its own copy of the text (migration 008), so deleting a rowid it does not
 * hold is a no-op, never a corruption as it is for an external-content index: a deleted task
 * leaves the index at once, noted or not. Tasks cached before this step are indexed already.
 *
 * A row is noted once: `INSERT OR IGNORE` would not do in a trigger, as the statement that fired
 * it (the cache's upsert, `ON CONFLICT DO UPDATE`) imposes its own conflict handling on it.
 */
export const migration019: Migration = {
  version: 19,
  name: 'task-index-later',
  // `IF NOT EXISTS` / `IF EXISTS`: a file whose recorded version was set back (as a test of an
  // older file's upgrade does) runs this step again over what it made.
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS tasks_fts_pending (task_rowid INTEGER PRIMARY KEY) STRICT;

      DROP TRIGGER IF EXISTS tasks_fts_insert;
      DROP TRIGGER IF EXISTS tasks_fts_delete;
      DROP TRIGGER IF EXISTS tasks_fts_update;
      CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
        INSERT INTO tasks_fts_pending (task_rowid) SELECT new.rowid
          WHERE NOT EXISTS (SELECT 1 FROM tasks_fts_pending WHERE task_rowid = new.rowid);
      END;
      CREATE TRIGGER tasks_fts_update AFTER UPDATE OF name, custom_fields ON tasks
      WHEN old.name IS NOT new.name OR old.custom_fields IS NOT new.custom_fields BEGIN
        INSERT INTO tasks_fts_pending (task_rowid) SELECT new.rowid
          WHERE NOT EXISTS (SELECT 1 FROM tasks_fts_pending WHERE task_rowid = new.rowid);
      END;
      CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
        DELETE FROM tasks_fts WHERE rowid = old.rowid;
        DELETE FROM tasks_fts_pending WHERE task_rowid = old.rowid;
      END;
    `);
  },
};
