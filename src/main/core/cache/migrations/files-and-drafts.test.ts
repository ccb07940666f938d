import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../migrate';
import { migrations } from './index';

describe('cache migration 007: files on task rows, drafts', () => {
  it('keeps the messages, counts files through a partial index and adds the drafts table', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 6));
    db.exec(`
      INSERT INTO messages (id, task_id, date_created, communication_flow, from_user_id, message, attachments)
      VALUES ('m1', 't1', '2026-01-01', 2, 'u1', 'two files', '[{"fileId":"f1"},{"fileId":"f2"}]'),
             ('m2', 't1', '2026-01-02', 2, 'u1', 'none', NULL);
    `);
    expect(migrate(db, migrations.slice(0, 7))).toBe(7);
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
    ).toEqual({ n: 2 });
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
