// npx tsx bench/startup-trace.ts [--runs N] [--reopened] [--page-profile] [--cpu-prof DIR] [--watch FILE]
// The start-up scenario's first rows, traced step by step (bench/lib/startup-trace.ts) on the
// same 20,000-task cache, filled once by the app's own sync. `--page-profile` samples the page's
// script (build with `--no-minify` to read its names); `--cpu-prof DIR` starts the host with
// Node's `--cpu-prof` writing its profile into DIR. With `--watch FILE` the service and the data
// folder are kept, and the traces run again each time FILE appears (it is removed): it holds the
// next round's options (`--runs 1 --page-profile`), or `stop`. So a change to the renderer or the
// host (`node scripts/build.mjs --renderer-only --web`) is traced without filling the cache again.
// Each start also records Chromium's own trace of the page's main thread (bench/lib/main-thread.ts):
// how long it was busy from navigation start to the rows painted, and its longest tasks. With
// `--reopened` the app is left on My Work first, and each start reopens there (no click).
// A tool to look with, not a benchmark.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../tests/e2e/support/browser';
import { startServiceProcess } from './lib/service-process';
import { describeTrace, traceFirstRows } from './lib/startup-trace';
import { describeMainThread, readMainThread, startMainThreadTrace } from './lib/main-thread';
import { leaveOn, prepare, reopenedRows, SIZE, startHost } from './scenarios/startup';
import { showMyWork } from './lib/app-page';
import { loadAverage } from './lib/machine';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

const options = {
  runs: { type: 'string' },
  watch: { type: 'string' },
  'cpu-prof': { type: 'string' },
  'page-profile': { type: 'boolean' },
  reopened: { type: 'boolean' },
  other: { type: 'string' },
} as const;
let { values } = parseArgs({ options, strict: true });
function runsOf(given: string | undefined): number {
  const runs = Number(given ?? 3);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs: expected a whole number ≥ 1, got "${given}"`);
  return runs;
}
const log = (m: string): void => console.log(m);

interface Profile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
    children?: number[];
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The page's functions with the most self time, and with the most time including callees. */
function printProfile(profile: Profile): void {
  const interval =
    (profile.timeDeltas ?? []).reduce((a, b) => a + b, 0) /
    Math.max(1, profile.timeDeltas?.length ?? 1) /
    1000;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    self.set(name(n.id), (self.get(name(n.id)) ?? 0) + hits);
    const seen = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const key = name(id);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + hits);
    }
  }
  const ms = (hits: number) => `${Math.round(hits * interval)}`.padStart(6);
  log(`  page script, self time (ms, sampled):`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) log(`  ${ms(v)}  ${k}`);
  log(`  page script, total time (ms, sampled):`);
  for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 45)) log(`  ${ms(v)}  ${k}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'startup-trace-'));
const service = await startServiceProcess(SIZE);
const browser = await launchBrowser();
try {
  await prepare(dataDir, service, log);
  // A start that leaves the app on My Work, so that each reopened start opens there.
  const leaveOnMyWork = async (): Promise<void> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const host = await startHost(dataDir, 'bundle');
    try {
      await showMyWork(page, host.url);
      await leaveOn(page, dataDir, 'mywork');
    } finally {
      await page.close();
      await host.stop();
    }
  };
  let leftOnMyWork = false;
  for (;;) {
    log(
      `load average ${loadAverage()
        .map((l) => l.toFixed(2))
        .join(' / ')}`,
    );
    const rows = new Map<string, number[]>();
    const afterAddress = new Map<string, number[]>();
    const runs = runsOf(values.runs);
    // With --other TREE (a tree with its own out/web and out/renderer built), each run starts that
    // tree's host too, in alternating order, on the same cache: a side by side of the same steps.
    const trees = values.other ? [ROOT, values.other] : [ROOT];
    if (values.reopened && !leftOnMyWork) {
      await leaveOnMyWork();
      leftOnMyWork = true;
    }
    const busy = new Map<string, number[]>();
    for (let i = 0; i < runs * trees.length; i++) {
      const tree = trees[(i + Math.floor(i / trees.length)) % trees.length]!;
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const t0 = performance.now();
      const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
      const host = await startHost(dataDir, 'bundle', nodeArgs, tree);
      try {
        const ready = performance.now() - t0;
        const pageStart = performance.now() - t0;
        const cdp = values['page-profile'] ? await page.context().newCDPSession(page) : undefined;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
          await cdp.send('Profiler.start');
        }
        const tracing = await startMainThreadTrace(page);
        let pageRows: number;
        /** Reopened: the end of the frame that painted the first row, noted in the page. */
        let painted: number | undefined;
        let trace: Awaited<ReturnType<typeof traceFirstRows>> | undefined;
        if (values.reopened) ({ rowsMs: pageRows, paintedMs: painted } = await reopenedRows(page, host.url));
        else {
          trace = await traceFirstRows(page, host.url);
          pageRows = trace.rowsMs;
        }
        const total = performance.now() - t0;
        if (cdp) printProfile(((await cdp.send('Profiler.stop')) as { profile: Profile }).profile);
        const main = await readMainThread(tracing, page, painted ?? pageRows);
        busy.set(tree, [...(busy.get(tree) ?? []), main.busyMs]);
        rows.set(tree, [...(rows.get(tree) ?? []), total]);
        afterAddress.set(tree, [...(afterAddress.get(tree) ?? []), total - ready]);
        log(
          `run ${i + 1} (${tree}): address ${Math.round(ready)} ms, first rows ${Math.round(total)} ms (process spawn = 0)` +
            `; html asked for → rows ${Math.round(pageRows)} ms (page clock)` +
            (painted === undefined ? '' : `, the first row's frame painted ${Math.round(painted)} ms`),
        );
        if (trace) for (const line of describeTrace(trace, pageStart)) log(`  ${line}`);
        for (const line of describeMainThread(main)) log(`  ${line}`);
      } finally {
        await page.close();
        await host.stop();
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    for (const tree of trees) {
      const all = rows.get(tree) ?? [];
      const after = afterAddress.get(tree) ?? [];
      log(
        `${tree}: first rows median ${Math.round(median(all))} ms (${all.map(Math.round).join(', ')}); ` +
          `address to rows median ${Math.round(median(after))} ms (${after.map(Math.round).join(', ')}); ` +
          `page's main thread busy median ${Math.round(median(busy.get(tree) ?? []))} ms (${(busy.get(tree) ?? []).map(Math.round).join(', ')})`,
      );
    }
    log(`load average at the end ${loadAverage().join(' / ')}`);
    if (!values.watch) break;
    while (!existsSync(values.watch)) await new Promise((r) => setTimeout(r, 500));
    // FILE holds `stop`, or the options of the next round (`--runs 1 --page-profile`).
    const next = readFileSync(values.watch, 'utf8').trim();
    rmSync(values.watch);
    if (next === 'stop') break;
    values = {
      watch: values.watch,
      ...parseArgs({ args: next.split(/\s+/).filter(Boolean), options, strict: true }).values,
    };
  }
} finally {
  await browser.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
