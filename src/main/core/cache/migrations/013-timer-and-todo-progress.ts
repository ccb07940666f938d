import type { Migration } from './types';

/** A task's to-do items over all its lists (`todo_list`, GoodDay's structure), and the ticked ones. */
const ITEMS = (list: string): string =>
  `FROM json_each(CASE WHEN json_valid(${list}) THEN ${list} ELSE '[]' END) AS l,
        json_each(l.value, '$.items') AS i`;
const TOTAL = (list: string): string => `(SELECT count(*) ${ITEMS(list)})`;
const DONE = (list: string): string =>
  `(SELECT count(*) ${ITEMS(list)} WHERE json_extract(i.value, '$.properties.completed') = 1)`;

/**
 * The running timer: one row at most (`slot` 1), in the account's cache file so it survives a
 * restart and a crash; its `task_id` is remapped with the task's when a task created offline gets
 * its real id. To-do progress on task rows: `tasks.todo_done` / `todo_total`, kept by triggers
 * as a change of `todo_list` is stored, so a list reads them as plain columns (counting the JSON
 * per row would cost every list read); only tasks with lists pay, when stored.
 */
export const migration013: Migration = {
  version: 13,
  name: 'timer-and-todo-progress',
  up(db) {
    db.exec(`
      CREATE TABLE timer (
        slot INTEGER PRIMARY KEY CHECK (slot = 1),
        task_id TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        is_billable INTEGER NOT NULL DEFAULT 0 CHECK (is_billable IN (0, 1))
      ) STRICT;
      ALTER TABLE tasks ADD COLUMN todo_done INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE tasks ADD COLUMN todo_total INTEGER NOT NULL DEFAULT 0;
      UPDATE tasks SET todo_done = ${DONE('todo_list')}, todo_total = ${TOTAL('todo_list')}
        WHERE todo_list IS NOT NULL;
      CREATE TRIGGER tasks_todo_insert AFTER INSERT ON tasks WHEN NEW.todo_list IS NOT NULL
      BEGIN
        UPDATE tasks SET todo_done = ${DONE('NEW.todo_list')}, todo_total = ${TOTAL('NEW.todo_list')}
          WHERE id = NEW.id;
      END;
      CREATE TRIGGER tasks_todo_update AFTER UPDATE OF todo_list ON tasks
      BEGIN
        UPDATE tasks SET todo_done = ${DONE('NEW.todo_list')}, todo_total = ${TOTAL('NEW.todo_list')}
          WHERE id = NEW.id;
      END;
    `);
  },
};
