// Initial sync and 1% refresh of a generated workspace (200 projects, 20,000 tasks, 60,000
// messages) through the fault proxy at 50 ms added round trip, beside the lower bound: the
// requests any client of this API must make, divided by the concurrency, times the RTT.
// The service and the proxy run in a child process, so the memory figures are the core's alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadEngine, type ReadEngine } from '../../src/main/core/engine';
import type { HandlerMap } from '../../src/main/core/handlers/types';
import { channels } from '../../src/shared/ipc/contract';
import { connectionOf, startServiceProcess, type ServiceProcess } from '../lib/service-process';
import { round } from '../lib/stats';
import type { Figures, Scenario } from '../lib/types';

const RTT_MS = Number(process.env.WORKDESK_BENCH_RTT_MS ?? 50);
const CONCURRENCY = 6;
/**
 * `WORKDESK_BENCH_SYNC_USABLE_ONLY=1`: the initial sync is cancelled once every task is in the
 * cache (the messages, minutes more, are not fetched) and no refresh follows; only the usable
 * points are reported (folder tree, My Work, every task). About 45 s a run with the workspace's
 * generation, so side-by-side rounds of the first sync are cheap and anyone can repeat them:
 * `WORKDESK_BENCH_SYNC_USABLE_ONLY=1 npx tsx bench/side-by-side.ts OLD_TREE sync.ts --rounds 2
 * --other-scenario bench/scenarios/sync.ts`.
 */
const USABLE_ONLY = process.env.WORKDESK_BENCH_SYNC_USABLE_ONLY === '1';

/** What the lower bound counts beside the tasks: root projects and tags (read from the service). */
async function shape(service: ServiceProcess): Promise<{ roots: number; tags: number }> {
  const headers = { 'svc-api-token': service.token };
  const get = async (path: string) =>
    (await fetch(service.directUrl + path, { headers })).json() as Promise<unknown[]>;
  const projects = [...(await get('/projects')), ...(await get('/projects?archived=true'))] as {
    id: string;
    parentProjectId: string | null;
  }[];
  const ids = new Set(projects.map((p) => p.id));
  const roots = projects.filter((p) => !p.parentProjectId || !ids.has(p.parentProjectId)).length;
  return { roots, tags: (await get('/tags')).length };
}

/**
 * When what a user waits for on a new account is in the cache, in ms from `t0`, checked on each
 * cache-change event the sync emits (as a view would read again): the folder tree (any project),
 * My Work (both of its lists hold as many rows as the service's own per-user lists), every task
 * (as many as the workspace has). Reads go through the handlers, as the views call them.
 */
function watchUsable(
  engine: ReadEngine,
  expected: { actionRequired: number; assigned: number; tasks: number },
  t0: () => number,
  onEveryTask: () => void = () => {},
) {
  const at: { tree?: number; myWorkFirst?: number; myWork?: number; everyTask?: number } = {};
  const projects = engine.db.prepare('SELECT count(*) FROM projects').pluck();
  const tasks = engine.db.prepare('SELECT count(*) FROM tasks').pluck();
  const myWork = engine.handlers['tasks.myWork'] as HandlerMap['tasks.myWork'];
  const rows = async (kind: 'actionRequired' | 'assigned') =>
    (await myWork(channels['tasks.myWork'].input.parse({ kind, limit: 1 }))).total;
  let checking = false;
  /** An event came while a check ran: checked again once it ends (else its change goes unseen). */
  let again = false;
  const check = async (): Promise<void> => {
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    again = false;
    try {
      const now = performance.now() - t0();
      if (at.tree === undefined && (projects.get() as number) > 0) at.tree = now;
      if (at.myWork === undefined) {
        const [actionRequired, assigned] = [await rows('actionRequired'), await rows('assigned')];
        // The first rows a My Work view can show, and both of its lists whole.
        if (at.myWorkFirst === undefined && actionRequired + assigned > 0) at.myWorkFirst = now;
        if (actionRequired >= expected.actionRequired && assigned >= expected.assigned) at.myWork = now;
      }
      if (at.everyTask === undefined && (tasks.get() as number) >= expected.tasks) {
        at.everyTask = now;
        onEveryTask();
      }
    } finally {
      checking = false;
    }
    if (again) await check();
  };
  const off = engine.events.onAny((name) => {
    if (name === 'cache.onDidChange') void check();
  });
  return { at, off };
}

/** Samples the core process's memory while `fn` runs. */
async function withPeakMemory<T>(fn: () => Promise<T>): Promise<{ value: T; rssMb: number; heapMb: number }> {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await fn();
    sample();
    return { value, rssMb: round(rss / 2 ** 20, 1), heapMb: round(heap / 2 ** 20, 1) };
  } finally {
    clearInterval(timer);
  }
}

export const scenario: Scenario = {
  name: 'sync',
  description:
    `Initial sync and a 1% refresh through the fault proxy at ${RTT_MS} ms added round trip, concurrency ${CONCURRENCY}. ` +
    'Lower bound: org lists (5) + projects open/archived (2) + per root: tasks (subfolders, closed) and documents + events (1) + CRM (2) + per tag: tasks + per task: messages; time bound = requests / concurrency x RTT.',
  quick: true,
  async run(ctx): Promise<Figures> {
    const size = ctx.quick
      ? { projects: 20, tasks: 2000, messagesPerTask: 3, seed: 1 }
      : { projects: 200, tasks: 20_000, messagesPerTask: 3, seed: 1 };
    const service = await startServiceProcess(size, RTT_MS);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-sync-core-'));
    try {
      const headers = { 'svc-api-token': service.token };
      const countOf = async (path: string) =>
        ((await (await fetch(service.directUrl + path, { headers })).json()) as unknown[]).length;
      const mine = {
        actionRequired: await countOf(`/user/${encodeURIComponent(service.userId)}/action-required-tasks`),
        assigned: await countOf(`/user/${encodeURIComponent(service.userId)}/assigned-tasks`),
      };
      const ready = {
        ...(await shape(service)),
        tasks: service.taskIds.length,
        messages: service.messageCount,
      };
      ctx.log(
        `workspace: ${ready.tasks} tasks, ${ready.messages} messages, ${ready.roots} root(s), ${ready.tags} tags; ` +
          `My Work: ${mine.actionRequired} action required, ${mine.assigned} assigned`,
      );
      const engine = await createReadEngine({
        dataDir,
        connection: connectionOf(service, 120_000),
        autoStart: false,
        sync: { concurrency: CONCURRENCY },
      });
      // Organization lists (custom fields, users, statuses, task types, tags, project templates),
      // projects open and archived, events, CRM contacts and accounts, each tag's tasks, and per
      // root project its tasks and documents.
      const fixed = 6 + 2 + 1 + 2 + ready.tags + 2 * ready.roots;
      const bound = fixed + ready.tasks;
      const boundMs = (bound / CONCURRENCY) * RTT_MS;

      const cpu0 = process.cpuUsage();
      let t0 = 0;
      const usable = watchUsable(
        engine,
        { ...mine, tasks: ready.tasks },
        () => t0,
        () => (USABLE_ONLY ? engine.sync.cancel() : undefined),
      );
      const initial = await withPeakMemory(async () => {
        t0 = performance.now();
        const status = await engine.sync.now();
        if (status.lastError && !(USABLE_ONLY && status.lastError === 'cancelled'))
          throw new Error(`initial sync failed: ${status.lastError}`);
        return performance.now() - t0;
      });
      usable.off();
      // Each is reached by the end of a sync that succeeded (or, usable only, was cancelled once
      // every task was in); one that is not is a fault here.
      const ms = (v: number | undefined) => {
        if (v === undefined)
          throw new Error(`a usable point was never reached: ${JSON.stringify(usable.at)}`);
        return round(v, 0);
      };
      if (USABLE_ONLY) {
        await engine.close();
        ctx.log(
          `initial (usable only): folder tree ${ms(usable.at.tree)} ms, My Work's first rows ${ms(usable.at.myWorkFirst)} ms, My Work ${ms(usable.at.myWork)} ms, every task ${ms(usable.at.everyTask)} ms`,
        );
        ctx.table(
          ['initial sync, stopped once every task is in the cache', 'from the first request'],
          [
            ['usable: folder tree in the cache', `${ms(usable.at.tree)} ms`],
            ["My Work's first rows in the cache", `${ms(usable.at.myWorkFirst)} ms`],
            ["usable: My Work's rows in the cache (both lists)", `${ms(usable.at.myWork)} ms`],
            ['every task in the cache', `${ms(usable.at.everyTask)} ms`],
          ],
        );
        return {
          usableTreeMs: ms(usable.at.tree),
          usableMyWorkFirstRowsMs: ms(usable.at.myWorkFirst),
          usableMyWorkMs: ms(usable.at.myWork),
          everyTaskMs: ms(usable.at.everyTask),
        };
      }
      const initialRequests = engine.client.requestCount;
      // The bound for what this code's initial sync fetched (the requests it made), beside the
      // bound for the least any client needs (`bound`, below).
      const fetchedBoundMs = (initialRequests / CONCURRENCY) * RTT_MS;
      ctx.log(
        `initial: folder tree ${ms(usable.at.tree)} ms, My Work ${ms(usable.at.myWork)} ms, every task ${ms(usable.at.everyTask)} ms, complete ${round(initial.value, 0)} ms`,
      );
      const cpu = process.cpuUsage(cpu0);
      // CPU the core spent (client, validation, cache writes): the share of each request's cost
      // that is the engine's, as opposed to the service's and the proxy's.
      const coreCpuMsPerRequest = round((cpu.user + cpu.system) / 1000 / initialRequests, 3);
      const cached = engine.db
        .prepare('SELECT (SELECT count(*) FROM tasks) AS tasks, (SELECT count(*) FROM messages) AS messages')
        .get() as {
        tasks: number;
        messages: number;
      };
      ctx.log(
        `initial: ${initialRequests} requests in ${round(initial.value / 1000, 1)} s; cached ${cached.tasks} tasks, ${cached.messages} messages`,
      );

      const changed = { tasks: await service.changeTasks(0.01) };
      const refresh = await withPeakMemory(async () => {
        const t0 = performance.now();
        const status = await engine.sync.now();
        if (status.lastError) throw new Error(`refresh failed: ${status.lastError}`);
        return performance.now() - t0;
      });
      const refreshRequests = engine.client.requestCount - initialRequests;
      const refreshBound = fixed + changed.tasks;
      await engine.close();

      ctx.table(
        ['initial sync', 'from the first request'],
        [
          ['usable: folder tree in the cache', `${ms(usable.at.tree)} ms`],
          ["usable: My Work's rows in the cache (both lists)", `${ms(usable.at.myWork)} ms`],
          ['every task in the cache (messages still coming)', `${ms(usable.at.everyTask)} ms`],
          ['complete (every message too)', `${round(initial.value, 0)} ms`],
          [
            'complete ÷ round-trip bound for what it fetched',
            `${round(initial.value / fetchedBoundMs, 2)} (${initialRequests} requests, ${round(fetchedBoundMs / 1000, 1)} s)`,
          ],
        ],
      );
      ctx.table(
        ['run', 'requests', 'bound requests', 'wall s', 'bound s', 'time ratio'],
        [
          [
            'initial',
            initialRequests,
            bound,
            round(initial.value / 1000, 1),
            round(boundMs / 1000, 1),
            round(initial.value / boundMs, 2),
          ],
          [
            `refresh (${changed.tasks} tasks changed)`,
            refreshRequests,
            refreshBound,
            round(refresh.value / 1000, 2),
            round(((refreshBound / CONCURRENCY) * RTT_MS) / 1000, 2),
            round(refresh.value / ((refreshBound / CONCURRENCY) * RTT_MS), 2),
          ],
        ],
      );
      return {
        tasks: cached.tasks,
        messages: cached.messages,
        initialRequests,
        boundRequests: bound,
        requestRatio: round(initialRequests / bound, 3),
        initialSeconds: round(initial.value / 1000, 1),
        boundSeconds: round(boundMs / 1000, 1),
        timeRatio: round(initial.value / boundMs, 2),
        usableTreeMs: ms(usable.at.tree),
        usableMyWorkMs: ms(usable.at.myWork),
        everyTaskMs: ms(usable.at.everyTask),
        completeMs: round(initial.value, 0),
        fetchedBoundSeconds: round(fetchedBoundMs / 1000, 1),
        timeRatioFetched: round(initial.value / fetchedBoundMs, 2),
        refreshChangedTasks: changed.tasks,
        refreshRequests,
        refreshSeconds: round(refresh.value / 1000, 2),
        coreCpuMsPerRequest,
        peakRssMb: Math.max(initial.rssMb, refresh.rssMb),
        peakHeapMb: Math.max(initial.heapMb, refresh.heapMb),
      };
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
