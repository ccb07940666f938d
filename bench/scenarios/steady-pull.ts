// The steady pull: what the periodic pull of an account already synced costs the core, with no
// change on the service and with a few changed tasks, on a generated workspace (200 projects,
// 20,000 tasks, 60,000 messages) behind the fault proxy at 50 ms added round trip. The service
// and the proxy run in a child process, so the CPU time and memory are the core's alone.
//
// Per pull: the core's CPU time; the event loop's longest block (monitorEventLoopDelay at 1 ms
// resolution); the wall time beside the download alone (the same requests, phase by phase at the
// same concurrency, read as text by a bare client); peak RSS; and the longest delay of a cheap
// call through the handlers (a task read from the cache) issued every 5 ms while the pull runs,
// counted from when it was due. Then the same figures for a no-change pull at 1,000 to 50,000
// tasks (full run only), for the README's charts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { createEngine, type Engine } from '../../src/main/core/engine';
import {
  connectionOf,
  startServiceProcess,
  type ServiceProcess,
  type WorkspaceSize,
} from '../lib/service-process';
import { round, spread } from '../lib/stats';
import type { Figures, Scenario } from '../lib/types';

const RTT_MS = Number(process.env.WORKDESK_BENCH_RTT_MS ?? 50);
const CONCURRENCY = 6;
/** How often the cheap call is made during a pull. */
const PROBE_EVERY_MS = 5;

interface Recorded {
  phase: string;
  url: string;
  headers: Record<string, string>;
}

/** One engine under measurement, with the requests of its current pull recorded. */
interface Subject {
  engine: Engine;
  /** Requests of the pull running, with the phase each was sent in. */
  requests: Recorded[];
  close(): Promise<void>;
}

async function openSubject(service: ServiceProcess, dataDir: string): Promise<Subject> {
  const requests: Recorded[] = [];
  let phase = 'idle';
  const engine = await createEngine({
    dataDir,
    connection: connectionOf(service, 120_000),
    autoStart: false,
    sync: { concurrency: CONCURRENCY },
    fetch: (input, init) => {
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      if ((init.method ?? 'GET') === 'GET') requests.push({ phase, url: input, headers });
      return fetch(input, init);
    },
  });
  const off = engine.sync.onStatus((s) => (phase = s.phase));
  return {
    engine,
    requests,
    async close() {
      off();
      await engine.close();
    },
  };
}

/**
 * One request's answer as text; tried once more when the connection was closed under it (a
 * kept-alive connection the proxy had just closed), which says nothing about the download.
 */
async function readText(r: Recorded, attempt = 0): Promise<string> {
  try {
    return await (await fetch(r.url, { headers: r.headers })).text();
  } catch (err) {
    if (attempt < 2) return readText(r, attempt + 1);
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new Error(`bare download of ${r.url} failed${cause}`, { cause: err });
  }
}

/** The download alone: the pull's requests, phase by phase at its concurrency, read as text. */
async function downloadOnly(requests: readonly Recorded[]): Promise<number> {
  const limit = pLimit(CONCURRENCY);
  const t0 = performance.now();
  const phases = [...new Set(requests.map((r) => r.phase))];
  for (const phase of phases) {
    await Promise.all(requests.filter((r) => r.phase === phase).map((r) => limit(() => readText(r))));
  }
  return performance.now() - t0;
}

interface PullFigures {
  requests: number;
  wallMs: number;
  downloadMs: number;
  cpuMs: number;
  longestBlockMs: number;
  peakRssMb: number;
  cheapCallMaxMs: number;
  cheapCalls: number;
}

/**
 * One pull, measured; `probeTaskId` is read through the handlers every 5 ms meanwhile (a task
 * `changeTasks` never picks, so its detail stays fetched and each read is the cache's alone).
 */
async function measurePull(subject: Subject, probeTaskId: string): Promise<PullFigures> {
  const { engine } = subject;
  subject.requests.length = 0;
  const detail = engine.handlers['tasks.detail'];
  if (!detail) throw new Error('no tasks.detail handler');
  let peakRss = process.memoryUsage().rss;
  let cheapCallMax = 0;
  let cheapCalls = 0;
  let probing = true;
  // Each call is due on a 5 ms grid; a call made late because the loop was busy counts from
  // when it was due, as a renderer's request waiting behind the pull would.
  const start = performance.now();
  let due = start;
  const probe = async (): Promise<void> => {
    while (probing) {
      due += PROBE_EVERY_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else due = performance.now();
      if (!probing) break;
      await detail({ taskId: probeTaskId });
      cheapCallMax = Math.max(cheapCallMax, performance.now() - due);
      cheapCalls++;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
  };
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const probing$ = probe();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const status = await engine.sync.now();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  probing = false;
  await probing$;
  histogram.disable();
  if (status.lastError) throw new Error(`pull failed: ${status.lastError}`);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const requests = [...subject.requests];
  const downloadMs = await downloadOnly(requests);
  return {
    requests: requests.length,
    wallMs,
    downloadMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    // The histogram's max is the longest gap between its 1 ms timer's runs, less that 1 ms.
    longestBlockMs: Math.max(0, histogram.max / 1e6 - 1),
    peakRssMb: peakRss / 2 ** 20,
    cheapCallMaxMs: cheapCallMax,
    cheapCalls,
  };
}

/** Median of each figure over pulls (min and max beside it in the table). */
function summarize(pulls: readonly PullFigures[]): Record<keyof PullFigures, ReturnType<typeof spread>> {
  const keys = Object.keys(pulls[0] ?? {}) as (keyof PullFigures)[];
  return Object.fromEntries(keys.map((k) => [k, spread(pulls.map((p) => p[k]))])) as Record<
    keyof PullFigures,
    ReturnType<typeof spread>
  >;
}

const fmt = (s: { median: number; min: number; max: number }, digits = 0) =>
  `${round(s.median, digits)} (${round(s.min, digits)}–${round(s.max, digits)})`;

/** A workspace synced once over loopback, then its proxy set to the bench's round trip. */
async function syncedWorkspace(size: WorkspaceSize): Promise<{
  service: ServiceProcess;
  subject: Subject;
  dataDir: string;
  initialMs: number;
  done(): Promise<void>;
}> {
  const service = await startServiceProcess(size, 0);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-steady-pull-'));
  const subject = await openSubject(service, dataDir);
  const t0 = performance.now();
  const initial = await subject.engine.sync.now();
  if (initial.lastError) throw new Error(`initial sync failed: ${initial.lastError}`);
  const initialMs = performance.now() - t0;
  await service.setDelay(RTT_MS);
  const ws = {
    service,
    /** Replaced when the bench restarts the engine; `done` closes the current one. */
    subject,
    dataDir,
    initialMs,
    async done() {
      await ws.subject.close();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ws;
}

function sizeOf(tasks: number): WorkspaceSize {
  return { projects: Math.max(10, Math.round(tasks / 100)), tasks, messagesPerTask: 3, seed: 1 };
}

export const scenario: Scenario = {
  name: 'steady-pull',
  description:
    `The periodic pull of an account already synced, at ${RTT_MS} ms added round trip, concurrency ${CONCURRENCY}: with no change, with 10 and with 200 tasks changed (a comment each), and the first pull after the engine restarts. ` +
    `Core CPU per pull, the event loop's longest block, wall beside the download alone (the same requests by a bare client, phase by phase), peak RSS, and the longest delay of a cache read through the handlers made every ${PROBE_EVERY_MS} ms during the pull.`,
  quick: true,
  async run(ctx) {
    const main = ctx.quick ? sizeOf(2_000) : { ...sizeOf(20_000), projects: 200 };
    const repeats = ctx.quick ? 2 : 3;
    const ws = await syncedWorkspace(main);
    const figures: Figures = {};
    const rows: (string | number)[][] = [];
    try {
      const probeId = ws.service.taskIds[1]!;
      ctx.log(
        `workspace: ${main.tasks} tasks, ${ws.service.messageCount} messages; initial sync over loopback ${round(ws.initialMs / 1000, 1)} s`,
      );
      const record = (label: string, key: string, pulls: PullFigures[]) => {
        const s = summarize(pulls);
        const beyond = spread(pulls.map((p) => p.wallMs - p.downloadMs));
        rows.push([
          label,
          round(s.requests.median, 0),
          fmt(s.cpuMs),
          fmt(s.longestBlockMs),
          fmt(s.wallMs),
          fmt(s.downloadMs),
          fmt(beyond),
          fmt(s.cheapCallMaxMs, 1),
          fmt(s.peakRssMb),
        ]);
        const at = `${label}, ${main.tasks.toLocaleString('en-US')} tasks, ${RTT_MS} ms RTT`;
        const headline = (figure: string, unit: string, value: ReturnType<typeof spread>) =>
          ctx.headline({ figure: `steady pull ${at}: ${figure}`, unit, value, runs: pulls.length });
        headline('core CPU (aim ≤ 150 ms with no change)', 'ms', s.cpuMs);
        headline('longest event-loop block (aim ≤ 50 ms)', 'ms', s.longestBlockMs);
        ctx.headline({
          figure: `steady pull ${at}: wall (aim ≤ 500 ms beyond the round trips)`,
          unit: 'ms',
          value: s.wallMs,
          runs: pulls.length,
          baseline: { name: 'download alone', value: s.downloadMs },
        });
        headline('longest delay of a cache read made every 5 ms (aim ≤ 16 ms)', 'ms', s.cheapCallMaxMs);
        headline('core peak RSS (aim ≤ 200 MiB)', 'MiB', s.peakRssMb);
        figures[`${key}CpuMs`] = round(s.cpuMs.median, 1);
        figures[`${key}LongestBlockMs`] = round(s.longestBlockMs.median, 1);
        figures[`${key}WallMs`] = round(s.wallMs.median, 0);
        figures[`${key}DownloadMs`] = round(s.downloadMs.median, 0);
        figures[`${key}BeyondDownloadMs`] = round(beyond.median, 0);
        figures[`${key}CheapCallMaxMs`] = round(s.cheapCallMaxMs.median, 1);
        figures[`${key}PeakRssMb`] = round(s.peakRssMb.median, 0);
        ctx.log(
          `${label}: cpu ${fmt(s.cpuMs)} ms, longest block ${fmt(s.longestBlockMs)} ms, wall ${fmt(s.wallMs)} ms (download alone ${fmt(s.downloadMs)} ms), cheap call ≤ ${fmt(s.cheapCallMaxMs, 1)} ms, rss ${fmt(s.peakRssMb)} MiB`,
        );
      };
      // The first pull after the initial sync settles what it left (document text, the clock).
      await measurePull(ws.subject, probeId);
      const still: PullFigures[] = [];
      for (let i = 0; i < repeats; i++) still.push(await measurePull(ws.subject, probeId));
      record('no change', 'noChange', still);
      for (const n of [10, 200]) {
        const pulls: PullFigures[] = [];
        for (let i = 0; i < repeats; i++) {
          await ws.service.changeTasks(n / main.tasks);
          pulls.push(await measurePull(ws.subject, probeId));
        }
        record(`${n} tasks changed`, `changed${n}`, pulls);
      }
      // A restart: the engine opens the same files again and pulls (nothing changed).
      const restarted: PullFigures[] = [];
      for (let i = 0; i < Math.min(repeats, 2); i++) {
        await ws.subject.close();
        ws.subject = await openSubject(ws.service, ws.dataDir);
        restarted.push(await measurePull(ws.subject, probeId));
      }
      record('first pull after a restart, no change', 'afterRestart', restarted);
    } finally {
      await ws.done();
    }
    ctx.table(
      [
        `pull (${main.tasks} tasks)`,
        'requests',
        'core CPU ms',
        'longest block ms',
        'wall ms',
        'download alone ms',
        'wall beyond download ms',
        'cheap call max delay ms',
        'peak RSS MiB',
      ],
      rows,
    );

    // The curves: a no-change pull at each size (full run only; each size is synced first).
    // WORKDESK_BENCH_NO_CURVES=1 leaves them out (a side-by-side run of the main figures);
    // WORKDESK_BENCH_CURVE_SIZES=500,1000 measures those sizes instead (also with --quick).
    const chosen = process.env.WORKDESK_BENCH_CURVE_SIZES?.split(',').map(Number);
    const sizes = process.env.WORKDESK_BENCH_NO_CURVES
      ? []
      : (chosen ?? (ctx.quick ? [] : [1_000, 5_000, 20_000, 50_000]));
    type Point = { median: number; min: number; max: number };
    const curve: { tasks: number; cpuMs: Point; blockMs: Point; rssMb: Point; beyondMs: Point }[] = [];
    for (const tasks of sizes) {
      const point = await syncedWorkspace(sizeOf(tasks));
      try {
        const probeId = point.service.taskIds[1]!;
        await measurePull(point.subject, probeId);
        const pulls: PullFigures[] = [];
        for (let i = 0; i < 3; i++) pulls.push(await measurePull(point.subject, probeId));
        const s = summarize(pulls);
        curve.push({
          tasks,
          cpuMs: s.cpuMs,
          blockMs: s.longestBlockMs,
          rssMb: s.peakRssMb,
          beyondMs: spread(pulls.map((p) => p.wallMs - p.downloadMs)),
        });
        ctx.log(
          `curve ${tasks} tasks: cpu ${fmt(s.cpuMs)} ms, longest block ${fmt(s.longestBlockMs)} ms, rss ${fmt(s.peakRssMb)} MiB`,
        );
      } finally {
        await point.done();
      }
    }
    if (curve.length) {
      ctx.table(
        ['tasks', 'core CPU ms', 'longest block ms', 'wall beyond download ms', 'peak RSS MiB'],
        curve.map((c) => [c.tasks, fmt(c.cpuMs), fmt(c.blockMs), fmt(c.beyondMs), fmt(c.rssMb)]),
      );
      const series = (name: string, pick: (c: (typeof curve)[number]) => Point) => [
        { name, points: curve.map((c) => ({ x: c.tasks, ...pick(c) })) },
      ];
      ctx.chart({
        file: 'steady-pull-cpu',
        title: 'No-change pull: core CPU time',
        xLabel: 'tasks',
        yLabel: 'ms',
        series: series('core CPU', (c) => c.cpuMs),
      });
      ctx.chart({
        file: 'steady-pull-block',
        title: 'No-change pull: longest event-loop block',
        xLabel: 'tasks',
        yLabel: 'ms',
        series: series('longest block', (c) => c.blockMs),
      });
      ctx.chart({
        file: 'steady-pull-memory',
        title: 'No-change pull: core peak RSS',
        xLabel: 'tasks',
        yLabel: 'MiB',
        series: series('peak RSS', (c) => c.rssMb),
      });
      for (const c of curve) {
        figures[`curve${c.tasks}CpuMs`] = round(c.cpuMs.median, 1);
        figures[`curve${c.tasks}LongestBlockMs`] = round(c.blockMs.median, 1);
        figures[`curve${c.tasks}PeakRssMb`] = round(c.rssMb.median, 0);
      }
    }
    return figures;
  },
};
