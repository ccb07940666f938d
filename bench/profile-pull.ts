// Profiles the steady pull (not a bench scenario): npx tsx bench/profile-pull.ts [TASKS]
// Syncs a generated workspace over loopback, sets +50 ms, then takes a CPU profile of no-change
// pulls and of the first pull after a restart; prints per pull its CPU time and longest event-loop
// block (monitorEventLoopDelay), then self time by function and the longest stretches without an
// idle sample, with what ran in each. A stretch may hold several blocks (a yield to a loop with
// nothing else waiting shows no idle sample), and on a loaded machine samples also count time the
// thread waited for a core: the block figure is the one to quote. Profiles are written to
// /tmp/pullprof/ for Chrome's DevTools. `--changed N[,M...]`: instead, profiles a pull after N
// tasks changed on the service (a comment each, as the steady-pull scenario changes them), one
// profile per N, each after a no-change pull that settles the cache (profiled too, to compare
// phase by phase); `--figures` measures the changed pulls without a profile. Functions are named
// by their line in the source (the source maps tsx registers), and each sample is also given to
// the innermost function of ours on its stack, with what it called outside src/ (SQLite, hashing,
// buffers).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { findSourceMap } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEngine, type Engine } from '../src/main/core/engine';
import { connectionOf, startServiceProcess } from './lib/service-process';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

function analyse(label: string, profile: Profile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const names = new Map<Node, string>();
  const name = (n: Node): string => {
    const known = names.get(n);
    if (known !== undefined) return known;
    const { functionName, url, lineNumber, columnNumber } = n.callFrame;
    // tsx's output is one line a module or so: the line in the source, through its source map.
    const line = url.startsWith('file:')
      ? (findSourceMap(url)?.findEntry(lineNumber, columnNumber) as { originalLine?: number } | undefined)
          ?.originalLine
      : undefined;
    const named = `${functionName || '(anon)'} ${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${(line ?? lineNumber) + 1}`;
    names.set(n, named);
    return named;
  };
  const self = new Map<string, number>();
  /** Self time given to the innermost function of ours on the stack (what it called included). */
  const ours = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  // runs of non-idle samples
  const runs: { start: number; ms: number; samples: number[] }[] = [];
  let cur: { start: number; ms: number; samples: number[] } | null = null;
  let t = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    t += (profile.timeDeltas[i] ?? 0) / 1000;
    const n = byId.get(id)!;
    const idle = n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)';
    if (!idle) {
      busy += dt;
      self.set(name(n), (self.get(name(n)) ?? 0) + dt);
      let own = name(n);
      for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
        const frame = byId.get(p)!;
        if (frame.callFrame.url.includes('/src/')) {
          own = name(frame);
          break;
        }
      }
      ours.set(own, (ours.get(own) ?? 0) + dt);
      const seen = new Set<string>();
      for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
        const k = name(byId.get(p)!);
        if (!seen.has(k)) total.set(k, (total.get(k) ?? 0) + dt);
        seen.add(k);
      }
      if (!cur) cur = { start: t, ms: 0, samples: [] };
      cur.ms += dt;
      cur.samples.push(id);
    } else if (cur) {
      runs.push(cur);
      cur = null;
    }
  });
  if (cur) runs.push(cur);
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([f, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${f}`);
  console.log(`\n=== ${label}: busy ${busy.toFixed(0)} ms (samples)`);
  console.log('self:');
  console.log(top(self, 30).join('\n'));
  console.log('self, with what it called outside src/ (the innermost src function on the stack):');
  console.log(top(ours, 40).join('\n'));
  console.log('total (inclusive), src only:');
  console.log(top(new Map([...total].filter(([k]) => k.includes('src/'))), 30).join('\n'));
  runs.sort((a, b) => b.ms - a.ms);
  for (const r of runs.slice(0, 4)) {
    console.log(`-- block of ${r.ms.toFixed(1)} ms at ${r.start.toFixed(0)} ms`);
    const m = new Map<string, number>();
    for (const id of r.samples) {
      // deepest src frame of the stack, and its own name
      let k = name(byId.get(id)!);
      for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
        const nn = byId.get(p)!;
        if (nn.callFrame.url.includes('/src/')) {
          k = `${name(nn)}  <- ${k}`;
          break;
        }
      }
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    console.log(
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([f, c]) => `   ${c} samples  ${f}`)
        .join('\n'),
    );
  }
}

async function main(): Promise<void> {
  const tasks = Number(process.argv[2] ?? 20_000);
  // `--pulls N`: N no-change pulls and N first pulls after a restart, figures only (no profile).
  const at = process.argv.indexOf('--pulls');
  const unprofiled = at > 0 ? Number(process.argv[at + 1]) : 0;
  // `--figures`: with `--changed`, the pulls' figures only (a profile's sampling costs CPU too).
  const figuresOnly = process.argv.includes('--figures');
  const changedAt = process.argv.indexOf('--changed');
  const changed =
    changedAt > 0
      ? (process.argv[changedAt + 1] ?? '')
          .split(',')
          .map(Number)
          .filter((n) => n > 0)
      : [];
  const service = await startServiceProcess(
    { projects: Math.max(10, Math.round(tasks / 100)), tasks, messagesPerTask: 3, seed: 1 },
    0,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'profile-pull-'));
  const open = () =>
    createEngine({
      dataDir,
      connection: connectionOf(service, 120_000),
      autoStart: false,
      sync: { concurrency: 6 },
    });
  let engine: Engine = await open();
  const figures: Record<string, [cpuMs: number, blockMs: number][]> = {};
  mkdirSync('/tmp/pullprof', { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  const pull = async (label: string, profile: boolean) => {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    if (profile) await session.post('Profiler.start');
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const s = await engine.sync.now();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    h.disable();
    if (s.lastError) throw new Error(s.lastError);
    (figures[label.replace(/ \d+$/, '')] ??= []).push([(cpu.user + cpu.system) / 1000, h.max / 1e6 - 1]);
    console.log(
      `${label}: cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, wall ${wall.toFixed(0)} ms, longest block ${(h.max / 1e6 - 1).toFixed(0)} ms`,
    );
    if (profile) {
      const { profile: p } = (await session.post('Profiler.stop')) as { profile: Profile };
      writeFileSync(`/tmp/pullprof/${label.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(p));
      analyse(label, p);
    }
  };
  try {
    await pull('initial sync (loopback)', false);
    await service.setDelay(50);
    await pull('settling pull', false);
    if (changed.length) {
      for (const n of changed) {
        await pull(`no change before ${n} changed`, !figuresOnly);
        const done = await service.changeTasks(n / tasks);
        await pull(`${done} tasks changed`, !figuresOnly);
      }
      return;
    }
    if (unprofiled) {
      for (let i = 0; i < unprofiled; i++) await pull(`no change ${i}`, false);
      for (let i = 0; i < unprofiled; i++) {
        await engine.close();
        engine = await open();
        await pull(`first after restart ${i}`, false);
      }
      for (const [label, runs] of Object.entries(figures)) {
        const sorted = (k: 0 | 1) => runs.map((r) => r[k]).sort((a, b) => a - b);
        const med = (v: number[]) => v[Math.floor((v.length - 1) / 2)]!.toFixed(0);
        const cpu = sorted(0);
        const block = sorted(1);
        console.log(
          `${label} (${runs.length}): cpu median ${med(cpu)} (${cpu[0]!.toFixed(0)}–${cpu.at(-1)!.toFixed(0)}) ms, longest block median ${med(block)} (${block[0]!.toFixed(0)}–${block.at(-1)!.toFixed(0)}) ms`,
        );
      }
      return;
    }
    await pull('no change 1', true);
    await pull('no change 2', true);
    await pull('no change 3', false);
    await engine.close();
    engine = await open();
    await pull('first after restart', true);
  } finally {
    await engine.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
