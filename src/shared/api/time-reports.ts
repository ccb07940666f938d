import { z } from 'zod';
import {
  BooleanParam,
  DateString,
  endBeforeStart,
  endNotBeforeStart,
  Id,
  LocalTimestamp,
  OptionalFlag,
  orDefault,
} from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/**
 * Time reports (time logged on a task). The live service offers them though the spec does not:
 * `POST /task/{id}/time-report`, the lists per user, task and project, and `POST /time-reports`
 * across projects and users (`shared/spec/live-service-notes.md`). The service keeps time
 * reports as logged: there is no endpoint to edit or delete one.
 */

/** The most minutes one report may hold: a whole day. */
export const MAX_REPORT_MINUTES = 1440;
/** How many days after today (on the service's clock) a report's date may be. */
export const MAX_REPORT_DAYS_AHEAD = 31;
/** A report's note, characters. */
export const MAX_REPORT_MESSAGE = 10_000;

/**
 * A time report as the lists answer it. `message` arrives HTML-escaped (`&lt;` for `<`), as
 * the live service sends it: `reportMessageText` reads it back. `isBillable` is our extension
 * (the live items carry no such field), read as false when absent.
 */
export const TimeReport = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    reportDate: DateString,
    momentCreated: LocalTimestamp,
    projectId: orDefault(z.string(), () => ''),
    userId: z.string(),
    taskId: z.string(),
    /** Minutes. */
    reported: z.number().int(),
    message: orDefault(z.string(), () => ''),
    isBillable: orDefault(z.boolean(), () => false),
  }),
);
export type TimeReport = z.infer<typeof TimeReport>;
export const TimeReportsResponse = lazySchema(() => z.array(TimeReport));

/** POST /task/{id}/time-report */
export const CreateTimeReportBody = lazySchema(() =>
  z.object({
    userId: Id,
    reportedMinutes: z
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1 minute')
      .max(MAX_REPORT_MINUTES, `must be at most ${MAX_REPORT_MINUTES} minutes (a day)`),
    /** The day the time was spent; today (on the service's clock) when absent. */
    date: DateString.nullish(),
    message: z.string().max(MAX_REPORT_MESSAGE).nullish(),
    isBillable: BooleanParam.nullish(),
  }),
);
export type CreateTimeReportBody = z.input<typeof CreateTimeReportBody>;

/*
 * What a create answers: our service the new report (`TimeReport`); the live service (and our
 * `goodday` profile) `OK`, so a client finds the report in the task's list.
 */

/** A range of report dates; both ends included, either may be left out. */
export const TimeReportsRange = lazySchema(() =>
  z.object({
    startDate: DateString.optional(),
    endDate: DateString.optional(),
  }),
);
const rangeQuery = <T extends z.ZodRawShape>(extra: T) =>
  TimeReportsRange.extend(extra).refine(endNotBeforeStart, endBeforeStart());

/** GET /user/{id}/time-reports */
export const UserTimeReportsQuery = lazySchema(() => rangeQuery({}));
/** GET /task/{id}/time-reports: `subtasks` adds the reports of the task's subtasks. */
export const TaskTimeReportsQuery = lazySchema(() => rangeQuery({ subtasks: OptionalFlag }));
/** GET /project/{id}/time-reports: `subfolders` adds the reports of its folders' projects. */
export const ProjectTimeReportsQuery = lazySchema(() => rangeQuery({ subfolders: OptionalFlag }));

/** POST /time-reports: the dates in the body or in the query string (with an empty body). */
export const TimeReportsSearchBody = lazySchema(() =>
  rangeQuery({
    projectIds: z.array(Id).max(1000).nullish(),
    userIds: z.array(Id).max(1000).nullish(),
  }),
);
export type TimeReportsSearchBody = z.input<typeof TimeReportsSearchBody>;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
};
const UNESCAPES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#039': "'",
  '#39': "'",
  apos: "'",
};

/** A report's note as the service answers it (HTML special characters escaped). */
export function escapeReportMessage(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** The text a user typed, from a report's escaped `message`. */
export function reportMessageText(message: string): string {
  return message.replace(/&(amp|lt|gt|quot|#039|#39|apos);/g, (all, name: string) => UNESCAPES[name] ?? all);
}

/** The service's endpoints of time reports (the live service's; not in the spec). */
export const timeReportEndpoints = endpoints({
  userTimeReports: endpoint({
    method: 'GET',
    path: '/user/{id}/time-reports',
    read: 'list',
    query: UserTimeReportsQuery,
    response: TimeReportsResponse,
  }),
  taskTimeReports: endpoint({
    method: 'GET',
    path: '/task/{id}/time-reports',
    read: 'list',
    query: TaskTimeReportsQuery,
    response: TimeReportsResponse,
  }),
  /** Answers the new report (our service), or null for `OK` (the live service): then look it up. */
  createTimeReport: endpoint({
    method: 'POST',
    path: '/task/{id}/time-report',
    read: 'itemOrOk',
    body: CreateTimeReportBody,
    response: TimeReport,
  }),
});
