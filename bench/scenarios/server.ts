import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatLocalTimestamp } from '../../src/shared/api/common';
import { buildService } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/open';
import { jsonArray, taskStore, type TaskRow } from '../../src/server/db/tasks';
import { taskDetailJson } from '../../src/server/routes/tasks';
import { SEED_IDS } from '../../src/server/seed/index';
import { generateWorkspace } from '../../src/server/seed/generate';
import { load, type LoadOptions } from '../lib/load';
import { repeat, round } from '../lib/stats';
import type { Scenario } from '../lib/types';

const TOKEN = 'bench-token';

/**
 * The bare baseline: node:http and better-sqlite3 on the same database file, running the same
 * prepared statements as the service, with no framework, authentication or validation.
 */
export function baseline(dbPath: string): Server {
  const db = openDatabase(dbPath);
  const tasks = taskStore(db);
  const send = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
  const create = db.transaction((body: { projectId: string; title: string; fromUserId: string }) => {
    const now = formatLocalTimestamp(new Date());
    const row: TaskRow = {
      id: `b${Math.random().toString(36).slice(2)}`,
      short_id: tasks.nextShortId(),
      project_id: body.projectId,
      parent_task_id: null,
      name: body.title,
      created_by_user_id: body.fromUserId,
      assigned_to_user_id: null,
      action_required_user_id: null,
      status_id: SEED_IDS.statuses.new,
      task_type_id: SEED_IDS.taskTypes.task,
      priority: 1,
      start_date: null,
      end_date: null,
      deadline: null,
      schedule_date: null,
      schedule_status: 0,
      estimate: null,
      progress: null,
      story_points: null,
      todo_list: null,
      crm_account_id: null,
      custom_fields_data: '{}',
      form_submission: null,
      users: JSON.stringify([body.fromUserId]),
      moment_created: now,
      moment_closed: null,
      recent_activity_moment: now,
    };
    tasks.insert(row);
    return { id: row.id, momentCreated: now.replace('T', ' '), shortId: row.short_id };
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/');
    if (req.method === 'GET' && parts[2] === 'task') {
      const row = tasks.row(parts[3] ?? '');
      return row ? send(res, 200, taskDetailJson(tasks, row)) : send(res, 404, '{}');
    }
    if (req.method === 'GET' && parts[2] === 'project') {
      return send(
        res,
        200,
        jsonArray(tasks.byProject(parts[3] ?? '', url.searchParams.get('closed') === 'true', false)),
      );
    }
    if (req.method === 'POST' && parts[2] === 'tasks') {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => send(res, 200, JSON.stringify(create(JSON.parse(text) as never))));
      return;
    }
    send(res, 404, '{}');
  });
  server.on('close', () => db.close());
  return server;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

export const scenario: Scenario = {
  name: 'server',
  description:
    'Requests per second and p99 latency of the service (Fastify) beside a bare node:http + better-sqlite3 handler running the same statements on the same file, in the same run; the load generator runs in a worker thread over loopback keep-alive connections. ratio = bare req/s ÷ service req/s, the median of the per-round ratios (aim ≤ 1.5).',
  quick: true,
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'wms-bench-'));
    const dbPath = join(dir, 'service.sqlite');
    const service = buildService({ dbPath, filesDir: join(dir, 'files'), tokens: [TOKEN], seed: 'empty' });
    // Two projects of 1,000 tasks each: the list reads one, the creates write into the other.
    const ws = generateWorkspace(service.db, { projects: 3, tasks: 2000, messagesPerTask: 1, seed: 5 });
    const [listProject, writeProject] = ws.projectIds as [string, string];
    const taskId = ws.taskIds[0]!;
    const serviceUrl = `${await service.app.listen({ port: 0, host: '127.0.0.1' })}`;
    const bare = baseline(dbPath);
    const bareUrl = await listen(bare);
    // Many short paired rounds rather than a few long ones: on a shared machine the load drifts,
    // and a ratio taken from two back-to-back runs is steadier than one taken across minutes.
    const requests = ctx.quick ? 400 : 1500;
    const repeats = ctx.quick ? 1 : 7;
    const cases: { label: string; options: (base: string) => LoadOptions }[] = [
      {
        label: 'GET /task/{id}',
        options: (base) => ({
          url: `${base}/2.0/task/${taskId}`,
          method: 'GET',
          concurrency: 8,
          maxRequests: requests,
          maxMs: 15_000,
        }),
      },
      {
        label: 'GET /project/{id}/tasks (1,000 tasks)',
        options: (base) => ({
          url: `${base}/2.0/project/${listProject}/tasks?closed=true`,
          method: 'GET',
          concurrency: 4,
          maxRequests: Math.ceil(requests / 8),
          maxMs: 15_000,
        }),
      },
      {
        label: 'POST /tasks',
        options: (base) => ({
          url: `${base}/2.0/tasks`,
          method: 'POST',
          body: JSON.stringify({
            projectId: writeProject,
            title: 'Bench task',
            fromUserId: SEED_IDS.users.admin,
          }),
          concurrency: 8,
          maxRequests: requests,
          maxMs: 15_000,
        }),
      },
    ];
    const figures: Record<string, number> = {};
    const rows: (string | number)[][] = [];
    try {
      for (const c of cases) {
        ctx.log(c.label);
        const headers = { 'svc-api-token': TOKEN };
        // Warm both sides up (JIT, statement caches, page cache) before anything is measured.
        for (const base of [serviceUrl, bareUrl]) {
          const warm = c.options(base);
          await load({ ...warm, headers, maxRequests: Math.ceil(warm.maxRequests / 5) });
        }
        const result = await repeat(repeats, async (run) => {
          // Alternate which server goes first so warm-up and drift do not favour one side.
          const pair = run % 2 === 0 ? [serviceUrl, bareUrl] : [bareUrl, serviceUrl];
          const out: Record<string, number> = {};
          for (const base of pair) {
            const r = await load({ ...c.options(base), headers });
            if (r.errors > 0)
              throw new Error(`${c.label} on ${base}: ${r.errors} errors ${JSON.stringify(r.statuses)}`);
            const side = base === serviceUrl ? 'service' : 'bare';
            out[`${side}Rps`] = r.rps;
            out[`${side}P99`] = r.p99Ms;
          }
          out['ratio'] = out['bareRps']! / out['serviceRps']!;
          return out as Record<'serviceRps' | 'serviceP99' | 'bareRps' | 'bareP99' | 'ratio', number>;
        });
        const ratio = result.ratio.median;
        rows.push([
          c.label,
          `${round(result.serviceRps.median, 0)} (${round(result.serviceRps.min, 0)}–${round(result.serviceRps.max, 0)})`,
          round(result.serviceP99.median, 2),
          `${round(result.bareRps.median, 0)} (${round(result.bareRps.min, 0)}–${round(result.bareRps.max, 0)})`,
          round(result.bareP99.median, 2),
          `${round(ratio, 2)} (${round(result.ratio.min, 2)}–${round(result.ratio.max, 2)})`,
        ]);
        const key = c.label.split(' ').slice(0, 2).join(' ');
        figures[`${key} service req/s`] = round(result.serviceRps.median, 0);
        figures[`${key} service p99 ms`] = round(result.serviceP99.median, 2);
        figures[`${key} bare req/s`] = round(result.bareRps.median, 0);
        figures[`${key} bare p99 ms`] = round(result.bareP99.median, 2);
        figures[`${key} ratio`] = round(ratio, 2);
      }
      ctx.table(
        [
          'endpoint',
          'service req/s (min–max)',
          'service p99 ms',
          'bare req/s (min–max)',
          'bare p99 ms',
          'ratio (min–max)',
        ],
        rows,
      );
      return figures;
    } finally {
      await new Promise<void>((resolve) => bare.close(() => resolve()));
      await service.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
