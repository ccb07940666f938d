import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate';
import { migrations } from './migrations/index';

describe('cache migration 006: outbox entries can be stuck', () => {
  /** A cache file as the build before 006 left it, with an open entry, its key and a claim. */
  function before006() {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 5));
    db.exec(`
      INSERT INTO outbox_entries (id, kind, entity_key, payload, state, attempts, next_attempt_at, sent_at,
        error_type, error_message, created_at, updated_at)
      VALUES (7, 'task.update', 'task:t1', '{"taskId":"t1"}', 'in_flight', 3, 100, 90, 'internal', 'boom', 1, 2);
      INSERT INTO outbox_entry_keys (key, entry_id) VALUES ('task:t1', 7);
      INSERT INTO outbox_field_claims (entity, entity_id, field, entry_id, base, value)
      VALUES ('task', 't1', 'name', 7, '"old"', '"new"');
    `);
    return db;
  }

  it('keeps every entry, key and claim, and accepts the new state', () => {
    const db = before006();
    expect(migrate(db, migrations.slice(0, 6))).toBe(6);
    expect(db.prepare('SELECT * FROM outbox_entries').all()).toEqual([
      expect.objectContaining({
        id: 7,
        state: 'in_flight',
        attempts: 3,
        error_message: 'boom',
        fold_failures: 0,
        answered_at: null,
      }),
    ]);
    expect(db.prepare('SELECT key, entry_id FROM outbox_entry_keys').all()).toEqual([
      { key: 'task:t1', entry_id: 7 },
    ]);
    expect(db.prepare('SELECT field, base FROM outbox_field_claims').all()).toEqual([
      { field: 'name', base: '"old"' },
    ]);
    db.prepare(`UPDATE outbox_entries SET state = 'stuck' WHERE id = 7`).run();
    expect(() => db.prepare(`UPDATE outbox_entries SET state = 'lost' WHERE id = 7`).run()).toThrow(/CHECK/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // Still STRICT, the indexes back, and deleting an entry still takes its keys and claims along.
    expect(() => db.prepare(`UPDATE outbox_entries SET attempts = 'x'`).run()).toThrow(/cannot store TEXT/);
    const indexes = db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name LIKE 'outbox_%'`)
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining([
        'outbox_entries_open',
        'outbox_entries_due',
        'outbox_entry_keys_entry',
        'outbox_field_claims_entry',
      ]),
    );
    db.prepare('DELETE FROM outbox_entries WHERE id = 7').run();
    expect(db.prepare('SELECT count(*) FROM outbox_entry_keys').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM outbox_field_claims').pluck().get()).toBe(0);
  });
});
