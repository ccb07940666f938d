// Time to show a view, Workdesk (read from its cache) beside a "no cache" client that fetches
// every view from the service when it is opened, as a browser client does, at 50 ms added RTT
// through the fault proxy. Both are timed from "view opened" to "the view's data in hand,
// parsed": the rendering after that is the same for both and is left out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadEngine } from '../../src/main/core/engine';
import { createDispatch } from '../../src/main/core/dispatch';
import { round, spread, type Spread } from '../lib/stats';
import { connectionOf, startServiceProcess } from '../lib/service-process';
import type { Scenario } from '../lib/types';

const RTT_MS = 50;
const SIZE = { projects: 20, tasks: 2000, messagesPerTask: 3, seed: 21 };

export const scenario: Scenario = {
  name: 'no-cache',
  description:
    `A workspace of ${SIZE.tasks.toLocaleString('en-US')} tasks (${SIZE.projects} projects, ${SIZE.messagesPerTask} messages per task, seed ${SIZE.seed}) behind the fault proxy at ${RTT_MS} ms added RTT. ` +
    'No cache: My Work = GET /user/{id}/action-required-tasks; project list = GET /project/{id}/tasks; task = GET /task/{id} and GET /task/{id}/messages in parallel; each response parsed. ' +
    'Workdesk: the same views through the dispatch from its cache after one initial sync (not timed); a task opened for the first time since the sync fetches its detail (rule: opened tasks are refreshed), a second open is served from the cache. ' +
    'Rounds alternate which client goes first; the ratio is taken per round (no cache ÷ Workdesk).',
  quick: true,
  async run(ctx) {
    const rounds = ctx.quick ? 5 : 15;
    const service = await startServiceProcess(SIZE, RTT_MS);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-no-cache-'));
    const headers = { 'svc-api-token': service.token };
    const get = async (path: string): Promise<unknown> => {
      const res = await fetch(service.baseUrl + path, { headers });
      if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
      return res.json();
    };
    try {
      const engine = await createReadEngine({
        dataDir,
        connection: connectionOf(service, 60_000),
        autoStart: false,
      });
      const t0 = performance.now();
      const status = await engine.sync.now();
      if (status.lastError) throw new Error(`initial sync failed: ${status.lastError}`);
      ctx.log(`initial sync: ${round((performance.now() - t0) / 1000, 1)} s (not part of the figures)`);
      const dispatch = createDispatch(engine.handlers);
      const call = async (channel: string, arg: unknown): Promise<unknown> => {
        const r = await dispatch(channel, arg);
        if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
        return r.value;
      };
      // The project the list opens: the first non-folder project (about 1/18 of the tasks).
      const projectId = service.projectIds[0]!;
      const me = service.userId;
      // A different task each round, so each Workdesk first open is a first open.
      const taskFor = (i: number) => service.taskIds[(i * 97 + 13) % service.taskIds.length]!;
      const views: {
        view: string;
        noCache: (i: number) => Promise<unknown>;
        workdesk: (i: number) => Promise<unknown>;
      }[] = [
        {
          view: 'My Work (action required)',
          noCache: () => get(`/user/${me}/action-required-tasks`),
          workdesk: () => call('tasks.myWork', { kind: 'actionRequired' }),
        },
        {
          view: 'project list',
          noCache: () => get(`/project/${projectId}/tasks`),
          workdesk: () => call('tasks.list', { projectId }),
        },
        {
          view: 'task with messages, first open',
          noCache: (i) => Promise.all([get(`/task/${taskFor(i)}`), get(`/task/${taskFor(i)}/messages`)]),
          workdesk: (i) => call('tasks.detail', { taskId: taskFor(i) }),
        },
        {
          view: 'task with messages, opened again',
          noCache: (i) => Promise.all([get(`/task/${taskFor(i)}`), get(`/task/${taskFor(i)}/messages`)]),
          workdesk: (i) => call('tasks.detail', { taskId: taskFor(i) }),
        },
      ];
      const time = async (fn: () => Promise<unknown>): Promise<number> => {
        const t = performance.now();
        await fn();
        return performance.now() - t;
      };
      // Warm-up (connections, JIT, statement caches) on tasks the rounds do not use.
      for (const v of views) {
        await v.noCache(rounds + 1);
        await v.workdesk(rounds + 1);
      }
      const samples = views.map(() => ({
        noCache: [] as number[],
        workdesk: [] as number[],
        ratio: [] as number[],
      }));
      for (let i = 0; i < rounds; i++) {
        for (const [k, v] of views.entries()) {
          let noCache: number;
          let workdesk: number;
          if (i % 2 === 0) {
            noCache = await time(() => v.noCache(i));
            workdesk = await time(() => v.workdesk(i));
          } else {
            workdesk = await time(() => v.workdesk(i));
            noCache = await time(() => v.noCache(i));
          }
          samples[k]!.noCache.push(noCache);
          samples[k]!.workdesk.push(workdesk);
          samples[k]!.ratio.push(noCache / workdesk);
        }
      }
      await engine.close();
      const f = (s: Spread, d = 1) => `${round(s.median, d)} (${round(s.min, d)}–${round(s.max, d)})`;
      const figures: Record<string, number> = { rounds, rttMs: RTT_MS };
      const rows: (string | number)[][] = [];
      for (const [k, v] of views.entries()) {
        const s = samples[k]!;
        const workdesk = spread(s.workdesk);
        const noCache = spread(s.noCache);
        const ratio = spread(s.ratio);
        rows.push([v.view, f(workdesk, 2), f(noCache), f(ratio)]);
        figures[`${v.view} workdesk ms`] = round(workdesk.median, 2);
        figures[`${v.view} no cache ms`] = round(noCache.median, 1);
        figures[`${v.view} ratio`] = round(ratio.median, 1);
        const r2 = (x: Spread) => ({
          median: round(x.median, 2),
          min: round(x.min, 2),
          max: round(x.max, 2),
        });
        ctx.headline({
          figure: `time to show ${v.view}, ${RTT_MS} ms RTT (ratio = no cache ÷ Workdesk)`,
          unit: 'ms',
          value: r2(workdesk),
          runs: rounds,
          baseline: { name: 'no cache client', value: r2(noCache) },
          ratio: r2(ratio),
        });
      }
      ctx.table(
        ['view', 'Workdesk ms (min–max)', 'no cache ms (min–max)', 'ratio no cache ÷ Workdesk'],
        rows,
      );
      return figures;
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
