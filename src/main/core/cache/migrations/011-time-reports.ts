import type { Migration } from './types';

/**
 * Time reports (the acting user's recent weeks, and those of tasks that were opened), and the
 * to-do lists of tasks (`todoList`, GoodDay's documented structure, as JSON).
 */
export const migration011: Migration = {
  version: 11,
  name: 'time-reports',
  up(db) {
    db.exec(`
      CREATE TABLE time_reports (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        report_date TEXT NOT NULL,
        reported INTEGER NOT NULL,
        -- as the service sends it: HTML-escaped
        message TEXT NOT NULL,
        is_billable INTEGER NOT NULL,
        moment_created TEXT NOT NULL
      ) STRICT;
      CREATE INDEX time_reports_user ON time_reports(user_id, report_date);
      CREATE INDEX time_reports_task ON time_reports(task_id, report_date);
      ALTER TABLE tasks ADD COLUMN todo_list TEXT;
    `);
  },
};
