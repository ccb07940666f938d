// IPC answers during a pull: the longest delay of a cheap channel call (`app.info`, answered by
// the core without touching the cache) made every 5 ms while the core syncs, with the core in the
// host's process (as the web host runs it) and in a process of its own (core/process, as the
// desktop app runs it), side by side in one run on the same generated workspace. The delay is
// counted from when the call was due, so a blocked host's late timer counts too.
//
// Two figures per pull: the longest delay of `app.info` (answered by the core, so it waits for
// whatever the core's thread is doing, in either arrangement) and the longest lateness of the
// host's own 5 ms timer (how long the host's thread, the window's in the desktop app, was busy).
// The core thread's garbage collections are counted in either arrangement (its own process writes
// them to a file as it leaves), with the part of the longest delay they took.
//
// Per arrangement: the initial sync of a new account (over loopback), pulls of the account once
// synced at +RTT (no change on the service), and the first pull after the host starts again.
// The service runs in a process of its own (bench/lib/service-process.ts) in both.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
  /**
   * The core's process's collections, once it has left (own process: see `CHILD_GC_PRELOAD`);
   * undefined when it wrote none (killed), so that no figure says "no collections" then.
   */
  collections?: () => Collection[] | undefined;
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
  const gcLog = join(dataDir, `core-collections-${Date.now()}.jsonl`);
  const host = await startCoreProcess({
    spawn: () =>
      forkCoreChild(ENTRY, {
        execArgv: ['--import', 'tsx', '--import', CHILD_GC_PRELOAD],
        env: { ...process.env, [GC_LOG_ENV]: gcLog },
      }),
    start: { dataDir, version: 'bench', transport: 'web' },
    secrets,
    secretKeys: () => settings.read().accounts.map((a) => a.id),
    log,
  });
  const pid = childPid(ENTRY);
  const coreClock = pid === undefined ? undefined : threadClock(pid);
  return {
    dispatch: host.dispatch,
    close: () => host.close(),
    collections: () => (existsSync(gcLog) ? parseCollections(readFileSync(gcLog, 'utf8'), gcLog) : undefined),
    ...(coreClock ? { coreClock } : {}),
  };
}

export interface Probe {
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
  /** When the probe ran, and when the longest-delayed call waited, on the machine's clock. */
  window: Span;
  longestWindow?: Span;
  /**
   * Garbage collections of the core's thread meanwhile (in either arrangement): how many, the
   * longest, the longest young-generation one (a scavenge), and their total (ms); and how much of
   * the longest-delayed call's wait they took (ms).
   */
  gc?: GcFigures;
  longestGcMs?: number;
}

/** From and to, in ms on the machine's clock (`performance.timeOrigin` + `performance.now()`). */
export interface Span {
  from: number;
  to: number;
}

/** One garbage collection on the machine's clock, and whether it was a young one (a scavenge). */
export interface Collection {
  at: number;
  duration: number;
  young: boolean;
}

/** Now on the machine's clock: comparable between this process and the core's own. */
const machineNow = (): number => performance.timeOrigin + performance.now();

/** The environment variable naming the file the core's own process writes its collections to. */
export const GC_LOG_ENV = 'WORKDESK_BENCH_GC_LOG';

/**
 * What the core's own process runs first (`--import`): it observes the thread's collections and,
 * as the process leaves, writes one JSON line per collection (`Collection`) to the file named by
 * `WORKDESK_BENCH_GC_LOG`. Written once at the end, so that the core's thread does no bench work
 * while it is measured. A data URL: the bench needs no file of its own beside the child.
 */
export const CHILD_GC_PRELOAD = `data:text/javascript,${encodeURIComponent(`
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
const file = process.env.${GC_LOG_ENV};
const seen = [];
if (file) {
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.push(e);
  });
  observer.observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    seen.push(...observer.takeRecords());
    const line = (e) => JSON.stringify({
      at: performance.timeOrigin + e.startTime,
      duration: e.duration,
      young: e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR,
    });
    writeFileSync(file, seen.map(line).join('\\n'));
  });
}
`)}`;

/** The collections the core's own process wrote (`CHILD_GC_PRELOAD`); a bad line is named. */
export function parseCollections(text: string, file: string): Collection[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), i }))
    .filter(({ line }) => line !== '')
    .map(({ line, i }) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = undefined;
      }
      const c = value as Partial<Collection> | undefined;
      if (
        typeof c?.at !== 'number' ||
        typeof c.duration !== 'number' ||
        typeof c.young !== 'boolean' ||
        !Number.isFinite(c.at) ||
        !Number.isFinite(c.duration)
      )
        throw new Error(
          `${file}, line ${i + 1}: expected a collection {at, duration, young}, got ${JSON.stringify(line.slice(0, 60))}`,
        );
      return { at: c.at, duration: c.duration, young: c.young };
    });
}

/** The collections that overlap `span`, each counted for the part of it inside the span. */
export function collectionsWithin(all: readonly Collection[], span: Span): Collection[] {
  return all
    .filter((c) => c.at < span.to && c.at + c.duration > span.from)
    .map((c) => {
      const from = Math.max(c.at, span.from);
      return { ...c, at: from, duration: Math.min(c.at + c.duration, span.to) - from };
    });
}

/** `probe` with its collections: those of its run, and those within its longest delay. */
export function withCollections(probe: Probe, all: readonly Collection[]): Probe {
  const during = all.filter((c) => c.at < probe.window.to && c.at + c.duration > probe.window.from);
  return {
    ...probe,
    gc: gcFigures(during),
    ...(probe.longestWindow
      ? {
          longestGcMs: collectionsWithin(all, probe.longestWindow).reduce((sum, c) => sum + c.duration, 0),
        }
      : {}),
  };
}

export interface GcFigures {
  count: number;
  longestMs: number;
  youngLongestMs: number;
  totalMs: number;
}

/** A 'gc' performance entry of this process as a `Collection`. */
function collectionOf(e: PerformanceEntry): Collection {
  const kind = (e as { detail?: { kind?: number } }).detail?.kind;
  return {
    at: performance.timeOrigin + e.startTime,
    duration: e.duration,
    young: kind === perfConstants.NODE_PERFORMANCE_GC_MINOR,
  };
}

/** The collections summed up. */
export function gcFigures(collections: readonly Collection[]): GcFigures {
  return {
    count: collections.length,
    longestMs: Math.max(0, ...collections.map((c) => c.duration)),
    youngLongestMs: Math.max(0, ...collections.filter((c) => c.young).map((c) => c.duration)),
    totalMs: collections.reduce((sum, c) => sum + c.duration, 0),
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
  let longestWindow: (Span & { delay: number }) | undefined;
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
        if (!longestWindow || delay > longestWindow.delay) {
          const to = machineNow();
          longestWindow = { from: to - delay, to, delay };
        }
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
  const from = machineNow();
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
  const probe: Probe = {
    maxMs,
    hostLateMs,
    calls,
    overFrame: delays.filter((d) => d > 16).length,
    p99Ms,
    ...coreRun,
    window: { from, to: machineNow() },
    ...(longestWindow ? { longestWindow: { from: longestWindow.from, to: longestWindow.to } } : {}),
  };
  return gcObserver ? withCollections(probe, collections.map(collectionOf)) : probe;
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
      `the longest young one ${round(p.gc.youngLongestMs, 1)} ms` +
      (p.longestGcMs === undefined ? '' : `, ${round(p.longestGcMs, 1)} ms of them within the longest delay`)
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
    let initial = await probeDuring(host, () => syncNow(host.dispatch));
    const syncSeconds = round((performance.now() - t0) / 1000, 1);
    await service.setDelay(RTT_MS);
    let done: Probe[] = [];
    for (let i = 0; i < pulls; i++) done.push(await probeDuring(host, () => syncNow(host.dispatch)));
    await host.close();
    // The core's own process wrote its collections as it left.
    const first = host.collections?.();
    if (first) {
      initial = withCollections(initial, first);
      done = done.map((p) => withCollections(p, first));
    }
    log(`${arrangement}: initial sync ${syncSeconds} s: ${describe(initial)}`);
    done.forEach((pull, i) => log(`${arrangement}: pull ${i + 1}: ${describe(pull)}`));
    // The first pull after a start: the host opens the account and pulls at once.
    host = await openHost(arrangement, dataDir);
    let firstPull = await probeDuring(host, () => syncNow(host.dispatch));
    await host.close();
    const second = host.collections?.();
    if (second) firstPull = withCollections(firstPull, second);
    log(`${arrangement}: first pull after a start: ${describe(firstPull)}`);
    return { initial, pulls: done, firstPullAfterStart: firstPull };
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
        if (m.initial.longestGcMs !== undefined)
          figures[`${key}InitialSyncLongestDelayGcMs`] = round(m.initial.longestGcMs, 1);
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
