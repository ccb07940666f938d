// Cache reads a view makes, through the dispatch (argument validation included), beside the raw
// SQLite query of the same rows, on a 20,000-task cache: the first window of 200 of one project's
// 10,000-task list (what the list's first screen reads; the aim is p95 < 5 ms), the whole
// list, My Work, Home's late and due-soon groups, and a search.
import { createServiceClient } from '../../src/main/core/api/client';
import { openCacheDb } from '../../src/main/core/cache/db';
import { aMessage, aProject, aTask } from '../../src/main/core/cache/fixtures';
import { DUE_SQL, flattenTask, ROW_SELECT } from '../../src/main/core/cache/repos/tasks';
import { searchSql, toFtsQuery } from '../../src/main/core/cache/repos/search';
import { SearchKind } from '../../src/shared/ipc/search';
import { createDispatch } from '../../src/main/core/dispatch';
import { accountCache, readHandlers } from '../../src/main/core/handlers/index';
import { noPending } from '../../src/main/core/sync/pending';
import { createSync } from '../../src/main/core/sync/sync';
import { PULL_PARTS } from '../../src/main/core/handlers/index';
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

/** The days Home asks for: a Saturday, the week's Sunday the last. */
const HOME_DAYS = { today: '2026-11-28', through: '2026-11-29' };

interface Pair {
  rounds: number;
  handler: { p50: number; p95: number };
  raw: { p50: number; p95: number };
  /** Median over rounds of handler time / raw time, each round timing both back to back. */
  ratio: number;
}

/**
 * Times the handler and the raw query in alternating rounds, so load from other processes on a
 * shared machine hits both alike; the ratio is taken per round.
 */
async function paired(times: number, handler: () => Promise<unknown>, raw: () => unknown): Promise<Pair> {
  for (let i = 0; i < Math.min(10, times); i++) {
    await handler();
    raw();
  }
  const h: number[] = [];
  const r: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await handler();
    const t1 = performance.now();
    raw();
    const t2 = performance.now();
    h.push(t1 - t0);
    r.push(t2 - t1);
    ratios.push((t1 - t0) / (t2 - t1));
  }
  const stats = (v: number[]) => {
    const s = sorted(v);
    return { p50: round(percentile(s, 50), 3), p95: round(percentile(s, 95), 3) };
  };
  return { rounds: times, handler: stats(h), raw: stats(r), ratio: round(percentile(sorted(ratios), 50), 2) };
}

export const scenario: Scenario = {
  name: 'cache-reads',
  description:
    'Read handlers through createDispatch, timed in alternating rounds with the raw query, on an in-memory cache of 20,000 tasks: 10,000 open in one project, 10,000 in another, and 30,000 messages, beside the raw better-sqlite3 query of the same rows (ms).',
  quick: true,
  async run(ctx) {
    // Rounds per read. A whole-list round reads 10,000 rows twice (hundreds of ms on a loaded
    // machine), so it takes fewer rounds: its p50 is still over a dozen of them, and the runner
    // repeats the scenario in fresh processes for the min–max.
    const times = ctx.quick ? 50 : 200;
    const wholeTimes = ctx.quick ? 5 : 12;
    const cache = accountCache(openCacheDb(':memory:'));
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
          // A quarter of the tasks dated, on 1 to 29 November in turn (29 days, so the user's
          // tasks, every 3rd and 5th, fall on each): 1 to 27 late for HOME_DAYS, 28 today, 29
          // later this week, so each of Home's groups is read.
          deadline: i % 4 === 0 ? `2026-11-${String(1 + ((i / 4) % 29)).padStart(2, '0')}` : null,
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
    // Tasks stored are indexed for search afterwards, in the background (cache migration 019):
    // the reads are timed on a cache as that indexing leaves it.
    while (cache.search.indexPending(1_000) > 0);
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9/2.0', token: 'unused' });
    const sync = createSync({
      cache,
      pullParts: PULL_PARTS,
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
    const rawDue = cache.db.prepare(DUE_SQL).raw(true);
    const rawSearch = cache.db.prepare(searchSql(SearchKind.options));
    // The search query ranks the items of a project first (`near`); none here, as the view's default.
    const searchArg = { q: toFtsQuery('budget review'), near: null, limit: 50 };

    // Home's read is timed with every group holding tasks, as on a working day.
    const due = (await call('tasks.due', HOME_DAYS)) as Record<'late' | 'today' | 'later', { total: number }>;
    if (!due.late.total || !due.today.total || !due.later.total) {
      const totals = [due.late.total, due.today.total, due.later.total].join(' / ');
      throw new Error(`cache-reads: a Home group is empty (late / today / later: ${totals})`);
    }

    const rows: ({ read: string } & Pair)[] = [
      {
        read: 'project list, first window of 200',
        ...(await paired(
          times,
          () => call('tasks.list', { projectId: 'big' }),
          () => rawWindow.all('big'),
        )),
      },
      {
        read: 'project list, whole (10,000 rows)',
        ...(await paired(
          wholeTimes,
          () => call('tasks.list', { projectId: 'big', limit: 10_000 }),
          () => rawAll.all('big'),
        )),
      },
      {
        read: 'My Work (action required), first window of 200',
        ...(await paired(
          times,
          () => call('tasks.myWork', { kind: 'actionRequired' }),
          () => rawMyWork.all(me),
        )),
      },
      {
        read: "Home's late, today and this-week tasks (10 a group, of the user's 9,333)",
        ...(await paired(
          times,
          () => call('tasks.due', HOME_DAYS),
          () => rawDue.all({ ...HOME_DAYS, userId: me, perGroup: 10 }),
        )),
      },
      {
        read: 'search "budget review", 50 hits over tasks, messages, documents, CRM',
        ...(await paired(
          times,
          () => call('search.query', { text: 'budget review', limit: 50 }),
          () => rawSearch.all(searchArg),
        )),
      },
    ];
    const first = rows[0]!;
    const whole = rows[1]!;
    const total = ((await call('tasks.list', { projectId: 'big', limit: 1 })) as { total: number }).total;
    ctx.table(
      ['read', 'rounds', 'handler p50', 'handler p95', 'raw p50', 'raw p95', 'ratio (median of rounds)'],
      rows.map((r) => [r.read, r.rounds, r.handler.p50, r.handler.p95, r.raw.p50, r.raw.p95, r.ratio]),
    );
    await sync.stop();
    cache.db.close();
    return {
      projectTasks: total,
      firstWindowP50Ms: first.handler.p50,
      firstWindowP95Ms: first.handler.p95,
      firstWindowRawP95Ms: first.raw.p95,
      firstWindowP95Ratio: round(first.handler.p95 / first.raw.p95, 2),
      wholeListP50Ms: whole.handler.p50,
      wholeListRawP50Ms: whole.raw.p50,
      wholeListRatio: whole.ratio,
      myWorkP95Ms: rows[2]!.handler.p95,
      homeDueP95Ms: rows[3]!.handler.p95,
      searchP95Ms: rows[4]!.handler.p95,
    };
  },
};
