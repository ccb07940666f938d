import type { Migration } from '../../../server/db/migrate';
import type { Database as Db } from 'better-sqlite3';

/**
 * The outbox's tables, in the order their rows may be copied (a table before those that refer
 * to it).
 */
export const OUTBOX_TABLES = [
  'outbox_entries',
  'outbox_entry_keys',
  'outbox_id_map',
  'outbox_field_claims',
  'outbox_conflicts',
] as const;

/**
 * The outbox tables. They live in the outbox's own file (`outboxFileMigrations`, recorded in
 * that file's `user_version`); builds before cache migration 007 kept them in the cache file
 * (cache migrations 003 and 006 ran these same steps there, and 007 drops them once their rows
 * were copied out: see `cache/db.ts`).
 */
export function outboxTables(db: Db): void {
  db.exec(`
      CREATE TABLE outbox_entries (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        entity_key TEXT NOT NULL,
        payload TEXT NOT NULL,
        undo TEXT,
        state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'failed', 'done')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        sent_at INTEGER,
        error_type TEXT,
        error_message TEXT,
        created_temp_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX outbox_entries_open ON outbox_entries (state) WHERE state <> 'done';
      CREATE INDEX outbox_entries_due ON outbox_entries (next_attempt_at) WHERE state IN ('pending', 'in_flight');

      -- One row per chain an open entry belongs to (rows go when the entry is done): an entry
      -- waits for every earlier entry that shares one of its keys (rule 2), e.g. a comment on an
      -- offline task waits for its create.
      CREATE TABLE outbox_entry_keys (
        key TEXT NOT NULL,
        entry_id INTEGER NOT NULL REFERENCES outbox_entries (id) ON DELETE CASCADE,
        PRIMARY KEY (key, entry_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX outbox_entry_keys_entry ON outbox_entry_keys (entry_id);

      -- Local ids of items created offline and the real ids the service gave them (rule 5).
      CREATE TABLE outbox_id_map (
        temp_id TEXT PRIMARY KEY,
        real_id TEXT NOT NULL,
        mapped_at INTEGER NOT NULL
      ) STRICT;

      -- Fields with a pending local change and the service value they replaced (rule 7).
      CREATE TABLE outbox_field_claims (
        entity TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        field TEXT NOT NULL,
        entry_id INTEGER NOT NULL REFERENCES outbox_entries (id) ON DELETE CASCADE,
        base TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (entity, entity_id, field, entry_id)
      ) STRICT;
      CREATE INDEX outbox_field_claims_entry ON outbox_field_claims (entry_id);

      -- The conflict journal: the service changed a field that had a pending local change.
      CREATE TABLE outbox_conflicts (
        id INTEGER PRIMARY KEY,
        entity TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        field TEXT NOT NULL,
        local_value TEXT NOT NULL,
        remote_value TEXT NOT NULL,
        detected_at INTEGER NOT NULL,
        resolution TEXT CHECK (resolution IN ('mine', 'theirs')),
        resolved_at INTEGER
      ) STRICT;
      CREATE UNIQUE INDEX outbox_conflicts_open ON outbox_conflicts (entity, entity_id, field)
        WHERE resolution IS NULL;
    `);
}

/**
 * Entries the service acknowledged but whose answer keeps failing to fold leave automatic retry
 * as `stuck` ("needs attention"). `fold_failures` counts the failed folds since the entry was
 * last given back to automatic retry; `answered_at` says the service holds the change (set at
 * the first answer that could not be folded), so a look-up that no longer finds the item never
 * leads to a second send (rule 6).
 *
 * SQLite cannot widen a CHECK in place: the table is rebuilt. With foreign keys on (they cannot
 * be turned off inside the migration's transaction), dropping the old table would delete the rows
 * of the tables that reference it (ON DELETE CASCADE), so those are set aside, dropped first and
 * made again from their own stored definitions.
 */
export function outboxStuckState(db: Db): void {
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
}

/**
/**
 * Who changed a journaled field on the service and when, where the service says so (a task's
 * `recentActivityMoment`; no service names the user of a task change): the conflict is told as
 * "also changed by Ada 5 minutes ago". Added columns, no rebuild; null for older rows.
 */
export function outboxConflictSource(db: Db): void {
  db.exec(`
    ALTER TABLE outbox_conflicts ADD COLUMN remote_by TEXT;
    ALTER TABLE outbox_conflicts ADD COLUMN remote_at TEXT;
  `);
}

/**
 * The outbox file's migrations. To change the outbox's tables add a step here (never in the
 * cache's list): the outbox file is the only copy of what the user has not sent yet.
 */
export const outboxFileMigrations: readonly Migration[] = [
  { version: 1, name: 'outbox', up: outboxTables },
  { version: 2, name: 'outbox-stuck', up: outboxStuckState },
  { version: 3, name: 'outbox-conflict-source', up: outboxConflictSource },
];

/** Every outbox step in order, for a database that holds only the outbox (unit tests). */
export const outboxMigrations: readonly ((db: Db) => void)[] = outboxFileMigrations.map((m) => m.up);
