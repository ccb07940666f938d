import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../migrate';
import { migrations } from './index';

describe('cache migration 008: files on task rows, drafts', () => {
  it("counts each task's files, keeps the count with triggers, and adds the drafts table", () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 7));
    db.exec(`
      INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message, attachments)
      VALUES ('m1', 't1', '2026-01-01', 2, 'u1', 'two files', '[{"fileId":"f1"},{"fileId":"f2"}]'),
             ('m2', 't1', '2026-01-02', 2, 'u1', 'none', NULL);
    `);
    db.exec(`INSERT INTO tasks (id, short_id, name, project_id, status_id, status_name, task_type_id, task_type_name,
      priority, moment_created, recent_activity_moment, system_status, system_type, schedule_status)
      VALUES ('t1', 'T1', 'One', 'p1', 's', 'New', 'tt', 'Task', 1, '2026-01-01', '2026-01-01', 1, 1, 0)`);
    expect(migrate(db, migrations.slice(0, 8))).toBe(8);
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
});
