import { z } from 'zod';
import { DateString, Id } from '../api/common';
import { MAX_REPORT_MESSAGE, MAX_REPORT_MINUTES, TimeReport } from '../api/time-reports';
import { channel } from './channel';
import { CreateResult } from './tasks-write';

/**
 * Time reports: logged through the outbox (offline too, applied once); the service keeps them
 * as logged (no edit, no delete). The acting user logs; lists read from the cache.
 */
export const TimeLogInput = z
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
  .strict();
export type TimeLogInput = z.infer<typeof TimeLogInput>;

/** A cached report with its note as typed and the names a view shows. */
export const TimeReportView = TimeReport.extend({
  /** The note as typed (the service's `message` with its HTML escapes read back). */
  note: z.string(),
  taskName: z.string(),
  projectName: z.string(),
  /** True while its create waits in the outbox. */
  pending: z.boolean(),
});
export type TimeReportView = z.infer<typeof TimeReportView>;

export const timeChannels = {
  /** Logs time on a task as the acting user; answers the local id until the service names it. */
  'time.log': channel(TimeLogInput, CreateResult),
  /**
   * The acting user's reports dated in [from, to] from the cache; `refresh` asks the service
   * first (a range before the synced weeks, on demand), and an offline refresh reads the cache.
   */
  'time.mine': channel(
    z.object({ from: DateString, to: DateString, refresh: z.boolean().optional() }).strict(),
    z.array(TimeReportView),
  ),
  /** A task's reports (fetched when the task is opened, then cached). */
  'time.ofTask': channel(z.object({ taskId: Id }).strict(), z.array(TimeReportView)),
};
