import type { Database } from 'better-sqlite3';

/**
 * Time reports: minutes a user logged on a task for a day. The project is the task's (read
 * through the task, so a report follows a task that moves); a task's delete takes its reports.
 */
export function up(db: Database): void {
  db.exec(`
    CREATE TABLE time_reports (
      id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks(id),
      user_id TEXT NOT NULL REFERENCES users(id),
      report_date TEXT NOT NULL,
      reported INTEGER NOT NULL,
      message TEXT NOT NULL DEFAULT '',
      is_billable INTEGER NOT NULL DEFAULT 0,
      moment_created TEXT NOT NULL
    ) STRICT;
    CREATE INDEX time_reports_task ON time_reports(task_id, report_date);
    CREATE INDEX time_reports_user ON time_reports(user_id, report_date);
  `);
}
