import { z } from 'zod';
import { DateString, Id } from '../api/common';
import { MAX_REPORT_MESSAGE, MAX_REPORT_MINUTES, TimeReport } from '../api/time-reports';
import { channel, type ResourceSpec } from './channel';
import { CreateResult } from './tasks-write';
import { lazySchema } from '../lazy-schema';

/**
 * Time reports: logged through the outbox (offline too, applied once); the service keeps them
 * as logged (no edit, no delete). The acting user logs; lists read from the cache.
 */
export const TimeLogInput = lazySchema(() =>
  z
    .object({
      taskId: Id,
      minutes: z
        .int('must be a whole number of minutes')
        .min(1, 'must be at least 1 minute')
        .max(MAX_REPORT_MINUTES, `must be at most ${MAX_REPORT_MINUTES} minutes (a day)`),
      date: DateString,
      /** The note as typed (plain text; the service answers it HTML-escaped). */
      message: z.string().max(MAX_REPORT_MESSAGE).optional(),
      isBillable: z.boolean().optional(),
    })
    .strict(),
);
export type TimeLogInput = z.infer<typeof TimeLogInput>;

/** A cached report with its note as typed and the names a view shows. */
export const TimeReportView = lazySchema(() =>
  TimeReport.extend({
    /** The note as typed (the service's `message` with its HTML escapes read back). */
    note: z.string(),
    taskName: z.string(),
    projectName: z.string(),
    /** True while its create waits in the outbox. */
    pending: z.boolean(),
  }),
);
export type TimeReportView = z.infer<typeof TimeReportView>;

/** The resources this domain is the home of (see `RESOURCES` in `../entities.ts`). */
export const timeResources = {
  timeReport: { noun: 'a time report', cacheEntities: ['timeReports'], outbox: true },
} as const satisfies Record<string, ResourceSpec>;

export const timeChannels = {
  /** Logs time on a task as the acting user; answers the local id until the service names it. */
  'time.log': channel(
    () => TimeLogInput,
    () => CreateResult,
  ),
  /**
   * The acting user's reports dated in [from, to] from the cache; `refresh` asks the service
   * first (a range before the synced weeks, on demand), and an offline refresh reads the cache.
   */
  'time.mine': channel(
    () => z.object({ from: DateString, to: DateString, refresh: z.boolean().optional() }).strict(),
    () => z.array(TimeReportView),
  ),
  /** A task's reports (fetched when the task is opened, then cached). */
  'time.ofTask': channel(
    () => z.object({ taskId: Id }).strict(),
    () => z.array(TimeReportView),
  ),
};

// The running timer: one per account, kept by the core in the account's cache (it survives a
// restart and a crash of the app), started on a task and stopped into a time report logged as
// `time.log` logs one. `startedAt` names the run a stop or a change is meant for: a second stop
// of the same run (a double click, another window) finds it gone and logs nothing.

/** The running timer as a view shows it. */
export const TimerView = lazySchema(() =>
  z.object({
    taskId: z.string(),
    /** The task's name, or a placeholder when it is not in the cache (deleted since). */
    taskName: z.string(),
    /** False when the task is no longer in the cache: the time can then only be discarded. */
    taskKnown: z.boolean(),
    projectName: z.string(),
    /** When it started, in milliseconds since 1970 on this computer's clock. */
    startedAt: z.number().int(),
    /** The note the report will carry (editable while it runs and when it is stopped). */
    note: z.string(),
    isBillable: z.boolean(),
  }),
);
export type TimerView = z.infer<typeof TimerView>;

const TimerRun = lazySchema(() =>
  z.number().int('must be the running timer’s start (whole milliseconds)').nonnegative(),
);
const TimerNote = lazySchema(() =>
  z.string().max(MAX_REPORT_MESSAGE, `must be at most ${MAX_REPORT_MESSAGE} characters`),
);

export const TimerStartInput = lazySchema(() =>
  z.object({ taskId: Id, note: TimerNote.optional(), isBillable: z.boolean().optional() }).strict(),
);
export const TimerUpdateInput = lazySchema(() =>
  z.object({ startedAt: TimerRun, note: TimerNote.optional(), isBillable: z.boolean().optional() }).strict(),
);
/** What the stop confirm sends: the minutes (rounded, capped, maybe edited), the day, note, billable. */
export const TimerStopInput = lazySchema(() =>
  TimeLogInput.omit({ taskId: true }).extend({ startedAt: TimerRun }).strict(),
);
export type TimerStopInput = z.infer<typeof TimerStopInput>;

export const timerChannels = {
  /** The running timer, or null. */
  'time.timer': channel(
    () => z.object({}).strict(),
    () => TimerView.nullable(),
  ),
  /**
   * Starts the timer on a task (in the cache). Refused while it runs on another task: the caller
   * stops or discards that one first; on the same task it answers the running one unchanged.
   */
  'time.timerStart': channel(
    () => TimerStartInput,
    () => TimerView,
  ),
  /** Changes the running timer's note or billable. */
  'time.timerUpdate': channel(
    () => TimerUpdateInput,
    () => TimerView,
  ),
  /** Stops the run named and logs it (through the outbox, offline too) in one step. */
  'time.timerStop': channel(
    () => TimerStopInput,
    () => CreateResult,
  ),
  /** Stops the run named and logs nothing. */
  'time.timerDiscard': channel(
    () => z.object({ startedAt: TimerRun }).strict(),
    () => z.object({ discarded: z.boolean() }),
  ),
};

export const timerEvents = {
  /** The timer started, changed or stopped (any window, or a task's real id came in). */
  'time.onDidChangeTimer': lazySchema(() => z.object({ timer: TimerView.nullable() })),
};
