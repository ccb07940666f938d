// Long service fuzzing (`--fuzz-minutes N`): where the service's property test throws single
// requests at a fresh database through app.inject, this drives the real HTTP listener with a
// stateful random stream for minutes: ids the service hands out go back into later requests,
// bodies are valid templates with one field mutated or dropped, and paths and headers are
// mangled now and then. Checked on every answer: never a 5xx; every 4xx carries the error body;
// a refused request changes no row (the connection's SQLite change counter stays put); the
// service still answers its health read afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildService } from '../../src/server/app';
import { prng } from '../../src/server/seed/generate';
import { SEED_IDS } from '../../src/server/seed/index';

export interface FuzzOptions {
  minutes: number;
  seed: number;
  /** Stop after this many requests (tests); default unbounded within the time. */
  maxRequests?: number;
}

export interface FuzzResult {
  requests: number;
  byStatus: Record<string, number>;
  problems: string[];
  summary: string;
}

const u = SEED_IDS.users;
type Pools = Record<'task' | 'project' | 'contact' | 'account' | 'event' | 'dependency', string[]>;

interface Template {
  method: string;
  path: string;
  body?: (p: Pools, pick: <T>(l: readonly T[]) => T) => Record<string, unknown>;
  /** Which pool the id of a successful answer goes to. */
  yields?: keyof Pools;
}

const TEMPLATES: Template[] = [
  { method: 'GET', path: '/project/:project/tasks' },
  { method: 'GET', path: '/task/:task' },
  { method: 'GET', path: '/task/:task/messages' },
  {
    method: 'POST',
    path: '/tasks',
    yields: 'task',
    body: (p, pick) => ({
      projectId: pick(p.project),
      title: `fz-${pick(['a', 'b', 'c'])}`,
      fromUserId: pick([u.admin, u.bob, u.guest]),
      ...(p.task.length && Math.random() < 0.3 ? { parentTaskId: pick(p.task) } : {}),
    }),
  },
  { method: 'POST', path: '/task/:task/comment', body: () => ({ userId: u.admin, message: 'm' }) },
  {
    method: 'POST',
    path: '/task/:task/reply',
    body: () => ({ userId: u.bob, actionRequiredUsedId: u.cleo, message: 'r' }),
  },
  { method: 'POST', path: '/task/:task/tag/:tag', body: () => ({ userId: u.admin }) },
  { method: 'DELETE', path: '/task/:task/tag/:tag', body: () => ({ userId: u.admin }) },
  {
    method: 'PUT',
    path: '/task/:task/status',
    body: (_p, pick) => ({ userId: u.admin, statusId: pick(Object.values(SEED_IDS.statuses)) }),
  },
  {
    method: 'PUT',
    path: '/task/:task/update',
    body: (_p, pick) => ({ userId: u.admin, title: 'x', priority: pick([1, 5, 10, 50, 100]) }),
  },
  {
    method: 'PUT',
    path: '/task/:task/custom-fields',
    body: () => ({ customFields: [{ id: SEED_IDS.customFields.number, value: 3 }] }),
  },
  { method: 'DELETE', path: '/task/:task' },
  {
    method: 'POST',
    path: '/projects/new-project',
    yields: 'project',
    body: () => ({ createdByUserId: u.admin, projectTemplateId: SEED_IDS.templates.project, name: 'p' }),
  },
  { method: 'POST', path: '/project/:project/user/:user', body: () => ({ userId: u.admin, access: 2 }) },
  { method: 'DELETE', path: '/project/:project/user/:user', body: () => ({ userId: u.admin }) },
  {
    method: 'POST',
    path: '/crm/contacts',
    yields: 'contact',
    body: () => ({ createdByUserId: u.admin, firstName: 'a' }),
  },
  { method: 'PUT', path: '/crm/contact/:contact', body: () => ({ updatedByUserId: u.admin, lastName: 'b' }) },
  { method: 'DELETE', path: '/crm/contact/:contact' },
  {
    method: 'POST',
    path: '/crm/accounts',
    yields: 'account',
    body: () => ({ createdByUserId: u.admin, name: 'a' }),
  },
  { method: 'DELETE', path: '/crm/account/:account' },
  {
    method: 'POST',
    path: '/dependencies',
    yields: 'dependency',
    body: (p, pick) => ({ type: 5, createdByUserId: u.admin, task1Id: pick(p.task), task2Id: pick(p.task) }),
  },
  { method: 'DELETE', path: '/dependency/:dependency' },
  {
    method: 'POST',
    path: '/events',
    yields: 'event',
    body: () => ({
      createdByUserId: u.admin,
      eventType: 'company-event',
      name: 'e',
      startDate: '2026-01-01',
      endDate: '2026-01-02',
    }),
  },
  { method: 'DELETE', path: '/event/:event' },
];

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function fuzzService(options: FuzzOptions): Promise<FuzzResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wms-fuzz-'));
  const service = buildService({
    dbPath: join(dir, 'db.sqlite'),
    filesDir: join(dir, 'files'),
    tokens: ['fuzz'],
    seed: 'demo',
  });
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `${address}/2.0`;
  const random = prng(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const json = fc.sample(fc.jsonValue(), { numRuns: 500, seed: options.seed });
  const changes = service.db.prepare<[], { n: number }>('SELECT total_changes() AS n');
  const pools: Pools = {
    task: (await get(`/project/${SEED_IDS.workspace}/tasks`)).map((t) => t.id),
    project: [SEED_IDS.workspace, ...(await get('/projects')).map((p) => p.id)],
    contact: (await get('/crm/contacts')).map((c) => c.id),
    account: (await get('/crm/accounts')).map((c) => c.id),
    event: [],
    dependency: [],
  };
  async function get(path: string): Promise<{ id: string }[]> {
    const res = await fetch(base + path, { headers: { 'svc-api-token': 'fuzz' } });
    return (await res.json()) as { id: string }[];
  }

  const result: FuzzResult = { requests: 0, byStatus: {}, problems: [], summary: '' };
  const until = Date.now() + options.minutes * 60_000;
  try {
    while (Date.now() < until && result.requests < (options.maxRequests ?? Infinity)) {
      const t = pick(TEMPLATES);
      const mangle = random();
      const id = (pool: keyof Pools) => (pools[pool].length && random() < 0.9 ? pick(pools[pool]) : 'nope');
      let path = t.path
        .replace(':task', () => id('task'))
        .replace(':project', () => id('project'))
        .replace(':contact', () => id('contact'))
        .replace(':account', () => id('account'))
        .replace(':event', () => id('event'))
        .replace(':dependency', () => id('dependency'))
        .replace(':tag', () => pick(Object.values(SEED_IDS.tags)))
        .replace(':user', () => pick(Object.values(SEED_IDS.users)));
      if (mangle < 0.05) path = path.replace(/\/[^/]*$/, `/${encodeURIComponent(String(pick(json)))}`);
      let body: string | undefined;
      if (t.body) {
        const template = t.body(pools, pick);
        if (mangle < 0.15) body = JSON.stringify(pick(json));
        else if (mangle < 0.55) {
          const key = pick(Object.keys(template));
          if (random() < 0.5) delete template[key];
          else template[key] = pick(json);
          body = JSON.stringify(template);
        } else body = JSON.stringify(template);
      }
      const headers: Record<string, string> = { 'svc-api-token': mangle > 0.98 ? 'wrong' : 'fuzz' };
      if (body !== undefined) headers['content-type'] = mangle > 0.97 ? 'text/plain' : 'application/json';
      const before = changes.get()!.n;
      const label = `${t.method} ${path} ${body?.slice(0, 200) ?? ''}`;
      let status: number;
      let text: string;
      try {
        const res = await fetch(base + path, {
          method: t.method,
          headers,
          ...(body !== undefined ? { body } : {}),
        });
        status = res.status;
        text = await res.text();
      } catch (err) {
        result.problems.push(`${label}: no answer (${err instanceof Error ? err.message : String(err)})`);
        break;
      }
      result.requests++;
      result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
      if (status >= 500) result.problems.push(`${label}: ${status} ${text.slice(0, 200)}`);
      if (status >= 400 && status < 500) {
        if (!/errorMessage/.test(text)) result.problems.push(`${label}: ${status} without an error body`);
        if (changes.get()!.n !== before)
          result.problems.push(`${label}: refused with ${status} but changed rows`);
      }
      if (status < 300 && t.yields) {
        // Some creates answer the new item, others (CRM) an empty body: then list to learn it.
        const parsed = parseJson(text) as { id?: unknown } | undefined;
        if (typeof parsed?.id === 'string') pools[t.yields].push(parsed.id);
        else if (t.yields === 'contact') pools.contact = (await get('/crm/contacts')).map((c) => c.id);
        else if (t.yields === 'account') pools.account = (await get('/crm/accounts')).map((c) => c.id);
      }
      if (result.requests % 500 === 0) {
        const health = await fetch(`${base}/users`, { headers: { 'svc-api-token': 'fuzz' } });
        if (health.status !== 200) result.problems.push(`health read answered ${health.status}`);
      }
    }
  } finally {
    await service.app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const statuses = Object.entries(result.byStatus)
    .map(([s, n]) => `${s}=${n}`)
    .join(' ');
  result.summary = `FUZZ requests=${result.requests} (${statuses}) problems=${result.problems.length} seed=${options.seed}`;
  return result;
}
