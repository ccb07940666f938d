import type { Migration } from './types';

/**
 * The outbox's tables live in the cache file so a change and its entry commit together (rule 1).
 * Frozen as shipped: the SQL below is the text this version ran (byte for byte, as SQLite keeps
 * it in `sqlite_schema`); the outbox file's own migration 1 runs this same step.
 */
export const migration003: Migration = {
  version: 3,
  name: 'outbox',
  up(db) {
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
  },
};
