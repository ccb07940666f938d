import { END_BEFORE_START_MESSAGE, formatLocalDate } from '../../shared/api/common';
import {
  CreateTimeReportBody,
  MAX_REPORT_DAYS_AHEAD,
  ProjectTimeReportsQuery,
  TaskTimeReportsQuery,
  TimeReportsRange,
  TimeReportsSearchBody,
  UserTimeReportsQuery,
} from '../../shared/api/time-reports';
import type { ServiceContext } from '../context';
import type { TimeReportRow } from '../db/time-reports';
import { badRequest, notFound } from '../http/errors';
import type { Router } from '../http/router';
import { loadTask } from './tasks';

/** The calendar date `days` after `date` (YYYY-MM-DD), by the calendar, not by hours. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return formatLocalDate(new Date(y, m - 1, d + days));
}

export function timeReportRoutes(r: Router, ctx: ServiceContext): void {
  /**
   * Logs time on a task. Rules: 1 to 1440 minutes (one report is at most a day); the date
   * (today when absent) at most MAX_REPORT_DAYS_AHEAD days after today on the service's clock,
   * so a mistyped year is refused; the task exists; the user exists and is a member of the
   * task's project (or the project is public).
   */
  r.post('/task/:id/time-report', {
    body: CreateTimeReportBody,
    handle: ({ params, body }) => {
      const task = loadTask(ctx, params['id']);
      ctx.requireUser('userId', body.userId);
      const project = ctx.projects.row(task.project_id);
      if (project && !project.is_public && !ctx.projects.member(project.id, body.userId)) {
        throw badRequest(
          'userId',
          `user ${JSON.stringify(body.userId)} is not a member of the task's project`,
        );
      }
      const today = formatLocalDate(ctx.clock());
      const date = body.date ?? today;
      const latest = addDays(today, MAX_REPORT_DAYS_AHEAD);
      if (date > latest) {
        throw badRequest('date', `must not be after ${latest} (${MAX_REPORT_DAYS_AHEAD} days from today)`);
      }
      const row: TimeReportRow = {
        id: ctx.newId(),
        task_id: task.id,
        user_id: body.userId,
        report_date: date,
        reported: body.reportedMinutes,
        message: body.message ?? '',
        is_billable: body.isBillable ? 1 : 0,
        moment_created: ctx.now(),
      };
      ctx.timeReports.insert(row);
      return { json: ctx.timeReports.get(row.id) };
    },
  });

  r.get('/user/:id/time-reports', {
    query: UserTimeReportsQuery,
    handle: ({ params, query }) => {
      if (!ctx.org.isUser(params['id'])) throw notFound('user', params['id']);
      return { json: ctx.timeReports.byUser(params['id'], query) };
    },
  });

  r.get('/task/:id/time-reports', {
    query: TaskTimeReportsQuery,
    handle: ({ params, query }) => {
      const task = loadTask(ctx, params['id']);
      return { json: ctx.timeReports.byTask(task.id, query.subtasks, query) };
    },
  });

  r.get('/project/:id/time-reports', {
    query: ProjectTimeReportsQuery,
    handle: ({ params, query }) => {
      if (!ctx.projects.row(params['id'])) throw notFound('project', params['id']);
      return { json: ctx.timeReports.byProject(params['id'], query.subfolders, query) };
    },
  });

  /** Across projects and users; the dates in the body or, with an empty body, in the query. */
  r.post('/time-reports', {
    query: TimeReportsRange,
    body: TimeReportsSearchBody,
    handle: ({ query, body }) => {
      const range = {
        startDate: body.startDate ?? query.startDate,
        endDate: body.endDate ?? query.endDate,
      };
      if (range.startDate && range.endDate && range.endDate < range.startDate) {
        throw badRequest('endDate', END_BEFORE_START_MESSAGE);
      }
      return { json: ctx.timeReports.search(range, body.projectIds ?? null, body.userIds ?? null) };
    },
  });
}
