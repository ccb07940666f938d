// The core's long turns during a new account's first sync (not a bench scenario):
//   npx tsx bench/long-turns.ts [TREE] [--tasks N] [--profile]
// TREE (default: this one) is the repository whose core and service are run, so two trees can
// be run alternately with the same probe. The core runs in this process (as the web host runs
// it) on the generated workspace of `ipc-during-pull` (20,000 tasks, 200 projects, 3 messages a
// task; the service in its own process), and an immediate that schedules itself again marks
// each turn of the event loop. For every turn longer than 16 ms it notes the wall time and the
// main thread's own CPU time in it (from /proc/self/task/<pid>/schedstat, which counts only
// this thread: not the service, not the thread pool, not V8's helper threads), so a turn spent
// waiting for a core (wall long, CPU short) is told apart from the core's own work.
// Prints: turns in all; turns over 16 ms of wall; of those, turns over 16 ms of the thread's CPU
// ("own long turns"), the longest wall and CPU; and with `--profile` (a V8 CPU profile of the
// sync, sampled every 250 µs) what ran in each of the 15 longest own turns (the functions of
// ours with the most samples in it, and garbage collection's).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as EngineModule from '../src/main/core/engine';
import type * as ServiceModule from './lib/service-process';

const LONG_MS = 16;
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const valueOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const tree = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--tasks') ?? '.');
const tasks = Number(valueOf('--tasks') ?? 20_000);
const profiling = flag('--profile');

/** The main thread's time on a core, in ms (the first field of schedstat is nanoseconds). */
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
const threadCpuMs = (): number => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Turn {
  start: number;
  wall: number;
  cpu: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** What ran in a turn: the functions of ours (src/) with the most samples, and GC's. */
function namer(profile: Profile) {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (n: ProfileNode): string => {
    const { functionName, url, lineNumber, columnNumber } = n.callFrame;
    if (functionName === '(garbage collector)') return 'GC';
    const line = url.startsWith('file:')
      ? (findSourceMap(url)?.findEntry(lineNumber, columnNumber) as { originalLine?: number } | undefined)
          ?.originalLine
      : undefined;
    return `${functionName || '(anon)'} ${url.replace(/^.*\/src\//, '')}:${(line ?? lineNumber) + 1}`;
  };
  /** The innermost frame of ours on a sample's stack (or GC, or "other"). */
  const oursOf = (id: number): string => {
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(garbage collector)') return 'GC';
    if (leaf.callFrame.functionName === '(idle)') return 'idle';
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at)!;
      if (n.callFrame.url.includes('/src/')) return label(n);
    }
    return label(leaf);
  };
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d) / 1000);
  return (from: number, to: number): string => {
    const counts = new Map<string, number>();
    for (let i = 0; i < times.length; i++) {
      if (times[i]! < from || times[i]! > to) continue;
      const name = oursOf(profile.samples[i]!);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const all = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, n]) => `${name} ${Math.round((100 * n) / all)}%`)
      .join('; ');
  };
}

async function main(): Promise<void> {
  const { createEngine } = (await import(join(tree, 'src/main/core/engine.ts'))) as typeof EngineModule;
  const { connectionOf, startServiceProcess } = (await import(
    join(tree, 'bench/lib/service-process.ts')
  )) as typeof ServiceModule;
  const service = await startServiceProcess(
    { projects: Math.max(10, Math.round(tasks / 100)), tasks, messagesPerTask: 3, seed: 1 },
    0,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'long-turns-'));
  const engine = await createEngine({
    dataDir,
    connection: connectionOf(service, 120_000),
    autoStart: false,
    sync: { concurrency: 6 },
  });
  const session = new Session();
  try {
    if (profiling) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 250 });
      await session.post('Profiler.start');
    }
    const turns: Turn[] = [];
    let running = true;
    let last = { at: nowMs(), cpu: threadCpuMs() };
    const mark = (): void => {
      const at = nowMs();
      const cpu = threadCpuMs();
      turns.push({ start: last.at, wall: at - last.at, cpu: cpu - last.cpu });
      last = { at, cpu };
      if (running) setImmediate(mark);
    };
    setImmediate(mark);
    const started = nowMs();
    const status = await engine.sync.now();
    running = false;
    const wall = nowMs() - started;
    if (status.lastError) throw new Error(status.lastError);
    const long = turns.filter((t) => t.wall > LONG_MS);
    const own = long.filter((t) => t.cpu > LONG_MS).sort((a, b) => b.cpu - a.cpu);
    console.log(`tree ${tree}: first sync of ${tasks} tasks in ${(wall / 1000).toFixed(1)} s`);
    console.log(
      `turns ${turns.length}; over ${LONG_MS} ms of wall ${long.length} (longest ${Math.max(0, ...long.map((t) => t.wall)).toFixed(1)} ms); ` +
        `own long turns (over ${LONG_MS} ms of the thread's CPU) ${own.length} (longest ${(own[0]?.cpu ?? 0).toFixed(1)} ms of CPU)`,
    );
    if (profiling) {
      const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
      const name = namer(profile);
      for (const t of own.slice(0, 15)) {
        console.log(
          `  +${((t.start - started) / 1000).toFixed(2)} s: wall ${t.wall.toFixed(1)} ms, cpu ${t.cpu.toFixed(1)} ms: ${name(t.start, t.start + t.wall)}`,
        );
      }
    }
  } finally {
    session.disconnect();
    await engine.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
