// Initial sync and 1% refresh of a generated workspace (200 projects, 20,000 tasks, 60,000
// messages) through the fault proxy at 50 ms added round trip, beside the lower bound: the
// requests any client of this API must make, divided by the concurrency, times the RTT.
// The service and the proxy run in a child process, so the memory figures are the core's alone.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../src/main/core/engine';
import { round } from '../lib/stats';
import type { Scenario } from '../lib/types';

const CHILD_ENV = 'WORKDESK_SYNC_BENCH_SERVICE';
const RTT_MS = Number(process.env.WORKDESK_BENCH_RTT_MS ?? 50);
const CONCURRENCY = 6;

interface Size {
  projects: number;
  tasks: number;
  messagesPerTask: number;
}

type ToChild = { type: 'change'; fraction: number };
type FromChild =
  | {
      type: 'ready';
      baseUrl: string;
      token: string;
      userId: string;
      roots: number;
      tags: number;
      tasks: number;
      messages: number;
    }
  | { type: 'changed'; tasks: number }
  | { type: 'stats'; received: number };

/** Child side: the service with the generated workspace, behind the proxy. */
async function serveChild(size: Size): Promise<void> {
  const { buildService } = await import('../../src/server/app');
  const { generateWorkspace } = await import('../../src/server/seed/generate');
  const { startFaultProxy } = await import('../../tests/support/fault-proxy');
  const { SEED_IDS } = await import('../../src/server/seed/index');
  const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
  const token = 'bench-token';
  const service = buildService({
    dbPath: join(dir, 'service.sqlite'),
    filesDir: join(dir, 'files'),
    tokens: [token],
    seed: 'empty',
  });
  const ws = generateWorkspace(service.db, { ...size, seed: 1 });
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const direct = `${address}/2.0`;
  const proxy = await startFaultProxy({ target: direct, faults: { delayMs: RTT_MS } });
  const headers = { 'svc-api-token': token, 'content-type': 'application/json' };
  const get = async (path: string) => (await fetch(direct + path, { headers })).json() as Promise<unknown[]>;
  const projects = [...(await get('/projects')), ...(await get('/projects?archived=true'))] as {
    id: string;
    parentProjectId: string | null;
  }[];
  const ids = new Set(projects.map((p) => p.id));
  const roots = projects.filter((p) => !p.parentProjectId || !ids.has(p.parentProjectId)).length;
  const tags = (await get('/tags')).length;
  const send = (m: FromChild) => process.send?.(m);
  send({
    type: 'ready',
    baseUrl: proxy.baseUrl,
    token,
    userId: SEED_IDS.users.admin,
    roots,
    tags,
    tasks: ws.taskIds.length,
    messages: ws.messageCount,
  });
  process.on('message', (m: ToChild | { type: 'stats' } | { type: 'stop' }) => {
    void (async () => {
      if (m.type === 'change') {
        // Comments move recentActivityMoment, as a colleague's work on the service would.
        const step = Math.round(1 / m.fraction);
        const chosen = ws.taskIds.filter((_, i) => i % step === 0);
        for (const id of chosen) {
          await fetch(`${direct}/task/${id}/comment`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ userId: SEED_IDS.users.admin, message: 'benchmark change' }),
          });
        }
        send({ type: 'changed', tasks: chosen.length });
      } else if (m.type === 'stats') {
        send({ type: 'stats', received: proxy.stats().received });
      } else {
        await proxy.close();
        await service.app.close();
        rmSync(dir, { recursive: true, force: true });
        process.exit(0);
      }
    })();
  });
}

function startChild(size: Size): {
  child: ChildProcess;
  next: <T extends FromChild['type']>(type: T) => Promise<Extract<FromChild, { type: T }>>;
} {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(size) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromChild['type']>(type: T) =>
    new Promise<Extract<FromChild, { type: T }>>((resolve, reject) => {
      const onMessage = (m: FromChild) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m as Extract<FromChild, { type: T }>);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`service process exited with ${code}`)));
    });
  return { child, next };
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
    const size: Size = ctx.quick
      ? { projects: 20, tasks: 2000, messagesPerTask: 3 }
      : { projects: 200, tasks: 20_000, messagesPerTask: 3 };
    const { child, next } = startChild(size);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-sync-core-'));
    try {
      const ready = await next('ready');
      ctx.log(
        `workspace: ${ready.tasks} tasks, ${ready.messages} messages, ${ready.roots} root(s), ${ready.tags} tags`,
      );
      const engine = await createEngine({
        dataDir,
        connection: { baseUrl: ready.baseUrl, token: ready.token, userId: ready.userId, timeoutMs: 120_000 },
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

      child.send({ type: 'change', fraction: 0.01 } satisfies ToChild);
      const changed = await next('changed');
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
      child.send({ type: 'stop' });
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

const childSize = process.env[CHILD_ENV];
if (childSize) void serveChild(JSON.parse(childSize) as Size);
