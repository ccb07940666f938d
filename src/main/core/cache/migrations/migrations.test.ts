// One test per migration, as Signal Desktop does (ts/test-node/sql/migration_*): the database is
// built at the version before, rows are put in as that version stored them, the one migration
// runs, and what it must have done (and kept) is checked. Cache migrations, then the outbox
// file's own.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../../server/db/migrate';
import { outboxFileMigrations } from '../../outbox/schema';
import { migrate } from '../migrate';
import { migrations } from './index';

/** A cache database at `version` (0: empty). */
function cacheAt(version: number): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, migrations.slice(0, version));
  return db;
}

/** Runs exactly the migration to `version`. */
const migrateTo = (db: Database.Database, version: number): number =>
  migrate(db, migrations.slice(0, version));

const tableNames = (db: Database.Database): string[] =>
  db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).pluck().all() as string[];

function insertTask(db: Database.Database, id: string, name: string): void {
  db.prepare(
    `INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, system_status, system_type,
       schedule_status, task_type_id, task_type_name, priority, moment_created, recent_activity_moment)
     VALUES (?, ?, ?, 'p1', 's1', 'Open', 2, 1, 0, 'tt', 'Task', 1, '2026-01-01T00:00:00', '2026-01-01T00:00:00')`,
  ).run(id, id.toUpperCase(), name);
}

function insertProject(db: Database.Database, id: string, name: string): void {
  db.prepare(
    `INSERT INTO projects (id, name, moment_created, priority, status, system_status)
     VALUES (?, ?, '2026-01-01T00:00:00', 1, 'Open', 2)`,
  ).run(id, name);
}

function insertEntry(db: Database.Database, id: number, state = 'pending'): void {
  db.prepare(
    `INSERT INTO outbox_entries (id, kind, entity_key, payload, state, next_attempt_at, created_at, updated_at)
     VALUES (?, 'task.update', 'task:t1', '{"taskId":"t1","changes":{"priority":3}}', ?, 0, 1, 1)`,
  ).run(id, state);
  db.prepare(`INSERT INTO outbox_entry_keys (key, entry_id) VALUES ('task:t1', ?)`).run(id);
}

describe('cache migrations, one by one', () => {
  it('001 resources: makes every resource table, STRICT, on an empty file', () => {
    const db = cacheAt(0);
    expect(migrateTo(db, 1)).toBe(1);
    expect(tableNames(db)).toEqual(expect.arrayContaining(['projects', 'tasks', 'messages', 'sync_state']));
    insertTask(db, 't1', 'one');
    expect(() => db.prepare(`UPDATE tasks SET priority = 'high'`).run()).toThrow(/cannot store TEXT/);
  });

  it('002 search: makes the indexes, which follow every later write', () => {
    const db = cacheAt(1);
    insertTask(db, 't1', 'quarterly report');
    expect(migrateTo(db, 2)).toBe(2);
    const hits = () => db.prepare(`SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ?`).pluck();
    // 002 starts its indexes empty (005 rebuilds the projects' index, 002 rebuilt nothing): a task
    // cached before it is found once a rebuild or a pull writes it again. Left as shipped.
    expect(hits().all('quarterly')).toHaveLength(0);
    db.exec(`INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild')`);
    expect(hits().all('quarterly')).toHaveLength(1);
    insertTask(db, 't2', 'quarterly budget');
    expect(hits().all('quarterly')).toHaveLength(2);
  });

  it('003 outbox: adds the outbox tables beside the cached rows, which stay', () => {
    const db = cacheAt(2);
    insertTask(db, 't1', 'kept');
    expect(migrateTo(db, 3)).toBe(3);
    expect(tableNames(db)).toEqual(
      expect.arrayContaining([
        'outbox_entries',
        'outbox_entry_keys',
        'outbox_id_map',
        'outbox_field_claims',
        'outbox_conflicts',
      ]),
    );
    insertEntry(db, 1);
    expect(db.prepare('SELECT name FROM tasks').pluck().all()).toEqual(['kept']);
  });

  it('004 project templates: adds their table, the outbox and cache kept', () => {
    const db = cacheAt(3);
    insertEntry(db, 1);
    expect(migrateTo(db, 4)).toBe(4);
    db.prepare(`INSERT INTO project_templates (id, name) VALUES ('pt1', 'Sprint')`).run();
    expect(db.prepare('SELECT count(*) FROM outbox_entries').pluck().get()).toBe(1);
  });

  it('005 project search: indexes the projects already cached', () => {
    const db = cacheAt(4);
    insertProject(db, 'p1', 'Apollo launch');
    expect(migrateTo(db, 5)).toBe(5);
    expect(db.prepare(`SELECT rowid FROM projects_fts WHERE projects_fts MATCH 'apollo'`).all()).toHaveLength(
      1,
    );
  });

  it('006 outbox stuck state: keeps every entry, key and claim (see outbox/schema.test.ts for the rest)', () => {
    const db = cacheAt(5);
    insertEntry(db, 7, 'in_flight');
    expect(migrateTo(db, 6)).toBe(6);
    expect(db.prepare('SELECT state, fold_failures, answered_at FROM outbox_entries').all()).toEqual([
      { state: 'in_flight', fold_failures: 0, answered_at: null },
    ]);
    expect(db.prepare('SELECT count(*) FROM outbox_entry_keys').pluck().get()).toBe(1);
  });

  it('007 outbox moved out: drops the outbox tables (their rows were copied out first), keeps the cache', () => {
    const db = cacheAt(6);
    insertEntry(db, 1);
    insertTask(db, 't1', 'still cached');
    expect(migrateTo(db, 7)).toBe(7);
    expect(tableNames(db).filter((t) => t.startsWith('outbox_'))).toEqual([]);
    expect(db.prepare('SELECT name FROM tasks').pluck().all()).toEqual(['still cached']);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it("008 files and drafts: counts each task's files, keeps the count with triggers, adds drafts", () => {
    const db = cacheAt(7);
    db.exec(`
      INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message, attachments)
      VALUES ('m1', 't1', '2026-01-01', 2, 'u1', 'two files', '[{"fileId":"f1"},{"fileId":"f2"}]'),
             ('m2', 't1', '2026-01-02', 2, 'u1', 'none', NULL);
    `);
    db.exec(`INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, task_type_id, task_type_name,
      priority, moment_created, recent_activity_moment, system_status, system_type, schedule_status)
      VALUES ('t1', 'T1', 'One', 'p1', 's', 'New', 'tt', 'Task', 1, '2026-01-01', '2026-01-01', 1, 1, 0)`);
    expect(migrateTo(db, 8)).toBe(8);
    const count = (id: string): unknown =>
      db.prepare('SELECT attachment_count FROM tasks WHERE id = ?').pluck().get(id);
    // Counted for the tasks already cached.
    expect(count('t1')).toBe(2);
    // Kept by the triggers: a message with files added, changed, removed; a task stored after its messages.
    db.exec(`INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message, attachments)
      VALUES ('m3', 't1', '2026-01-03', 2, 'u1', 'one more', '[{"fileId":"f3"}]')`);
    expect(count('t1')).toBe(3);
    db.exec(`UPDATE messages SET attachments = NULL WHERE id = 'm1'`);
    expect(count('t1')).toBe(1);
    db.exec(`DELETE FROM messages WHERE id = 'm3'`);
    expect(count('t1')).toBe(0);
    db.exec(`INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message, attachments)
      VALUES ('m9', 't9', '2026-01-03', 2, 'u1', 'early', '[{"fileId":"f9"}]')`);
    db.exec(`INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, task_type_id, task_type_name,
      priority, moment_created, recent_activity_moment, system_status, system_type, schedule_status)
      VALUES ('t9', 'T9', 'Nine', 'p1', 's', 'New', 'tt', 'Task', 1, '2026-01-01', '2026-01-01', 1, 1, 0)`);
    expect(count('t9')).toBe(1);
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT sum(json_array_length(attachments)) FROM messages WHERE task_id = 't1' AND attachments IS NOT NULL",
      )
      .all() as { detail: string }[];
    expect(plan.map((r) => r.detail).join()).toMatch(/USING INDEX messages_with_files/);
    expect(
      db
        .prepare(
          "SELECT sum(json_array_length(attachments)) AS n FROM messages WHERE task_id = 't1' AND attachments IS NOT NULL",
        )
        .get(),
    ).toEqual({ n: null });
    db.prepare('INSERT INTO drafts (key, text, updated_at) VALUES (?, ?, ?)').run(
      'comment:t1',
      'half a thought',
      1,
    );
    expect(db.prepare('SELECT text FROM drafts').pluck().all()).toEqual(['half a thought']);
    expect(() =>
      db.prepare('INSERT INTO drafts (key, text, updated_at) VALUES (?, ?, ?)').run('x', null, 1),
    ).toThrow();
  });

  it('has a test above for every migration', () => {
    expect(migrations.map((m) => m.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('outbox file migrations, one by one', () => {
  const outboxAt = (version: number): Database.Database => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    runMigrations(db, outboxFileMigrations.slice(0, version), 'Outbox database');
    return db;
  };

  it('1 outbox: the tables on an empty file', () => {
    const db = outboxAt(0);
    runMigrations(db, outboxFileMigrations.slice(0, 1), 'Outbox database');
    expect(tableNames(db)).toEqual([
      'outbox_conflicts',
      'outbox_entries',
      'outbox_entry_keys',
      'outbox_field_claims',
      'outbox_id_map',
    ]);
  });

  it('2 stuck state: keeps the entries and their keys, adds the new columns and state', () => {
    const db = outboxAt(1);
    insertEntry(db, 3, 'failed');
    expect(runMigrations(db, outboxFileMigrations.slice(0, 2), 'Outbox database')).toBe(2);
    expect(db.prepare('SELECT id, state, fold_failures FROM outbox_entries').all()).toEqual([
      { id: 3, state: 'failed', fold_failures: 0 },
    ]);
    db.prepare(`UPDATE outbox_entries SET state = 'stuck'`).run();
    expect(db.prepare('SELECT count(*) FROM outbox_entry_keys').pluck().get()).toBe(1);
  });

  it('has a test above for every migration', () => {
    expect(outboxFileMigrations.map((m) => m.version)).toEqual([1, 2]);
  });
});
