// One test per migration, as Signal Desktop does (ts/test-node/sql/migration_*): the database is
// built at the version before, rows are put in as that version stored them, the one migration
// runs, and what it must have done (and kept) is checked. Cache migrations, then the outbox
// file's own.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../../server/db/migrate';
import { outboxFileMigrations } from '../outbox-schema';
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

  it('006 outbox stuck state: keeps every entry, key and claim (see cache/outbox-schema.test.ts for the rest)', () => {
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

  it('008 search numbers: indexes cached tasks with their custom-field values, and events', () => {
    const db = cacheAt(7);
    insertTask(db, 't1', 'Old task');
    db.prepare(`UPDATE tasks SET custom_fields = '{"f1":"Zeppelin","f2":[7781]}' WHERE id = 't1'`).run();
    db.prepare(
      `INSERT INTO calendar_events (id, event_type, name, notes, start_date, moment_created)
       VALUES ('e1', 'company-event', 'Offsite', 'Lisbon', '2026-05-04', '2026-01-01T00:00:00')`,
    ).run();
    expect(migrateTo(db, 8)).toBe(8);
    const found = (fts: string, q: string) =>
      db.prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?`).pluck().all(q).length;
    expect(found('tasks_fts', 'zeppelin')).toBe(1);
    expect(found('tasks_fts', '7781')).toBe(1);
    expect(found('calendar_events_fts', 'lisbon')).toBe(1);
    expect(db.prepare(`SELECT count(*) FROM tasks_fts_vocab WHERE term = 'old'`).pluck().get()).toBe(1);
    expect(db.prepare(`SELECT id FROM tasks WHERE short_id = 't1' COLLATE NOCASE`).pluck().get()).toBe('t1');
  });

  it('009 inbox read state: adds its table, the cache kept', () => {
    const db = cacheAt(8);
    insertTask(db, 't1', 'one');
    expect(migrateTo(db, 9)).toBe(9);
    expect(tableNames(db)).toContain('inbox_seen');
    expect(db.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(1);
  });

  it('010 updates: records what a pull stores after the first, nothing outside a pull', () => {
    const db = cacheAt(9);
    insertTask(db, 't1', 'one');
    expect(migrateTo(db, 10)).toBe(10);
    const message = (id: string) =>
      db
        .prepare(
          `INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message)
           VALUES (?, 't1', '2026-01-02T00:00:00', 2, 'bob', 'hi')`,
        )
        .run(id);
    const count = () => db.prepare('SELECT count(*) FROM updates').pluck().get();
    message('m1');
    db.prepare(`UPDATE update_capture SET on_since = 1 WHERE id = 1`).run();
    message('m2');
    expect(count()).toBe(0); // the first pull: no earlier pull recorded
    db.prepare(`INSERT INTO sync_state (key, fetched_at) VALUES ('pull', '2026-01-01T00:00:00')`).run();
    message('m3');
    db.prepare(`UPDATE tasks SET status_id = 's2', status_name = 'Done' WHERE id = 't1'`).run();
    expect(db.prepare('SELECT kind, actor, detail FROM updates ORDER BY id').all()).toEqual([
      { kind: 'comment', actor: 'bob', detail: 'm3' },
      { kind: 'status', actor: null, detail: 'Done' },
    ]);
    db.prepare(`UPDATE update_capture SET on_since = NULL WHERE id = 1`).run();
    message('m4');
    expect(count()).toBe(2);
  });

  it("011 time reports: adds their table and the tasks' to-do lists column, cached tasks kept", () => {
    const db = cacheAt(10);
    insertTask(db, 't1', 'still cached');
    expect(migrateTo(db, 11)).toBe(11);
    expect(db.prepare('SELECT name, todo_list FROM tasks').all()).toEqual([
      { name: 'still cached', todo_list: null },
    ]);
    db.prepare(
      `INSERT INTO time_reports (id, task_id, project_id, user_id, report_date, reported, message, is_billable, moment_created)
       VALUES ('r1', 't1', 'p1', 'u1', '2026-11-20', 90, '', 0, '2026-11-20T17:00:00')`,
    ).run();
    expect(db.prepare('SELECT reported FROM time_reports').pluck().all()).toEqual([90]);
  });

  it("012 files and drafts: counts each task's files, keeps the count with triggers, adds drafts", () => {
    const db = cacheAt(11);
    db.exec(`
      INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message, attachments)
      VALUES ('m1', 't1', '2026-01-01', 2, 'u1', 'two files', '[{"fileId":"f1"},{"fileId":"f2"}]'),
             ('m2', 't1', '2026-01-02', 2, 'u1', 'none', NULL);
    `);
    db.exec(`INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, task_type_id, task_type_name,
      priority, moment_created, recent_activity_moment, system_status, system_type, schedule_status)
      VALUES ('t1', 'T1', 'One', 'p1', 's', 'New', 'tt', 'Task', 1, '2026-01-01', '2026-01-01', 1, 1, 0)`);
    expect(migrateTo(db, 12)).toBe(12);
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

  it("013 timer and to-do progress: counts each task's to-do items, keeps the count with triggers, adds the timer", () => {
    const db = cacheAt(12);
    const lists = (...items: boolean[][]): string =>
      JSON.stringify(
        items.map((done, n) => ({
          uid: `l${n}`,
          title: `List ${n}`,
          items: done.map((completed, i) => ({
            properties: { completed, title: `Item ${i}`, userId: null },
          })),
        })),
      );
    insertTask(db, 't1', 'With lists');
    insertTask(db, 't2', 'Without');
    db.prepare('UPDATE tasks SET todo_list = ? WHERE id = ?').run(
      lists([true, false], [true, true, false]),
      't1',
    );
    expect(migrateTo(db, 13)).toBe(13);
    const progress = (id: string): unknown =>
      db.prepare('SELECT todo_done AS done, todo_total AS total FROM tasks WHERE id = ?').get(id);
    // Counted for the tasks already cached, over every list.
    expect(progress('t1')).toEqual({ done: 3, total: 5 });
    expect(progress('t2')).toEqual({ done: 0, total: 0 });
    // Kept by the triggers: a change of the lists, lists removed, a task stored with lists.
    db.prepare('UPDATE tasks SET todo_list = ? WHERE id = ?').run(lists([false, false, true]), 't2');
    expect(progress('t2')).toEqual({ done: 1, total: 3 });
    db.prepare('UPDATE tasks SET todo_list = NULL WHERE id = ?').run('t1');
    expect(progress('t1')).toEqual({ done: 0, total: 0 });
    db.prepare('UPDATE tasks SET todo_list = ? WHERE id = ?').run('not json', 't1');
    expect(progress('t1')).toEqual({ done: 0, total: 0 });
    insertTask(db, 't3', 'Stored with lists');
    db.prepare('DELETE FROM tasks WHERE id = ?').run('t3');
    db.prepare(
      `INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, system_status, system_type,
         schedule_status, task_type_id, task_type_name, priority, moment_created, recent_activity_moment, todo_list)
       VALUES ('t3', 'T3', 'Three', 'p1', 's1', 'Open', 2, 1, 0, 'tt', 'Task', 1, '2026-01-01', '2026-01-01', ?)`,
    ).run(lists([true], [true]));
    expect(progress('t3')).toEqual({ done: 2, total: 2 });
    // One timer at most.
    const put = db.prepare('INSERT INTO timer (slot, task_id, started_at) VALUES (?, ?, ?)');
    put.run(1, 't1', 1000);
    expect(() => put.run(2, 't2', 2000)).toThrow(/CHECK/);
    expect(db.prepare('SELECT task_id, note, is_billable FROM timer').get()).toEqual({
      task_id: 't1',
      note: '',
      is_billable: 0,
    });
  });

  it('014 task fingerprints: adds their tables empty, cached tasks kept; a write forgets a row', () => {
    const db = cacheAt(13);
    insertTask(db, 't1', 'One');
    insertTask(db, 't2', 'Two');
    expect(migrateTo(db, 14)).toBe(14);
    const count = (table: string): unknown => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    // Nothing is known before a pull stores it: the first pull after this step reads every element.
    expect(count('task_fingerprints')).toBe(0);
    expect(count('tasks')).toBe(2);
    const put = db.prepare('INSERT INTO task_fingerprints (task_id, fingerprint, list_key) VALUES (?, ?, ?)');
    put.run('t1', 'f1', 'p1');
    put.run('t2', 'f2', 'p1');
    db.prepare(`INSERT INTO task_list_answers (list_key, fingerprint, intact) VALUES ('p1', 'w', 1)`).run();
    const intact = () =>
      db.prepare(`SELECT intact FROM task_list_answers WHERE list_key = 'p1'`).pluck().get();
    const held = () => db.prepare('SELECT task_id FROM task_fingerprints ORDER BY task_id').pluck().all();
    // A write that leaves the list columns alone keeps the fingerprint.
    db.prepare(`UPDATE tasks SET detail_fetched_at = '2026-01-02' WHERE id = 't1'`).run();
    expect(held()).toEqual(['t1', 't2']);
    expect(intact()).toBe(1);
    // A write to a list column, then a removal: each forgets its row and breaks the list's answer.
    db.prepare(`UPDATE tasks SET name = 'Renamed' WHERE id = 't1'`).run();
    expect(held()).toEqual(['t2']);
    expect(intact()).toBe(0);
    db.prepare(`DELETE FROM tasks WHERE id = 't2'`).run();
    expect(held()).toEqual([]);
    expect(() => put.run('t3', 'f1', null) && put.run('t4', 'f1', null)).toThrow(/UNIQUE/);
  });

  it('015 drop cache drafts: the table goes (its drafts live in the outbox file), the cache kept', () => {
    const db = cacheAt(14);
    insertTask(db, 't1', 'One');
    db.prepare(`INSERT INTO drafts (key, text, updated_at) VALUES ('message:t1', 'Copied before', 5)`).run();
    expect(tableNames(db)).toContain('drafts');
    expect(migrateTo(db, 15)).toBe(15);
    expect(tableNames(db)).not.toContain('drafts');
    expect(db.prepare('SELECT name FROM tasks').pluck().all()).toEqual(['One']);
  });

  it('016 stale messages index: the end of a pull finds the stale tasks through it, not by a scan', () => {
    const db = cacheAt(15);
    insertTask(db, 't1', 'One');
    insertTask(db, 't2', 'Two');
    // t1's messages were fetched at its activity; t2's never were.
    db.prepare(`UPDATE tasks SET messages_activity_moment = recent_activity_moment WHERE id = 't1'`).run();
    expect(migrateTo(db, 16)).toBe(16);
    const stale = `SELECT id FROM tasks WHERE messages_activity_moment IS NOT recent_activity_moment`;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${stale}`).all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join('; ')).toContain('USING INDEX tasks_messages_stale');
    expect(db.prepare(stale).pluck().all()).toEqual(['t2']);
    // New activity on t1 makes it stale again; its messages fetched, t2 leaves the index.
    db.prepare(`UPDATE tasks SET recent_activity_moment = '2026-02-01T00:00:00' WHERE id = 't1'`).run();
    db.prepare(`UPDATE tasks SET messages_activity_moment = recent_activity_moment WHERE id = 't2'`).run();
    expect(db.prepare(stale).pluck().all()).toEqual(['t1']);
  });

  it('017 list answers: every row written to a list table counts, and a record holds only until then', () => {
    const db = cacheAt(16);
    db.prepare(`INSERT INTO users (id, name, primary_email) VALUES ('u1', 'Ann', 'a@x')`).run();
    expect(migrateTo(db, 17)).toBe(17);
    const writes = (table: string): unknown =>
      db.prepare('SELECT writes FROM list_table_writes WHERE table_name = ?').pluck().get(table);
    // Nothing is recorded before a pull stores a list: the first pull after this step stores each.
    expect(db.prepare('SELECT count(*) FROM list_answers').pluck().get()).toBe(0);
    expect(writes('users')).toBe(0);
    db.prepare(`INSERT INTO users (id, name, primary_email) VALUES ('u2', 'Bo', 'b@x')`).run();
    db.prepare(`UPDATE users SET name = 'Ann B' WHERE id = 'u1'`).run();
    db.prepare(`DELETE FROM users WHERE id = 'u2'`).run();
    expect(writes('users')).toBe(3);
    // Another table's writes count for it alone; a table no list is stored in has no count.
    insertTask(db, 't1', 'One');
    db.prepare(`INSERT INTO statuses (id, name, system_status, is_closed) VALUES ('s1', 'Open', 1, 0)`).run();
    expect(writes('statuses')).toBe(1);
    expect(writes('users')).toBe(3);
    expect(writes('tasks')).toBeUndefined();
  });

  it("018 due tasks index: a user's open tasks due up to a day are searched by person and deadline", () => {
    const db = cacheAt(17);
    insertTask(db, 't1', 'Mine, due');
    insertTask(db, 't2', 'Awaits me, due');
    insertTask(db, 't3', 'Mine, no deadline');
    insertTask(db, 't4', 'Mine, closed');
    insertTask(db, 't5', 'Mine, due later');
    db.exec(`
      UPDATE tasks SET assigned_to_user_id = 'me', deadline = '2026-11-28' WHERE id IN ('t1', 't4');
      UPDATE tasks SET action_required_user_id = 'me', deadline = '2026-11-27' WHERE id = 't2';
      UPDATE tasks SET assigned_to_user_id = 'me' WHERE id = 't3';
      UPDATE tasks SET assigned_to_user_id = 'me', deadline = '2026-12-20' WHERE id = 't5';
      UPDATE tasks SET moment_closed = '2026-11-01T00:00:00' WHERE id = 't4';
    `);
    expect(migrateTo(db, 18)).toBe(18);
    // The question of \`tasks.due\` (the repository's DUE_SQL), its filter alone.
    const due = `SELECT id FROM tasks
      WHERE (assigned_to_user_id = @userId OR action_required_user_id = @userId)
        AND moment_closed IS NULL AND deadline IS NOT NULL AND deadline <= @through ORDER BY id`;
    const query = { userId: 'me', through: '2026-11-29' };
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${due}`).all(query) as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
    expect(plan).toContain('USING INDEX tasks_due_assigned (assigned_to_user_id=? AND deadline<?)');
    expect(plan).toContain(
      'USING INDEX tasks_due_action_required (action_required_user_id=? AND deadline<?)',
    );
    expect(db.prepare(due).pluck().all(query)).toEqual(['t1', 't2']);
    // Closed and undated tasks are not held: the indexes keep the open dated tasks alone.
    const held = (index: string) =>
      db
        .prepare(
          `SELECT count(*) FROM tasks INDEXED BY ${index} WHERE assigned_to_user_id = 'me' AND moment_closed IS NULL AND deadline IS NOT NULL`,
        )
        .pluck()
        .get();
    expect(held('tasks_due_assigned')).toBe(2);
  });

  it('019 task index later: a task write is noted for the index, not indexed; a delete leaves both at once', () => {
    const db = cacheAt(18);
    insertTask(db, 't1', 'Indexed before');
    expect(migrateTo(db, 19)).toBe(19);
    const hits = (q: string) =>
      db.prepare(`SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ?`).pluck().all(q);
    const pending = () => db.prepare('SELECT task_rowid FROM tasks_fts_pending ORDER BY 1').pluck().all();
    const rowid = (id: string) => db.prepare('SELECT rowid FROM tasks WHERE id = ?').pluck().get(id);
    // A task indexed before the step stays indexed, and nothing waits.
    expect(hits('indexed')).toEqual([rowid('t1')]);
    expect(pending()).toEqual([]);
    // A new task and a rename are noted once each; the index is left as it was.
    insertTask(db, 't2', 'Stored later');
    db.prepare(`UPDATE tasks SET name = 'Renamed' WHERE id = 't1'`).run();
    db.prepare(`UPDATE tasks SET name = 'Renamed again' WHERE id = 't1'`).run();
    expect(pending()).toEqual([rowid('t1'), rowid('t2')]);
    expect(hits('stored OR renamed')).toEqual([]);
    expect(hits('indexed')).toEqual([rowid('t1')]);
    // The cache's upsert (its own conflict clause) notes a row once too.
    db.prepare(
      `INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, system_status, system_type,
         schedule_status, task_type_id, task_type_name, priority, moment_created, recent_activity_moment)
       VALUES ('t2', 'T2', 'Stored again', 'p1', 's1', 'Open', 2, 1, 0, 'tt', 'Task', 1, '2026-01-01', '2026-01-01')
       ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
    ).run();
    expect(pending()).toEqual([rowid('t1'), rowid('t2')]);
    // A write that leaves the searched text alone is not noted.
    insertTask(db, 't3', 'Third');
    db.exec('DELETE FROM tasks_fts_pending');
    db.prepare(`UPDATE tasks SET priority = 5 WHERE id = 't3'`).run();
    expect(pending()).toEqual([]);
    // A delete takes the task out of the index and of the list at once, indexed or not.
    db.prepare(`UPDATE tasks SET name = 'Fourth' WHERE id = 't3'`).run();
    db.prepare(`DELETE FROM tasks WHERE id IN ('t1', 't3')`).run();
    expect(hits('indexed')).toEqual([]);
    expect(pending()).toEqual([]);
    db.exec(`INSERT INTO tasks_fts(tasks_fts) VALUES ('integrity-check')`);
  });

  it('keeps, at the latest version, the three write-counting triggers of every list table', () => {
    // A later step that rebuilds one of these tables (create, copy, drop, rename) drops its
    // triggers with it: its writes would stop counting, and a pull would hold a list the cache
    // no longer equals. Such a step must create them again (and one that changes how a list is
    // stored must clear `list_answers`).
    const db = cacheAt(migrations.at(-1)!.version);
    const tables = db.prepare('SELECT table_name FROM list_table_writes').pluck().all() as string[];
    expect(tables.length).toBeGreaterThan(0);
    const triggers = new Set(
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).pluck().all() as string[],
    );
    for (const table of tables)
      for (const what of ['inserted', 'updated', 'deleted'])
        expect(triggers.has(`${table}_list_write_${what}`), `${table}_list_write_${what}`).toBe(true);
  });

  it('has a test above for every migration', () => {
    expect(migrations.map((m) => m.version)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    ]);
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

  it('3 conflict source: keeps every conflict, with no source for the older ones', () => {
    const db = outboxAt(2);
    db.exec(`INSERT INTO outbox_conflicts (entity, entity_id, field, local_value, remote_value, detected_at)
      VALUES ('task', 't1', 'priority', '3', '5', 10)`);
    expect(runMigrations(db, outboxFileMigrations.slice(0, 3), 'Outbox database')).toBe(3);
    expect(db.prepare('SELECT field, remote_by, remote_at FROM outbox_conflicts').all()).toEqual([
      { field: 'priority', remote_by: null, remote_at: null },
    ]);
    db.exec(`UPDATE outbox_conflicts SET remote_by = 'u-ada', remote_at = '2026-11-26T07:00:00'`);
    expect(() => db.exec(`UPDATE outbox_conflicts SET remote_at = x'00'`)).toThrow(/cannot store BLOB/);
  });

  it('4 drafts in the outbox file: the table, with the drafts of the cache file attached as cache', () => {
    const db = outboxAt(3);
    insertEntry(db, 5, 'pending');
    db.exec(`ATTACH DATABASE ':memory:' AS cache`);
    db.exec(
      `CREATE TABLE cache.drafts (key TEXT PRIMARY KEY, text TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT`,
    );
    db.exec(
      `INSERT INTO cache.drafts VALUES ('message:t1', 'Half a thought', 7), ('new-task', '{"title":"x"}', 8)`,
    );
    expect(runMigrations(db, outboxFileMigrations.slice(0, 4), 'Outbox database')).toBe(4);
    expect(db.prepare('SELECT key, text, updated_at FROM main.outbox_drafts ORDER BY key').all()).toEqual([
      { key: 'message:t1', text: 'Half a thought', updated_at: 7 },
      { key: 'new-task', text: '{"title":"x"}', updated_at: 8 },
    ]);
    expect(db.prepare('SELECT id FROM outbox_entries').pluck().all()).toEqual([5]);
    expect(() => db.exec(`INSERT INTO outbox_drafts VALUES ('k', 'x', 'soon')`)).toThrow(/cannot store TEXT/);
  });

  it('4 drafts in the outbox file: with no cache to copy from, the table alone', () => {
    const db = outboxAt(3);
    expect(runMigrations(db, outboxFileMigrations.slice(0, 4), 'Outbox database')).toBe(4);
    expect(db.prepare('SELECT count(*) FROM outbox_drafts').pluck().get()).toBe(0);
  });

  it('has a test above for every migration', () => {
    expect(outboxFileMigrations.map((m) => m.version)).toEqual([1, 2, 3, 4]);
  });
});
