// Initial sync and 1% refresh of a generated workspace (200 projects, 20,000 tasks, 60,000
// messages) through the fault proxy at 50 ms added round trip, beside the lower bound: the
// requests any client of this API must make, divided by the concurrency, times the RTT.
// The service and the proxy run in a child process, so the memory figures are the core's alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadEngine } from '../../src/main/core/engine';
import { connectionOf, startServiceProcess, type ServiceProcess } from '../lib/service-process';
import { round } from '../lib/stats';
import type { Scenario } from '../lib/types';

const RTT_MS = Number(process.env.WORKDESK_BENCH_RTT_MS ?? 50);
const CONCURRENCY = 6;

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
  async run(ctx) {
    const size = ctx.quick
      ? { projects: 20, tasks: 2000, messagesPerTask: 3, seed: 1 }
      : { projects: 200, tasks: 20_000, messagesPerTask: 3, seed: 1 };
    const service = await startServiceProcess(size, RTT_MS);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-sync-core-'));
    try {
      const ready = {
        ...(await shape(service)),
        tasks: service.taskIds.length,
        messages: service.messageCount,
      };
      ctx.log(
        `workspace: ${ready.tasks} tasks, ${ready.messages} messages, ${ready.roots} root(s), ${ready.tags} tags`,
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
      const initial = await withPeakMemory(async () => {
        const t0 = performance.now();
        const status = await engine.sync.now();
        if (status.lastError) throw new Error(`initial sync failed: ${status.lastError}`);
        return performance.now() - t0;
      });
      const initialRequests = engine.client.requestCount;
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
