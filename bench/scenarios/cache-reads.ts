// Cache reads a view makes, through the dispatch (argument validation included), beside the raw
// SQLite query of the same rows: the first window of 200 and the whole 10,000-task list of one
// project, My Work, and a search.
import { createServiceClient } from '../../src/main/core/api/client';
import { createCache } from '../../src/main/core/cache/cache';
import { openCacheDb } from '../../src/main/core/cache/db';
import { aMessage, aProject, aTask } from '../../src/main/core/cache/fixtures';
import { flattenTask, ROW_SELECT } from '../../src/main/core/cache/repos/tasks';
import { searchSql, toFtsQuery } from '../../src/main/core/cache/repos/search';
import { SearchKind } from '../../src/shared/ipc/search';
import { createDispatch } from '../../src/main/core/dispatch';
import { readHandlers } from '../../src/main/core/handlers/read';
import { noPending } from '../../src/main/core/sync/pending';
import { createSync } from '../../src/main/core/sync/sync';
import { percentile, round, sorted } from '../lib/stats';
import type { Scenario } from '../lib/types';

const WORDS = [
  'budget',
  'review',
  'invoice',
  'login',
  'export',
  'search',
  'dashboard',
  'release',
  'audit',
  'billing',
];

function timeIt(times: number, fn: () => unknown): { p50: number; p95: number } {
  for (let i = 0; i < Math.min(20, times); i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  const s = sorted(samples);
  return { p50: round(percentile(s, 50), 3), p95: round(percentile(s, 95), 3) };
}

async function timeAsync(times: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(20, times); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  const s = sorted(samples);
  return { p50: round(percentile(s, 50), 3), p95: round(percentile(s, 95), 3) };
}

export const scenario: Scenario = {
  name: 'cache-reads',
  description:
    'Read handlers through createDispatch on an in-memory cache of 10,000 open tasks in one project (plus 10,000 elsewhere and 30,000 messages), beside the raw better-sqlite3 query of the same rows (ms).',
  quick: true,
  async run(ctx) {
    const times = ctx.quick ? 50 : 200;
    const cache = createCache(openCacheDb(':memory:'));
    const me = 'u-me';
    cache.transaction(() => {
      cache.projects.upsertMany([aProject({ id: 'big' }), aProject({ id: 'other' })]);
      for (let i = 0; i < 20_000; i++) {
        const pad = String(i).padStart(5, '0');
        const t = aTask({
          id: `t${pad}`,
          projectId: i < 10_000 ? 'big' : 'other',
          name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} item ${i}`,
          priority: 1 + (i % 10),
          actionRequiredUserId: i % 5 === 0 ? me : 'u-other',
          assignedToUserId: i % 3 === 0 ? me : null,
          momentCreated: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00.${pad}0`,
        });
        cache.tasks.upsertMany([flattenTask(t)]);
        if (i % 2 === 0) {
          cache.messages.replaceForTask(
            t.id,
            [0, 1, 2].map((k) =>
              aMessage({
                id: `${t.id}-m${k}`,
                message: `note ${k} about the ${WORDS[(i + k) % WORDS.length]} work`,
              }),
            ),
          );
        }
      }
    });
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9/2.0', token: 'unused' });
    const sync = createSync({
      cache,
      client,
      pending: noPending,
      userId: me,
      clock: () => new Date(),
      log: () => {},
      emitChange: () => {},
    });
    const dispatch = createDispatch(readHandlers({ cache, sync, userId: me, log: () => {} }));
    const call = async (channel: string, arg: unknown) => {
      const r = await dispatch(channel, arg);
      if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
      return r.value;
    };

    // The same columns and order as the handler, without dispatch, validation or the count.
    const rawCols = ROW_SELECT;
    const rawWindow = cache.db.prepare(
      `SELECT ${rawCols} FROM tasks WHERE project_id = ? AND moment_closed IS NULL ORDER BY moment_created DESC, rowid DESC LIMIT 200`,
    );
    const rawAll = cache.db.prepare(
      `SELECT ${rawCols} FROM tasks WHERE project_id = ? AND moment_closed IS NULL ORDER BY moment_created DESC, id`,
    );
    const rawMyWork = cache.db.prepare(
      `SELECT ${rawCols} FROM tasks WHERE action_required_user_id = ? AND moment_closed IS NULL ORDER BY moment_created DESC, rowid DESC LIMIT 200`,
    );
    const rawSearch = cache.db.prepare(searchSql(SearchKind.options));
    const searchArg = { q: toFtsQuery('budget review'), limit: 50 };

    const rows: { read: string; handler: { p50: number; p95: number }; raw: { p50: number; p95: number } }[] =
      [
        {
          read: 'project list, first window of 200',
          handler: await timeAsync(times, () => call('tasks.list', { projectId: 'big' })),
          raw: timeIt(times, () => rawWindow.all('big')),
        },
        {
          read: 'project list, whole (10,000 rows)',
          handler: await timeAsync(Math.ceil(times / 4), () =>
            call('tasks.list', { projectId: 'big', limit: 10_000 }),
          ),
          raw: timeIt(Math.ceil(times / 4), () => rawAll.all('big')),
        },
        {
          read: 'My Work (action required), first window of 200',
          handler: await timeAsync(times, () => call('tasks.myWork', { kind: 'actionRequired' })),
          raw: timeIt(times, () => rawMyWork.all(me)),
        },
        {
          read: 'search "budget review", 50 hits over tasks, messages, documents, CRM',
          handler: await timeAsync(times, () => call('search.query', { text: 'budget review', limit: 50 })),
          raw: timeIt(times, () => rawSearch.all(searchArg)),
        },
      ];
    const whole = rows[1]!;
    const total = ((await call('tasks.list', { projectId: 'big', limit: 1 })) as { total: number }).total;
    ctx.table(
      ['read', 'handler p50', 'handler p95', 'raw p50', 'raw p95', 'p50 ratio'],
      rows.map((r) => [
        r.read,
        r.handler.p50,
        r.handler.p95,
        r.raw.p50,
        r.raw.p95,
        round(r.handler.p50 / r.raw.p50, 2),
      ]),
    );
    await sync.stop();
    cache.db.close();
    return {
      projectTasks: total,
      firstWindowP50Ms: rows[0]!.handler.p50,
      firstWindowP95Ms: rows[0]!.handler.p95,
      wholeListP50Ms: whole.handler.p50,
      wholeListRawP50Ms: whole.raw.p50,
      wholeListRatio: round(whole.handler.p50 / whole.raw.p50, 2),
      myWorkP95Ms: rows[2]!.handler.p95,
      searchP95Ms: rows[3]!.handler.p95,
    };
  },
};
