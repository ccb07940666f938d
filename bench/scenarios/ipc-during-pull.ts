// IPC answers during a pull: the longest delay of a cheap channel call (`app.info`, answered by
// the core without touching the cache) made every 5 ms while the core syncs, with the core in the
// host's process (as the web host runs it) and in a process of its own (core/process, as the
// desktop app runs it), side by side in one run on the same generated workspace. The delay is
// counted from when the call was due, so a blocked host's late timer counts too.
//
// Two figures per pull: the longest delay of `app.info` (answered by the core, so it waits for
// whatever the core's thread is doing, in either arrangement) and the longest lateness of the
// host's own 5 ms timer (how long the host's thread, the window's in the desktop app, was busy).
//
// Per arrangement: the initial sync of a new account (over loopback), pulls of the account once
// synced at +RTT (no change on the service), and the first pull after the host starts again.
// The service runs in a process of its own (bench/lib/service-process.ts) in both.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as perfConstants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startHostSession } from '../../src/main/core/accounts/host-session';
import { createFileSecretStore } from '../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../src/main/core/accounts/settings-store';
import { startBundledServerOnDemand } from '../../src/main/core/bundled-server-on-demand';
import type { Dispatch } from '../../src/main/core/dispatch';
import { startCoreProcess } from '../../src/main/core/process/core-process';
import { forkCoreChild } from '../../src/main/core/process/links';
import {
  startServiceProcess,
  writeBenchAccount,
  type ServiceProcess,
  type WorkspaceSize,
} from '../lib/service-process';
import { round, spread, type Spread } from '../lib/stats';
import type { Scenario } from '../lib/types';

const RTT_MS = Number(process.env.WORKDESK_BENCH_RTT_MS ?? 50);
const PROBE_EVERY_MS = 5;
const ENTRY = join(
  fileURLToPath(import.meta.url),
  '..',
  '..',
  '..',
  'src',
  'main',
  'core',
  'process',
  'entry.ts',
);

type Arrangement = 'in process' | 'own process';

/** A thread's time on a core and runnable but waiting for one, since it started (ms). */
interface ThreadTimes {
  runMs: number;
  waitMs: number;
}

/**
 * The clock of a process's main thread from Linux's scheduler statistics (`schedstat`: time on a
 * core, time runnable but waiting for one, in ns), or undefined where there is none. On a loaded
 * machine a call's delay is the core's work plus the time its thread waited for a core: this
 * tells them apart.
 */
export function threadClock(pid: number): (() => ThreadTimes) | undefined {
  const file = `/proc/${pid}/task/${pid}/schedstat`;
  const read = (): ThreadTimes => parseSchedstat(readFileSync(file, 'utf8'));
  try {
    read();
    return read;
  } catch {
    return undefined;
  }
}

export function parseSchedstat(text: string): ThreadTimes {
  const [run, wait] = text.trim().split(/\s+/).map(Number);
  if (!Number.isFinite(run) || !Number.isFinite(wait))
    throw new Error(`schedstat: expected two numbers, got ${JSON.stringify(text.slice(0, 40))}`);
  return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
}

/**
 * The part of the time between the last tick (`lastAt`) and this one (`tickAt`) that came after a
 * call was due: what the core's thread did in it is counted, pro rata, in that call's wait.
 */
export function shareAfterDue(dueAt: number, tickAt: number, lastAt: number): number {
  if (tickAt <= lastAt) return 0;
  return Math.min(1, Math.max(0, tickAt - dueAt) / (tickAt - lastAt));
}

/** The pid of this process's child whose command line holds `entry` (Linux), if any. */
function childPid(entry: string): number | undefined {
  try {
    for (const task of readdirSync(`/proc/${process.pid}/task`)) {
      const children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
      for (const pid of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(entry)) return pid;
      }
    }
  } catch {
    // No /proc: the figures that need it are left out.
  }
  return undefined;
}

interface Host {
  dispatch: Dispatch;
  close(): Promise<void>;
  /** The clock of the thread the core runs on, where the machine has one. */
  coreClock?: () => ThreadTimes;
  /** The core runs on this process's thread (its collections are observed here). */
  inProcess?: boolean;
}

/** The host session on `dataDir`, in this process or in a child, as the hosts start it. */
async function openHost(arrangement: Arrangement, dataDir: string): Promise<Host> {
  const settings = createJsonSettingsStore(join(dataDir, 'settings.json'));
  const secrets = createFileSecretStore(join(dataDir, 'secrets.json'));
  const log = (): void => {};
  if (arrangement === 'in process') {
    const session = await startHostSession({
      dataDir,
      settings,
      secrets,
      startServer: startBundledServerOnDemand,
      version: 'bench',
      transport: 'web',
      log,
    });
    const coreClock = threadClock(process.pid);
    return {
      dispatch: session.dispatch,
      close: () => session.close(),
      inProcess: true,
      ...(coreClock ? { coreClock } : {}),
    };
  }
  const host = await startCoreProcess({
    spawn: () => forkCoreChild(ENTRY, { execArgv: ['--import', 'tsx'] }),
    start: { dataDir, version: 'bench', transport: 'web' },
    secrets,
    secretKeys: () => settings.read().accounts.map((a) => a.id),
    log,
  });
  const pid = childPid(ENTRY);
  const coreClock = pid === undefined ? undefined : threadClock(pid);
  return { dispatch: host.dispatch, close: () => host.close(), ...(coreClock ? { coreClock } : {}) };
}

interface Probe {
  /** Longest delay from a call's due time to its answer (through the core). */
  maxMs: number;
  /** Longest lateness of the host's own 5 ms timer: how long the host's thread was kept busy. */
  hostLateMs: number;
  calls: number;
  /**
   * Calls answered more than a frame (16 ms) after they were due, and the 99th percentile of the
   * delays: on a loaded machine the longest delay is often one moment the process waited for a
   * core, and these say more of how the work itself was cut.
   */
  overFrame: number;
  p99Ms: number;
  /**
   * The most time the core's thread spent on a core while one call waited, and how many calls
   * waited behind more than a frame of it (absent where the thread's clock is not readable):
   * the core's own work, whatever the load; the rest of a delay is the thread waiting for a core.
   */
  coreRunMaxMs?: number;
  coreRunOverFrame?: number;
  /**
   * The longest-delayed call's delay split: the core's thread on a core, runnable but waiting for
   * one, and the rest (blocked: a disk write or sync, a lock, or the answer crossing processes).
   */
  longest?: { runMs: number; waitMs: number };
  /**
   * Garbage collections of this process's thread meanwhile (the core's in process): how many,
   * the longest, the longest young-generation one (a scavenge), and their total (ms).
   */
  gc?: GcFigures;
}

export interface GcFigures {
  count: number;
  longestMs: number;
  youngLongestMs: number;
  totalMs: number;
}

/** A 'gc' performance entry: its length and, in `detail`, its kind. */
type GcEntry = { duration: number; detail?: unknown };

/** The collections among `entries` ('gc' performance entries) summed up. */
export function gcFigures(entries: readonly GcEntry[]): GcFigures {
  const young = (e: GcEntry): boolean =>
    (e.detail as { kind?: number } | undefined)?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR;
  return {
    count: entries.length,
    longestMs: Math.max(0, ...entries.map((e) => e.duration)),
    youngLongestMs: Math.max(0, ...entries.filter(young).map((e) => e.duration)),
    totalMs: entries.reduce((sum, e) => sum + e.duration, 0),
  };
}

/**
 * Runs `work` while `app.info` is called every 5 ms; answers the longest delay from a call's due
 * time to its answer, the host timer's longest lateness, and how many calls were made.
 */
async function probeDuring(
  { dispatch, coreClock, inProcess }: Pick<Host, 'dispatch' | 'coreClock' | 'inProcess'>,
  work: () => Promise<unknown>,
): Promise<Probe> {
  const collections: PerformanceEntry[] = [];
  const gcObserver = inProcess
    ? new PerformanceObserver((list) => collections.push(...list.getEntries()))
    : undefined;
  gcObserver?.observe({ entryTypes: ['gc'] });
  let maxMs = 0;
  const coreRuns: number[] = [];
  let longest: { delay: number; runMs: number; waitMs: number } | undefined;
  let lastTick: { at: number; times: ThreadTimes } | undefined;
  const delays: number[] = [];
  let hostLateMs = 0;
  let calls = 0;
  let running = true;
  const inFlight: Promise<void>[] = [];
  let due = performance.now();
  const tick = (): void => {
    if (!running) return;
    const dueAt = due;
    hostLateMs = Math.max(hostLateMs, performance.now() - dueAt);
    calls++;
    // The core's time on a core from when the call was due: from this tick on as read, and the
    // part of the time since the last tick that came after the due time, pro rata.
    const tickAt = performance.now();
    const atTick = coreClock?.();
    const before = { runMs: 0, waitMs: 0 };
    if (atTick && lastTick && tickAt > lastTick.at) {
      const share = shareAfterDue(dueAt, tickAt, lastTick.at);
      before.runMs = (atTick.runMs - lastTick.times.runMs) * share;
      before.waitMs = (atTick.waitMs - lastTick.times.waitMs) * share;
    }
    if (atTick) lastTick = { at: tickAt, times: atTick };
    inFlight.push(
      dispatch('app.info', {}).then((result) => {
        if (!result.ok) throw new Error(`app.info failed: ${result.error.message}`);
        const delay = performance.now() - dueAt;
        delays.push(delay);
        maxMs = Math.max(maxMs, delay);
        const atAnswer = atTick && coreClock?.();
        if (atTick && atAnswer) {
          const runMs = before.runMs + atAnswer.runMs - atTick.runMs;
          coreRuns.push(runMs);
          if (!longest || delay > longest.delay)
            longest = { delay, runMs, waitMs: before.waitMs + atAnswer.waitMs - atTick.waitMs };
        }
      }),
    );
    // The next call is due 5 ms after this one was (not after it ran), but never in the past.
    due = Math.max(dueAt + PROBE_EVERY_MS, performance.now());
    setTimeout(tick, Math.max(0, due - performance.now()));
  };
  tick();
  try {
    await work();
  } finally {
    running = false;
    await Promise.all(inFlight);
    gcObserver?.disconnect();
  }
  delays.sort((a, b) => a - b);
  const p99Ms = delays[Math.min(delays.length - 1, Math.floor(delays.length * 0.99))] ?? 0;
  const coreRun = coreRuns.length
    ? {
        coreRunMaxMs: Math.max(...coreRuns),
        coreRunOverFrame: coreRuns.filter((r) => r > 16).length,
        ...(longest ? { longest: { runMs: longest.runMs, waitMs: longest.waitMs } } : {}),
      }
    : {};
  return {
    maxMs,
    hostLateMs,
    calls,
    overFrame: delays.filter((d) => d > 16).length,
    p99Ms,
    ...coreRun,
    ...(gcObserver ? { gc: gcFigures(collections as GcEntry[]) } : {}),
  };
}

async function syncNow(dispatch: Dispatch): Promise<void> {
  const result = await dispatch('sync.now', { wait: true });
  if (!result.ok) throw new Error(`sync.now failed: ${result.error.message}`);
  const status = result.value as { lastError: string | null };
  if (status.lastError) throw new Error(`the pull failed: ${status.lastError}`);
}

interface Measured {
  initial: Probe;
  pulls: Probe[];
  firstPullAfterStart: Probe;
}

const describe = (p: Probe): string =>
  `${p.calls} calls, longest delay ${round(p.maxMs, 1)} ms (99th percentile ${round(p.p99Ms, 1)} ms, ` +
  `${p.overFrame} over 16 ms), host timer late by ${round(p.hostLateMs, 1)} ms at most` +
  (p.coreRunMaxMs === undefined
    ? ''
    : `; the core's thread on a core at most ${round(p.coreRunMaxMs, 1)} ms within one call's wait ` +
      `(${p.coreRunOverFrame} calls behind more than 16 ms of it)` +
      (p.longest
        ? `; the longest delay: ${round(p.longest.runMs, 1)} ms on a core, ${round(p.longest.waitMs, 1)} ms waiting for one`
        : '')) +
  (p.gc
    ? `; ${p.gc.count} collections (${round(p.gc.totalMs, 0)} ms), the longest ${round(p.gc.longestMs, 1)} ms, ` +
      `the longest young one ${round(p.gc.youngLongestMs, 1)} ms`
    : '');

async function measure(
  arrangement: Arrangement,
  service: ServiceProcess,
  pulls: number,
  log: (m: string) => void,
): Promise<Measured> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ipc-during-pull-'));
  try {
    writeBenchAccount(dataDir, service);
    await service.setDelay(0);
    let host = await openHost(arrangement, dataDir);
    const t0 = performance.now();
    // The host starts the account's first sync as it opens; sync.now waits for a complete one.
    const initial = await probeDuring(host, () => syncNow(host.dispatch));
    log(`${arrangement}: initial sync ${round((performance.now() - t0) / 1000, 1)} s: ${describe(initial)}`);
    await service.setDelay(RTT_MS);
    const done: Probe[] = [];
    for (let i = 0; i < pulls; i++) {
      const pull = await probeDuring(host, () => syncNow(host.dispatch));
      done.push(pull);
      log(`${arrangement}: pull ${i + 1}: ${describe(pull)}`);
    }
    await host.close();
    // The first pull after a start: the host opens the account and pulls at once.
    host = await openHost(arrangement, dataDir);
    const first = await probeDuring(host, () => syncNow(host.dispatch));
    log(`${arrangement}: first pull after a start: ${describe(first)}`);
    await host.close();
    return { initial, pulls: done, firstPullAfterStart: first };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (s: Spread): string => `${round(s.median, 1)} (${round(s.min, 1)}–${round(s.max, 1)})`;

export const scenario: Scenario = {
  name: 'ipc-during-pull',
  description:
    `The longest delay of a cheap channel call (app.info) made every ${PROBE_EVERY_MS} ms while the core syncs a generated workspace, ` +
    `with the core in the host's process and in a process of its own, side by side (aim: no call delayed more than 16 ms). ` +
    `Pulls at +${RTT_MS} ms round trip with no change; the initial sync over loopback.`,
  quick: true,
  async run(ctx) {
    const tasks = ctx.quick ? 2_000 : 20_000;
    const size: WorkspaceSize = {
      projects: Math.max(10, Math.round(tasks / 100)),
      tasks,
      messagesPerTask: 3,
      seed: 1,
    };
    const pulls = ctx.quick ? 2 : 3;
    const service = await startServiceProcess(size, 0);
    const results = new Map<Arrangement, Measured>();
    try {
      for (const arrangement of ['in process', 'own process'] as const) {
        results.set(arrangement, await measure(arrangement, service, pulls, ctx.log));
      }
    } finally {
      await service.close();
    }
    const rows: (string | number)[][] = [];
    const figures: Record<string, number | string> = { tasks };
    for (const [arrangement, m] of results) {
      const pull = spread(m.pulls.map((p) => p.maxMs));
      const pullHost = spread(m.pulls.map((p) => p.hostLateMs));
      const key = arrangement === 'in process' ? 'inProcess' : 'ownProcess';
      rows.push([
        arrangement,
        `${round(m.initial.maxMs, 1)} / ${round(m.initial.hostLateMs, 1)}`,
        `${fmt(pull)} / ${fmt(pullHost)}`,
        `${round(m.firstPullAfterStart.maxMs, 1)} / ${round(m.firstPullAfterStart.hostLateMs, 1)}`,
      ]);
      figures[`${key}InitialSyncMaxDelayMs`] = round(m.initial.maxMs, 1);
      figures[`${key}InitialSyncHostLateMs`] = round(m.initial.hostLateMs, 1);
      figures[`${key}InitialSyncP99Ms`] = round(m.initial.p99Ms, 1);
      figures[`${key}InitialSyncOverFrameShare`] = round(m.initial.overFrame / m.initial.calls, 3);
      if (m.initial.coreRunMaxMs !== undefined) {
        figures[`${key}InitialSyncCoreRunMaxMs`] = round(m.initial.coreRunMaxMs, 1);
        figures[`${key}InitialSyncCoreRunOverFrame`] = m.initial.coreRunOverFrame ?? 0;
        if (m.initial.longest) {
          figures[`${key}InitialSyncLongestOnCoreMs`] = round(m.initial.longest.runMs, 1);
          figures[`${key}InitialSyncLongestWaitingForCoreMs`] = round(m.initial.longest.waitMs, 1);
        }
      }
      if (m.initial.gc) {
        figures[`${key}InitialSyncGcCount`] = m.initial.gc.count;
        figures[`${key}InitialSyncGcTotalMs`] = round(m.initial.gc.totalMs, 0);
        figures[`${key}InitialSyncGcLongestMs`] = round(m.initial.gc.longestMs, 1);
        figures[`${key}InitialSyncYoungGcLongestMs`] = round(m.initial.gc.youngLongestMs, 1);
      }
      figures[`${key}PullMaxDelayMs`] = round(pull.median, 1);
      figures[`${key}PullHostLateMs`] = round(pullHost.median, 1);
      figures[`${key}FirstPullMaxDelayMs`] = round(m.firstPullAfterStart.maxMs, 1);
      figures[`${key}FirstPullHostLateMs`] = round(m.firstPullAfterStart.hostLateMs, 1);
      ctx.headline({
        figure: `no-change pull at ${tasks} tasks, core ${arrangement}: longest delay of app.info (aim ≤ 16 ms)`,
        unit: 'ms',
        value: pull,
        runs: m.pulls.length,
      });
      ctx.headline({
        figure: `no-change pull at ${tasks} tasks, core ${arrangement}: host's thread busy at most (aim ≤ 16 ms)`,
        unit: 'ms',
        value: pullHost,
        runs: m.pulls.length,
      });
    }
    ctx.table(
      [
        'core',
        'initial sync (ms)',
        `no-change pull at +${RTT_MS} ms, median (min–max) of ${pulls} (ms)`,
        'first pull after a start (ms)',
      ],
      rows,
    );
    ctx.log(
      'each cell: longest delay of app.info through the core / longest lateness of the host’s own timer',
    );
    return figures;
  },
};
