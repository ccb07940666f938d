import { reportMessageText, type TimeReport } from '../../../shared/api/index';
import type { TimeReportView } from '../../../shared/ipc/time';
import type { Cache } from '../cache/cache';
import { isTempId } from '../local-ids';
import type { AccountOutbox } from '../outbox/account-outbox';
import { timeReportWindow } from '../sync/pull';
import { fetchOrServeCache, isServiceId, type ReadDeps } from './read-deps';
import type { HandlerMap } from './types';
import { writer } from './write';

/**
 * Reports with the names a view shows, each task and project looked up once. A task's name is
 * read from its list row, not its whole detail: on a week of My Time the detail's decoding was
 * most of the read (bench/scenarios/my-time.ts).
 */
function viewsOf(cache: Cache, reports: readonly TimeReport[]): TimeReportView[] {
  const tasks = new Map<string, string>();
  const projects = new Map<string, string>();
  const taskName = (id: string) => {
    let name = tasks.get(id);
    if (name === undefined) tasks.set(id, (name = cache.tasks.row(id)?.name ?? 'A task not in the cache'));
    return name;
  };
  const projectName = (id: string) => {
    let name = projects.get(id);
    if (name === undefined) projects.set(id, (name = cache.projects.get(id)?.name ?? ''));
    return name;
  };
  return reports.map((r) => ({
    ...r,
    note: reportMessageText(r.message),
    taskName: taskName(r.taskId),
    projectName: projectName(r.projectId),
    pending: isTempId(r.id),
  }));
}

/** Time report reads: the cache answers; a task's reports are fetched when it is opened. */
export function timeReadHandlers(deps: ReadDeps): HandlerMap<'time.mine' | 'time.ofTask'> {
  const { cache, sync } = deps;
  return {
    async 'time.mine'({ from, to, refresh }) {
      // The synced weeks are in the cache; a range reaching before them is asked for on demand.
      const synced = timeReportWindow(deps.clock?.() ?? new Date());
      if (refresh || from < synced.startDate) {
        await fetchOrServeCache(deps, () => sync.onDemand.myTimeReports({ startDate: from, endDate: to }));
      }
      return viewsOf(cache, cache.timeReports.byUser(deps.userId, { from, to }));
    },
    async 'time.ofTask'({ taskId }) {
      if (isServiceId(taskId)) await fetchOrServeCache(deps, () => sync.onDemand.taskTimeReports(taskId));
      return viewsOf(cache, cache.timeReports.byTask(taskId));
    },
  };
}

/** Logging time, queued through the outbox as the acting user. */
export function timeWriteHandlers({ outbox }: { outbox: AccountOutbox }): HandlerMap<'time.log'> {
  const { id, create } = writer(outbox);
  return {
    // `known` (equal reports the service lists before the send) is read when it is sent.
    'time.log': (input) =>
      create('timeReport.create', (tempId) => ({
        tempId,
        input: { ...input, taskId: id(input.taskId) },
        known: [],
      })),
  };
}
