// My Time's week read (`time.mine`, the handler the view calls, through the dispatch with its
// argument validation) on a cache holding 5,000 time reports of the acting user spread over five
// years, beside 20,000 of four colleagues. Every week of the five years is read in turn, over
// several rounds; the aim is p95 < 20 ms. The weeks inside the synced window are read from the
// cache online; older ones are fetched on demand when the service can be reached, so they are
// timed with it unreachable (the sync knows it is offline and the cache answers at once): what
// is timed is the cache's part, the same for both.
import { createServiceClient } from '../../src/main/core/api/client';
import { openCacheDb } from '../../src/main/core/cache/db';
import { aProject, aTask } from '../../src/main/core/cache/fixtures';
import { flattenTask } from '../../src/main/core/cache/repos/tasks';
import { createDispatch } from '../../src/main/core/dispatch';
import { accountCache, readHandlers } from '../../src/main/core/handlers/index';
import { noPending } from '../../src/main/core/sync/pending';
import { createSync } from '../../src/main/core/sync/sync';
import { PULL_PARTS } from '../../src/main/core/handlers/index';
import { percentile, round, sorted, spread } from '../lib/stats';
import type { Scenario } from '../lib/types';

const DAY_MS = 86_400_000;
const day = (at: number): string => new Date(at).toISOString().slice(0, 10);

export const scenario: Scenario = {
  name: 'my-time',
  description:
    "My Time's week (`time.mine` through createDispatch) on an in-memory cache of 25,000 time reports: 5,000 of the acting user over five years (260 weeks) and 20,000 of four others; every week read in turn, over several rounds (ms).",
  quick: true,
  async run(ctx) {
    const rounds = ctx.quick ? 4 : 12;
    const cache = accountCache(openCacheDb(':memory:'));
    const me = 'u-me';
    const others = ['u-2', 'u-3', 'u-4', 'u-5'];
    const now = new Date('2026-11-26T12:00:00');
    // Mondays of the 260 weeks before `now`'s week, oldest first.
    const lastMonday = Date.UTC(2026, 10, 23);
    const mondays = Array.from({ length: 260 }, (_, i) => day(lastMonday - (259 - i) * 7 * DAY_MS));
    cache.transaction(() => {
      for (let p = 0; p < 12; p++)
        cache.projects.upsertMany([aProject({ id: `p${p}`, name: `Project ${p}` })]);
      for (let t = 0; t < 300; t++) {
        cache.tasks.upsertMany([
          flattenTask(aTask({ id: `t${t}`, projectId: `p${t % 12}`, name: `Task ${t}` })),
        ]);
      }
      let n = 0;
      const log = (userId: string, count: number) => {
        for (let i = 0; i < count; i++) {
          // Weekdays only, spread evenly over the five years.
          const week = Math.floor((i * 260) / count);
          const weekday = (i * 3) % 5;
          const taskId = `t${(i * 7 + userId.length) % 300}`;
          cache.timeReports.upsert({
            id: `r${++n}`,
            taskId,
            projectId: `p${Number(taskId.slice(1)) % 12}`,
            userId,
            reportDate: day(Date.parse(`${mondays[week]}T00:00:00Z`) + weekday * DAY_MS),
            reported: 15 * (1 + (i % 16)),
            message: i % 4 ? '' : 'Review &amp; fixes',
            isBillable: i % 3 === 0,
            momentCreated: `${mondays[week]}T17:${String(i % 60).padStart(2, '0')}:00.000`,
          });
        }
      };
      log(me, 5_000);
      for (const other of others) log(other, 5_000);
    });
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9/2.0', token: 'unused' });
    const sync = createSync({
      cache,
      pullParts: PULL_PARTS,
      client,
      pending: noPending,
      userId: me,
      clock: () => now,
      log: () => {},
      emitChange: () => {},
    });
    const dispatch = createDispatch(
      readHandlers({ cache, sync, userId: me, log: () => {}, clock: () => now }),
    );
    const week = async (monday: string): Promise<number> => {
      const to = day(Date.parse(`${monday}T00:00:00Z`) + 6 * DAY_MS);
      const r = await dispatch('time.mine', { from: monday, to });
      if (!r.ok) throw new Error(`time.mine: ${r.error.message}`);
      return (r.value as unknown[]).length;
    };

    // The first week before the synced window tries the (unreachable) service: the sync is
    // offline after it, as the app is without a network.
    let reportsRead = 0;
    for (const monday of mondays) reportsRead += await week(monday);
    if (sync.status().online) throw new Error('my-time: the sync should know it is offline');
    if (reportsRead !== 5_000) throw new Error(`my-time: read ${reportsRead} reports, expected 5,000`);

    // Beside each handler read, the cache's own query of the same rows (no dispatch, no names
    // looked up, no validation): what an index could still speed up.
    const times: number[] = [];
    const rawTimes: number[] = [];
    const roundP95s: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const pass: number[] = [];
      for (const monday of mondays) {
        const t0 = performance.now();
        await week(monday);
        const t1 = performance.now();
        cache.timeReports.byUser(me, {
          from: monday,
          to: day(Date.parse(`${monday}T00:00:00Z`) + 6 * DAY_MS),
        });
        rawTimes.push(performance.now() - t1);
        pass.push(t1 - t0);
      }
      times.push(...pass);
      roundP95s.push(percentile(sorted(pass), 95));
    }
    const s = sorted(times);
    const raw = sorted(rawTimes);
    const plan = (
      cache.db
        .prepare(
          'EXPLAIN QUERY PLAN SELECT * FROM time_reports WHERE user_id = ? AND report_date BETWEEN ? AND ? ORDER BY report_date, moment_created, id',
        )
        .all(me, mondays[0], mondays[0]) as { detail: string }[]
    )
      .map((row) => row.detail)
      .join('; ');
    const figures = {
      reports: 25_000,
      ownReports: 5_000,
      weeks: mondays.length,
      reads: times.length,
      reportsPerWeekMean: round(5_000 / mondays.length, 1),
      weekP50Ms: round(percentile(s, 50), 3),
      weekP95Ms: round(percentile(s, 95), 3),
      weekMaxMs: round(s[s.length - 1] ?? 0, 3),
      queryP50Ms: round(percentile(raw, 50), 3),
      queryP95Ms: round(percentile(raw, 95), 3),
      queryPlan: plan,
    };
    // The spread is over rounds (each reads all 260 weeks once).
    ctx.headline({
      figure: 'My Time week read p95, 5,000 own reports over 5 years (25,000 cached) — aim < 20 ms',
      unit: 'ms',
      value: spread(roundP95s.map((v) => round(v, 3))),
      runs: rounds,
    });
    ctx.table(
      ['read', 'reads', 'p50 (ms)', 'p95 (ms)', 'max (ms)', 'query plan'],
      [
        [
          'one week of My Time (time.mine)',
          times.length,
          figures.weekP50Ms,
          figures.weekP95Ms,
          figures.weekMaxMs,
          plan,
        ],
        [
          'its cache query alone',
          rawTimes.length,
          figures.queryP50Ms,
          figures.queryP95Ms,
          round(raw[raw.length - 1] ?? 0, 3),
          plan,
        ],
      ],
    );
    await sync.stop();
    cache.db.close();
    return figures;
  },
};
