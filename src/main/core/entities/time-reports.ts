import { formatLocalDate } from '../../../shared/api/common';
import type { TimeReport } from '../../../shared/api/time-reports';
import { stamp, type SyncDeps } from '../sync/context';
import { fetchUnlessGone, type OnDemandRead } from '../sync/on-demand';
import { withoutCopies, type PullContext } from '../sync/pull';
import type { EntityDescriptor } from './types';
import { timeReportEndpoints } from '../../../shared/api/time-reports';

// Everything sync does with time reports lives here: the pull's part, how an answer is stored,
// the on-demand reads (run through `sync.onDemand.run`), and the item its lists hold.

declare module '../sync/pending' {
  /** Time reports as their lists answer them: what a create's look-up finds its report among. */
  interface ListedItems {
    timeReport: TimeReport;
  }
}

/** Weeks of the acting user's time reports a pull keeps in the cache. */
export const TIME_REPORT_WEEKS = 8;

/** The report dates a pull reads: the last `TIME_REPORT_WEEKS` weeks, up to today. */
export function timeReportWindow(
  now: Date,
  weeks = TIME_REPORT_WEEKS,
): { startDate: string; endDate: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - weeks * 7);
  return { startDate: formatLocalDate(start), endDate: formatLocalDate(now) };
}

/**
 * Makes the cached reports of the acting user in the range the service's `list`: reports made
 * here and not yet acknowledged stay (their local row stands for the service's copy).
 */
export function storeUserTimeReports(
  deps: SyncDeps,
  range: { startDate: string; endDate: string },
  list: readonly TimeReport[],
): void {
  const keep = (id: string) => deps.pending.isPendingStructural('timeReport', id);
  deps.cache.transaction(() =>
    deps.cache.timeReports.replaceUserRange(
      deps.userId,
      { from: range.startDate, to: range.endDate },
      withoutCopies(deps.pending, 'timeReport', list),
      keep,
    ),
  );
  deps.emitChange({ entities: ['timeReports'] });
}

/** As `storeUserTimeReports`, for one task's reports (fetched when the task is opened). */
export function storeTaskTimeReports(deps: SyncDeps, taskId: string, list: readonly TimeReport[]): void {
  const keep = (id: string) => deps.pending.isPendingStructural('timeReport', id);
  deps.cache.transaction(() =>
    deps.cache.timeReports.replaceTask(taskId, withoutCopies(deps.pending, 'timeReport', list), keep),
  );
  deps.emitChange({ entities: ['timeReports'], ids: { tasks: [taskId] } });
}

/** The acting user's time reports of the last weeks (My Time); older weeks are read on demand. */
async function pullMyTimeReports(ctx: PullContext): Promise<void> {
  const { deps, gate } = ctx;
  const range = timeReportWindow(deps.clock());
  await ctx.isolated(`/user/${encodeURIComponent(deps.userId)}/time-reports`, async () => {
    const list = await gate((s) =>
      deps.client.call(timeReportEndpoints.userTimeReports, { id: deps.userId, query: range }, s),
    );
    storeUserTimeReports(deps, range, list);
  });
}

/** The on-demand reads of time reports: `sync.onDemand.run(timeReportReads.ofTask(taskId))`. */
export const timeReportReads = {
  /** A task's time reports (every user's), when its Time section opens. */
  ofTask:
    (taskId: string): OnDemandRead =>
    (deps, gate) => {
      const { cache, client, pending } = deps;
      return fetchUnlessGone(
        cache,
        async () => {
          const list = await gate((s) =>
            client.call(timeReportEndpoints.taskTimeReports, { id: taskId, query: {} }, s),
          );
          storeTaskTimeReports(deps, taskId, list);
          cache.syncState.set(`timeReports:task:${taskId}`, stamp(deps.clock()));
        },
        // The task is gone: its reports went with it; the task itself is left to its own fetch.
        () =>
          cache.timeReports.replaceTask(taskId, [], (id) => pending.isPendingStructural('timeReport', id)),
      );
    },

  /** The acting user's reports dated in a range (My Time going back before the synced weeks). */
  mine:
    (range: { startDate: string; endDate: string }): OnDemandRead<'ok'> =>
    async (deps, gate) => {
      const list = await gate((s) =>
        deps.client.call(timeReportEndpoints.userTimeReports, { id: deps.userId, query: range }, s),
      );
      storeUserTimeReports(deps, range, list);
      return 'ok';
    },
};

export const timeReport: EntityDescriptor<'timeReport'> = {
  views: ['timeReports'],
  tables: [
    { name: 'time_reports', localId: 'id', refs: ['task_id', 'project_id'] },
    // The running timer follows its task when a task created offline gets its real id.
    { name: 'timer', refs: ['task_id'] },
  ],
  pull: [{ phase: 'tasks', run: pullMyTimeReports }],
  // A task's reports are fetched when it is opened (`timeReportReads`); none is fetched alone.
};
