// The core's memory as the app runs it: the web host started from its bundle (`out/web/web.mjs`,
// what `npm run web` runs; the desktop app runs the same core in a process of its own) on a new
// remote account whose service, with a generated 20,000-task workspace (200 projects, 60,000
// messages), runs in another process. The host's resident memory is read from
// /proc/<pid>/status, so nothing of the measuring process (tsx, the service) is counted:
// - the initial sync over loopback (peak, and what stays once it is done);
// - no-change pulls at +50 ms round trip (peak during each);
// - a restart on that cache: the start, its first pull and the pulls after (peak).
// Peaks are the kernel's high-water mark (VmHWM), reset before each step (`/proc/<pid>/clear_refs`).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { startServiceProcess, writeBenchAccount, type ServiceProcess } from '../lib/service-process';
import { round, spread } from '../lib/stats';
import type { Scenario } from '../lib/types';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const RTT_MS = 50;

interface Host {
  child: ChildProcess;
  /** Calls a channel over the host's bridge, as the page does; throws on an error answer. */
  call(channel: string, arg?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

/** Starts the bundled web host on `dataDir` and connects to its bridge as the page would. */
async function startHost(dataDir: string, nodeArgs: readonly string[]): Promise<Host> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(ROOT, 'out', 'web', 'web.mjs'), '--data', dataDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l));
  const url = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /Workdesk is running at (\S+)/.exec(line);
      if (m) resolve(new URL(m[1]!));
    });
    child.once('exit', (code) =>
      reject(new Error(`web host exited with ${code}: ${stderr.slice(-10).join('\n')}`)),
    );
  });
  const secret = new URLSearchParams(url.hash.slice(1)).get('secret') ?? '';
  const ws = new WebSocket(`ws://${url.host}/bridge?secret=${encodeURIComponent(secret)}`, {
    headers: { origin: url.origin },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as {
      id?: number;
      result?: { ok: boolean; value?: unknown; error?: unknown };
    };
    if (m.id === undefined) return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.result?.ok) w?.resolve(m.result.value);
    else w?.reject(new Error(`bridge call failed: ${JSON.stringify(m.result?.error)}`));
  });
  let next = 1;
  return {
    child,
    call: (channel, arg = {}) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, channel, arg }));
      }),
    stop: () =>
      new Promise<void>((done) => {
        ws.close();
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The process's resident memory now and its high-water mark, in MiB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** The process's CPU time so far (user + system), in ms, from /proc/<pid>/stat (at 100 ticks a second). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resets the high-water mark to the present resident size (Linux `clear_refs` 5). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

interface Status {
  phase: string;
  lastSyncedAt: string | null;
  lastError: string | null;
}

/** Waits until a pull other than the one done at `after` has completed. */
async function pulled(host: Host, after: string | null, timeoutMs = 20 * 60_000): Promise<Status> {
  const t0 = performance.now();
  for (;;) {
    const s = (await host.call('sync.status')) as Status;
    if (s.phase === 'idle' && s.lastSyncedAt !== null && s.lastSyncedAt !== after) return s;
    if (performance.now() - t0 > timeoutMs) throw new Error(`no pull completed: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How long the host is left idle after the pulls that follow its initial sync. */
const IDLE_MS = 45_000;

export const scenario: Scenario = {
  name: 'core-memory',
  description:
    'The web host from its bundle (the core in its process, the service in another) on a new account of a generated 20,000-task workspace (200 projects, 60,000 messages): resident memory of the host process (/proc) at its peak during the initial sync over loopback, after it, during no-change pulls at +50 ms, after 45 s idle and a pull then, and after a restart on that cache (its start and pulls).',
  quick: false,
  async run(ctx) {
    const size = ctx.quick
      ? { projects: 20, tasks: 2_000, messagesPerTask: 3, seed: 1 }
      : { projects: 200, tasks: 20_000, messagesPerTask: 3, seed: 1 };
    const pulls = ctx.quick ? 2 : 3;
    // Extra Node flags for the host (an experiment on the heap's limits, say).
    const nodeArgs = (process.env['WORKDESK_BENCH_HOST_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--web'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const service: ServiceProcess = await startServiceProcess(size, 0);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-core-memory-'));
    try {
      writeBenchAccount(dataDir, service);
      let host = await startHost(dataDir, nodeArgs);
      const pid = () => host.child.pid!;
      const t0 = performance.now();
      let status = await pulled(host, null);
      if (status.lastError) throw new Error(`initial sync failed: ${status.lastError}`);
      const initial = memoryOf(pid());
      const initialCpu = cpuMsOf(pid());
      ctx.log(
        `initial sync of ${size.tasks} tasks in ${round((performance.now() - t0) / 1000, 1)} s, host CPU ${round(initialCpu / 1000, 1)} s: peak ${round(initial.peak, 0)} MiB, after ${round(initial.rss, 0)} MiB`,
      );
      await service.setDelay(RTT_MS);
      const steady: number[] = [];
      const steadyCpu: number[] = [];
      for (let i = 0; i < pulls; i++) {
        resetPeak(pid());
        const cpu0 = cpuMsOf(pid());
        status = (await host.call('sync.now', { wait: true })) as Status;
        if (status.lastError) throw new Error(`pull failed: ${status.lastError}`);
        steady.push(memoryOf(pid()).peak);
        steadyCpu.push(cpuMsOf(pid()) - cpu0);
      }
      const afterPulls = memoryOf(pid()).rss;
      ctx.log(
        `no-change pulls: CPU ${steadyCpu.join(', ')} ms, peak ${steady.map((v) => round(v, 0)).join(', ')} MiB; after ${round(afterPulls, 0)} MiB`,
      );
      // V8 gives back heap it grew only once the process has been idle a while (its memory
      // reducer): the resident size after an idle spell, and a pull's peak after it.
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const afterIdle = memoryOf(pid()).rss;
      resetPeak(pid());
      status = (await host.call('sync.now', { wait: true })) as Status;
      const afterIdlePull = memoryOf(pid()).peak;
      ctx.log(
        `after ${IDLE_MS / 1000} s idle: ${round(afterIdle, 0)} MiB; a pull then peaks at ${round(afterIdlePull, 0)} MiB`,
      );
      await host.stop();

      // A restart on the cache: the host's whole start, its first pull and the next ones.
      host = await startHost(dataDir, nodeArgs);
      const started = memoryOf(pid()).rss;
      status = await pulled(host, status.lastSyncedAt);
      const firstPull = memoryOf(pid()).peak;
      const restartedPulls: number[] = [];
      for (let i = 0; i < pulls; i++) {
        resetPeak(pid());
        status = (await host.call('sync.now', { wait: true })) as Status;
        restartedPulls.push(memoryOf(pid()).peak);
      }
      const afterRestart = memoryOf(pid()).rss;
      await host.stop();
      ctx.log(
        `restart: ${round(started, 0)} MiB at the address, peak ${round(firstPull, 0)} MiB to its first pull's end; pulls after: ${restartedPulls.map((v) => round(v, 0)).join(', ')} MiB; ${round(afterRestart, 0)} MiB after`,
      );

      const s = spread(steady);
      const r = spread(restartedPulls);
      const mib = (figure: string, value: number | ReturnType<typeof spread>, runs = 1) =>
        ctx.headline({
          figure: `core (web host from its bundle) ${figure}, ${size.tasks.toLocaleString('en-US')} tasks (aim ≤ 200 MiB)`,
          unit: 'MiB',
          value:
            typeof value === 'number'
              ? { median: round(value, 0), min: round(value, 0), max: round(value, 0) }
              : value,
          runs,
        });
      mib('peak RSS during the initial sync', initial.peak);
      mib('peak RSS during a no-change pull', s, pulls);
      mib('peak RSS from a restart to its first pull done', firstPull);
      ctx.table(
        ['step', 'RSS MiB'],
        [
          ['initial sync over loopback: peak', round(initial.peak, 0)],
          ['(host CPU time, start and initial sync, ms)', round(initialCpu, 0)],
          ['after the initial sync', round(initial.rss, 0)],
          [
            `no-change pull at +${RTT_MS} ms: peak, median (min–max) of ${pulls}`,
            `${round(s.median, 0)} (${round(s.min, 0)}–${round(s.max, 0)})`,
          ],
          ['after those pulls', round(afterPulls, 0)],
          [`after ${IDLE_MS / 1000} s idle`, round(afterIdle, 0)],
          ['a no-change pull after that: peak', round(afterIdlePull, 0)],
          ['restart: at the address printed', round(started, 0)],
          ['restart: peak to its first pull done', round(firstPull, 0)],
          [
            `restart: no-change pulls after, peak`,
            `${round(r.median, 0)} (${round(r.min, 0)}–${round(r.max, 0)})`,
          ],
        ],
      );
      return {
        tasks: size.tasks,
        initialSyncPeakMb: round(initial.peak, 0),
        initialSyncCpuMs: round(initialCpu, 0),
        pullCpuMs: round(spread(steadyCpu).median, 0),
        afterInitialSyncMb: round(initial.rss, 0),
        pullPeakMb: round(s.median, 0),
        afterPullsMb: round(afterPulls, 0),
        afterIdleMb: round(afterIdle, 0),
        afterIdlePullPeakMb: round(afterIdlePull, 0),
        restartAtAddressMb: round(started, 0),
        restartFirstPullPeakMb: round(firstPull, 0),
        restartPullPeakMb: round(r.median, 0),
        afterRestartMb: round(afterRestart, 0),
      };
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
