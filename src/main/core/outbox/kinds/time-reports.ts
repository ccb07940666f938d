import { z } from 'zod';
import {
  escapeReportMessage,
  reportMessageText,
  type TimeReport,
  timeReportEndpoints,
} from '../../../../shared/api/time-reports';
import { TimeLogInput } from '../../../../shared/ipc/time';
import type { ServiceClient } from '../../api/client';
import { afterApplied, OutboxError } from '../outbox';
import { clockOf, stampedCreate, stampOf, TempId, type Kind, type KindDeps, listedLookUp } from './support';

/**
 * `known`: ids of reports of the same task, day, minutes and note that the service listed just
 * before the send (`prepare`): a look-up never takes one of them for the one this entry made.
 */
export const TimeReportCreatePayload = z.object({
  tempId: TempId,
  input: TimeLogInput,
  known: z.array(z.string()).default([]),
});
type Create = z.infer<typeof TimeReportCreatePayload>;

declare module './support' {
  interface KindModules {
    timeReports: ReturnType<typeof timeReportKinds>;
  }
}

/**
 * Logging time. The service has no idempotency key and answers a create with the report (our
 * service) or `OK` (the live one); the service keeps reports as logged (no edit or delete), so
 * this is the only write. Rule 6's look-up rests on what the live service lists: the task, the
 * user, the minutes, the date, the note (read back from its HTML escapes) and `momentCreated`
 * on the service's clock.
 */
export function timeReportKinds(deps: KindDeps) {
  const { cache } = deps;

  const sameReport = (r: TimeReport, input: TimeLogInput): boolean =>
    r.taskId === input.taskId &&
    r.userId === deps.userId &&
    r.reported === input.minutes &&
    r.reportDate === input.date &&
    reportMessageText(r.message) === (input.message ?? '');

  /**
   * Rule 6's test over a list: the earliest matching report stamped after the send, taken by
   * no other create and not listed before the send (`known`).
   */
  const reportCreated = stampedCreate<TimeReport, Create>(deps, {
    parse: (p) => TimeReportCreatePayload.parse(p),
    momentOf: (r) => r.momentCreated,
    matches: (r, p) => sameReport(r, p.input),
    excluded: (p) => p.known,
  });

  const listed = (client: ServiceClient, input: TimeLogInput) =>
    client.call(timeReportEndpoints.taskTimeReports, {
      id: input.taskId,
      query: { startDate: input.date, endDate: input.date },
    });

  const create: Kind<Create, TimeReport, 'timeReport.create'> = {
    name: 'timeReport.create',
    parse: (p) => TimeReportCreatePayload.parse(p),
    // Ordered with every change of the task (a delete of it waits for the report, and the
    // report for the task's create); one task's reports go one at a time, so two equal reports
    // are told apart by `known`.
    keysOf: (p) => [`timeReport:${p.tempId}`, `task:${p.input.taskId}`],
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Log ${p.input.minutes} min`,
    apply: (ctx, { tempId, input }) => {
      const task = cache.tasks.get(input.taskId);
      if (!task) throw new OutboxError('not-found', `Task ${input.taskId} is not in the cache`, 'taskId');
      cache.timeReports.upsert({
        id: tempId,
        taskId: input.taskId,
        projectId: task.projectId,
        userId: deps.userId,
        reportDate: input.date,
        reported: input.minutes,
        message: escapeReportMessage(input.message ?? ''),
        isBillable: input.isBillable ?? false,
        momentCreated: stampOf(ctx.now, clockOf(deps)),
      });
    },
    prepare: async (client, p) => {
      const before = (await listed(client, p.input)).filter((r) => sameReport(r, p.input)).map((r) => r.id);
      return { ...p, known: [...new Set([...p.known, ...before])] };
    },
    send: async (client, p) => {
      const { input } = p;
      const answered = await client.call(timeReportEndpoints.createTimeReport, {
        id: input.taskId,
        body: {
          userId: deps.userId,
          reportedMinutes: input.minutes,
          date: input.date,
          ...(input.message ? { message: input.message } : {}),
          ...(input.isBillable !== undefined ? { isBillable: input.isBillable } : {}),
        },
      });
      if (answered) return answered;
      // `OK`: the report was made; a failed search for it must not log it again, only look again.
      return afterApplied(async () => {
        const found = reportCreated.find(await listed(client, input), p, { sentAt: null });
        if (!found) throw new Error('The new time report was not found after its create');
        return found;
      });
    },
    fold: (_ctx, { tempId, input }, result) => {
      // A service without the billable flag (the live one) keeps what the user chose on screen.
      cache.timeReports.upsert({
        ...result,
        id: tempId,
        isBillable: result.isBillable || (input.isBillable ?? false),
      });
      return { realId: result.id };
    },
    lookUp: async (client, p, entry) => {
      const found = reportCreated.find(await listed(client, p.input), p, entry);
      return found ? { found: true, result: found } : { found: false };
    },
    rollback: (_ctx, { tempId }) => {
      cache.timeReports.delete(tempId);
    },
  };

  return {
    kinds: [create],
    lookUps: [listedLookUp('timeReport', 'timeReport.create', reportCreated.createdAmong)],
  };
}
