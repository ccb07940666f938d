import { reportMessageText, type TimeReport } from '../../../shared/api/time-reports';
import type { EventName, EventPayload } from '../../../shared/ipc/events';
import type { TimeReportView, TimerView } from '../../../shared/ipc/time';
import type { Cache } from '../cache/cache';
import { createTimeReportsRepo } from '../cache/repos/time-reports';
import { createTimerRepo, type StoredTimer } from '../cache/repos/timer';
import { HandlerError } from '../errors';
import { isTempId } from '../local-ids';
import type { AccountOutbox } from '../outbox/account-outbox';
import { timeReport, timeReportReads, timeReportWindow } from '../entities/time-reports';
import { fetchOrServeCache, isServiceId, type ReadDeps } from './read-deps';
import type { EngineDeps, HandlerModule } from './index';
import type { HandlerMap } from './types';
import { timeReportKinds } from '../outbox/kinds/time-reports';
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
        await fetchOrServeCache(deps, () =>
          sync.onDemand.run(timeReportReads.mine({ startDate: from, endDate: to })),
        );
      }
      return viewsOf(cache, cache.timeReports.byUser(deps.userId, { from, to }));
    },
    async 'time.ofTask'({ taskId }) {
      if (isServiceId(taskId))
        await fetchOrServeCache(deps, () => sync.onDemand.run(timeReportReads.ofTask(taskId)));
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

// The running timer: one per account, in the account's cache (`cache.timer`). A stop logs its
// report through the outbox as `time.log` does and forgets the run in the same transaction, so
// a crash leaves either the timer running or the report queued, never both and never neither.

export interface TimerDeps {
  outbox: AccountOutbox;
  cache: Cache;
  clock?: () => Date;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
}

type TimerChannel =
  'time.timer' | 'time.timerStart' | 'time.timerUpdate' | 'time.timerStop' | 'time.timerDiscard';

export function timerHandlers({
  outbox,
  cache,
  clock = () => new Date(),
  emit,
}: TimerDeps): HandlerMap<TimerChannel> {
  const { id, create } = writer(outbox);

  const viewOf = (timer: StoredTimer): TimerView => {
    const task = cache.tasks.get(timer.taskId);
    return {
      ...timer,
      taskName: task?.name ?? 'A task no longer in the cache',
      taskKnown: !!task,
      projectName: (task && cache.projects.get(task.projectId)?.name) ?? '',
    };
  };
  const current = (): TimerView | null => {
    const timer = cache.timer.get();
    return timer ? viewOf(timer) : null;
  };
  const changed = (): TimerView | null => {
    const timer = current();
    emit('time.onDidChangeTimer', { timer });
    return timer;
  };
  /** The run `startedAt` names, which must be the running one. */
  const running = (startedAt: number): StoredTimer => {
    const timer = cache.timer.get();
    if (!timer || timer.startedAt !== startedAt)
      throw new HandlerError(
        'conflict',
        timer
          ? 'The timer was restarted meanwhile: this run is no longer the running one'
          : 'No timer is running (it was stopped or discarded meanwhile): nothing was logged',
        'startedAt',
      );
    return timer;
  };

  return {
    'time.timer': () => current(),
    'time.timerStart': ({ taskId, note, isBillable }) => {
      const realId = id(taskId);
      const task = cache.tasks.get(realId);
      if (!task) throw new HandlerError('not-found', `Task ${taskId} is not in the cache`, 'taskId');
      const timer = cache.timer.get();
      if (timer && timer.taskId === realId) return viewOf(timer);
      if (timer)
        throw new HandlerError(
          'conflict',
          `A timer is already running on '${viewOf(timer).taskName}': stop or discard it first`,
          'taskId',
        );
      cache.timer.put({
        taskId: realId,
        startedAt: clock().getTime(),
        note: note ?? '',
        isBillable: !!isBillable,
      });
      return changed()!;
    },
    'time.timerUpdate': ({ startedAt, note, isBillable }) => {
      const timer = running(startedAt);
      cache.timer.put({ ...timer, note: note ?? timer.note, isBillable: isBillable ?? timer.isBillable });
      return changed()!;
    },
    'time.timerStop': ({ startedAt, ...report }) => {
      const created = cache.transaction(() => {
        const timer = running(startedAt);
        const logged = create('timeReport.create', (tempId) => ({
          tempId,
          input: { ...report, taskId: id(timer.taskId) },
          known: [],
        }));
        cache.timer.clear(startedAt);
        return logged;
      });
      changed();
      return created;
    },
    'time.timerDiscard': ({ startedAt }) => {
      const discarded = cache.timer.clear(startedAt);
      if (discarded) changed();
      return { discarded };
    },
  };
}

/** Time reports' handlers, as the registry (`handlers/index.ts`) lists them. */
export const timeHandlers = {
  kinds: timeReportKinds,
  entities: { timeReport },
  repos: { timeReports: createTimeReportsRepo, timer: createTimerRepo },
  read: timeReadHandlers,
  write: (deps: EngineDeps) => ({ ...timeWriteHandlers(deps), ...timerHandlers(deps) }),
} satisfies HandlerModule;
