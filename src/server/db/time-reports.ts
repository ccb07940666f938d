import { escapeReportMessage, type TimeReport } from '../../shared/api/time-reports';
import type { Db } from './open';

export interface TimeReportRow {
  id: string;
  task_id: string;
  user_id: string;
  report_date: string;
  reported: number;
  message: string;
  is_billable: number;
  moment_created: string;
}

/** A stored row with its task's project, as the lists read it. */
type ListedRow = TimeReportRow & { project_id: string };

/** A report as the service answers it: the note HTML-escaped, as the live service sends it. */
function toTimeReport(r: ListedRow): TimeReport {
  return {
    id: r.id,
    reportDate: r.report_date,
    momentCreated: r.moment_created,
    projectId: r.project_id,
    userId: r.user_id,
    taskId: r.task_id,
    reported: r.reported,
    message: escapeReportMessage(r.message),
    isBillable: r.is_billable === 1,
  };
}

/** Both ends included; an absent end is open. */
export interface DateRange {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

const SELECT = 'SELECT r.*, t.project_id FROM time_reports r JOIN tasks t ON t.id = r.task_id';
const IN_RANGE =
  "r.report_date >= COALESCE(@start, '0000-00-00') AND r.report_date <= COALESCE(@end, '9999-99-99')";
const ORDER = 'ORDER BY r.report_date, r.moment_created, r.rowid';

export function timeReportStore(db: Db) {
  const insert = db.prepare<TimeReportRow>(
    `INSERT INTO time_reports (id, task_id, user_id, report_date, reported, message, is_billable, moment_created)
     VALUES (@id, @task_id, @user_id, @report_date, @reported, @message, @is_billable, @moment_created)`,
  );
  const byId = db.prepare<[string], ListedRow>(`${SELECT} WHERE r.id = ?`);
  type Range = { start: string | null; end: string | null };
  const byUser = db.prepare<Range & { id: string }, ListedRow>(
    `${SELECT} WHERE r.user_id = @id AND ${IN_RANGE} ${ORDER}`,
  );
  const byTask = db.prepare<Range & { id: string }, ListedRow>(
    `${SELECT} WHERE r.task_id = @id AND ${IN_RANGE} ${ORDER}`,
  );
  const byTaskTree = db.prepare<Range & { id: string }, ListedRow>(
    `WITH RECURSIVE tree(id) AS (SELECT @id UNION ALL SELECT c.id FROM tasks c JOIN tree ON c.parent_task_id = tree.id)
     ${SELECT} JOIN tree ON tree.id = r.task_id WHERE ${IN_RANGE} ${ORDER}`,
  );
  const byProject = db.prepare<Range & { id: string }, ListedRow>(
    `${SELECT} WHERE t.project_id = @id AND ${IN_RANGE} ${ORDER}`,
  );
  const byProjectTree = db.prepare<Range & { id: string }, ListedRow>(
    `WITH RECURSIVE tree(id) AS (SELECT @id UNION ALL SELECT p.id FROM projects p JOIN tree ON p.parent_project_id = tree.id)
     ${SELECT} JOIN tree ON tree.id = t.project_id WHERE ${IN_RANGE} ${ORDER}`,
  );
  const all = db.prepare<Range, ListedRow>(`${SELECT} WHERE ${IN_RANGE} ${ORDER}`);
  const range = (id: string, r: DateRange) => ({ id, start: r.startDate ?? null, end: r.endDate ?? null });

  return {
    insert: (row: TimeReportRow) => insert.run(row),
    get: (id: string): TimeReport | undefined => {
      const row = byId.get(id);
      return row && toTimeReport(row);
    },
    byUser: (userId: string, r: DateRange) => byUser.all(range(userId, r)).map(toTimeReport),
    byTask: (taskId: string, subtasks: boolean, r: DateRange) =>
      (subtasks ? byTaskTree : byTask).all(range(taskId, r)).map(toTimeReport),
    byProject: (projectId: string, subfolders: boolean, r: DateRange) =>
      (subfolders ? byProjectTree : byProject).all(range(projectId, r)).map(toTimeReport),
    /** Reports in the range, of any of `projectIds` and `userIds` when given (a filter each). */
    search: (r: DateRange, projectIds: readonly string[] | null, userIds: readonly string[] | null) => {
      const projects = projectIds ? new Set(projectIds) : null;
      const users = userIds ? new Set(userIds) : null;
      return all
        .all({ start: r.startDate ?? null, end: r.endDate ?? null })
        .filter((row) => (!projects || projects.has(row.project_id)) && (!users || users.has(row.user_id)))
        .map(toTimeReport);
    },
  };
}
