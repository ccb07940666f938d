import type { Migration } from './types';

/**
 * Outbox entries that need the user's attention: acknowledged, their answer never folded. They
 * leave automatic retry as `stuck`; `fold_failures` counts the failed folds since the entry was
 * last given back to automatic retry; `answered_at` says the service holds the change (set at the
 * first answer that could not be folded), so a look-up that no longer finds the item never leads
 * to a second send (rule 6). Frozen as shipped; the outbox file's own migration 2 runs this same
 * step.
 *
 * SQLite cannot widen a CHECK in place: the table is rebuilt. With foreign keys on (they cannot
 * be turned off inside the migration's transaction), dropping the old table would delete the rows
 * of the tables that reference it (ON DELETE CASCADE), so those are set aside, dropped first and
 * made again from their own stored definitions.
 */
export const migration006: Migration = {
  version: 6,
  name: 'outbox-stuck',
  up(db) {
    const children = ['outbox_entry_keys', 'outbox_field_claims'];
    const definitions = db.prepare(
      `SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'index'`,
    );
    const saved = children.map((table) => ({ table, sql: definitions.pluck().all(table) as string[] }));
    for (const { table } of saved)
      db.exec(`CREATE TEMP TABLE saved_${table} AS SELECT * FROM ${table}; DROP TABLE ${table};`);
    db.exec(`
    CREATE TABLE outbox_entries_new (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      entity_key TEXT NOT NULL,
      payload TEXT NOT NULL,
      undo TEXT,
      state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'failed', 'stuck', 'done')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      sent_at INTEGER,
      error_type TEXT,
      error_message TEXT,
      created_temp_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      fold_failures INTEGER NOT NULL DEFAULT 0,
      answered_at INTEGER
    ) STRICT;
    INSERT INTO outbox_entries_new (id, kind, entity_key, payload, undo, state, attempts, next_attempt_at,
      sent_at, error_type, error_message, created_temp_id, created_at, updated_at)
    SELECT id, kind, entity_key, payload, undo, state, attempts, next_attempt_at,
      sent_at, error_type, error_message, created_temp_id, created_at, updated_at FROM outbox_entries;
    DROP TABLE outbox_entries;
    ALTER TABLE outbox_entries_new RENAME TO outbox_entries;
    CREATE INDEX outbox_entries_open ON outbox_entries (state) WHERE state <> 'done';
    CREATE INDEX outbox_entries_due ON outbox_entries (next_attempt_at) WHERE state IN ('pending', 'in_flight');
  `);
    for (const { table, sql } of saved) {
      for (const statement of sql) db.exec(statement);
      db.exec(`INSERT INTO ${table} SELECT * FROM temp.saved_${table}; DROP TABLE temp.saved_${table};`);
    }
  },
};
