import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open';
import { generateWorkspace } from './generate';

function dumpTasks(db: ReturnType<typeof openDatabase>): unknown[] {
  return db.prepare('SELECT * FROM tasks ORDER BY id').all();
}

describe('generateWorkspace', () => {
  it('writes the requested counts, two levels deep, subtasks in their parent’s project', () => {
    const db = openDatabase(':memory:');
    const ws = generateWorkspace(db, { projects: 20, tasks: 500, messagesPerTask: 3, seed: 1 });
    expect(ws.folderIds).toHaveLength(2);
    expect(ws.projectIds).toHaveLength(18);
    expect(ws.taskIds).toHaveLength(500);
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM tasks')).toBe(500);
    expect(count('SELECT count(*) AS n FROM messages')).toBe(1500);
    expect(count('SELECT count(*) AS n FROM tasks WHERE parent_task_id IS NOT NULL')).toBeGreaterThan(50);
    expect(
      count(
        'SELECT count(*) AS n FROM tasks c JOIN tasks p ON p.id = c.parent_task_id WHERE p.project_id <> c.project_id',
      ),
    ).toBe(0);
    expect(
      count(
        "SELECT count(*) AS n FROM projects p JOIN projects f ON f.id = p.parent_project_id WHERE f.is_folder = 1 AND f.id <> 'p-workspace'",
      ),
    ).toBe(18);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const a = openDatabase(':memory:');
    const b = openDatabase(':memory:');
    const c = openDatabase(':memory:');
    generateWorkspace(a, { projects: 5, tasks: 100, messagesPerTask: 1, seed: 9 });
    generateWorkspace(b, { projects: 5, tasks: 100, messagesPerTask: 1, seed: 9 });
    generateWorkspace(c, { projects: 5, tasks: 100, messagesPerTask: 1, seed: 10 });
    expect(dumpTasks(a)).toEqual(dumpTasks(b));
    expect(dumpTasks(a)).not.toEqual(dumpTasks(c));
  });

  it('puts all tasks of a one-project workspace in that project', () => {
    const db = openDatabase(':memory:');
    const ws = generateWorkspace(db, { projects: 1, tasks: 1000, messagesPerTask: 0, seed: 3 });
    expect(ws.projectIds).toHaveLength(1);
    const n = db.prepare('SELECT count(*) AS n FROM tasks WHERE project_id = ?').get(ws.projectIds[0]) as {
      n: number;
    };
    expect(n.n).toBe(1000);
  });
});
