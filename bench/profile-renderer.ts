// Where the renderer's time goes on the benchmark's 10,000-task project: the same setup and the
// same navigation and scroll as `bench/scenarios/renderer.ts`, measured with Chromium's own
// counters (CDP Performance.getMetrics: script, style recalculation, layout). With `--trace`,
// the main thread's self time per trace event while scrolling (script, style, layout, paint,
// commit...); with `--profile`, the JavaScript functions with the most self time while
// scrolling (`node scripts/build.mjs --renderer-only --no-minify` first, to read their names).
// Not a benchmark (no figures to compare with aims): a tool to look with.
//   npx tsx bench/profile-renderer.ts [--tasks 10000] [--profile] [--trace]
import type { CDPSession, Page } from 'playwright-core';
import {
  leaveProject,
  navigationToFirstRows,
  openRendererBench,
  scrollFrames,
  waitForWholeList,
} from './scenarios/renderer';
import { selfTimes, type TraceEvent } from './lib/trace';

const COUNTERS = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'] as const;
const COUNTS = ['RecalcStyleCount', 'LayoutCount', 'Nodes', 'JSEventListeners'] as const;

/** Runs `step` under Chromium's tracing and prints the main thread's self time per event. */
async function traced(page: Page, what: string, step: () => Promise<void>): Promise<void> {
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'],
  });
  await step();
  const buffer = await browser.stopTracing();
  const parsed = JSON.parse(buffer.toString()) as { traceEvents?: TraceEvent[] };
  const times = selfTimes(parsed.traceEvents ?? []);
  const busy = times.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`main thread self time while ${what} (ms; ${busy} busy in all):`);
  for (const [name, ms] of times.slice(0, 16)) console.log(`${String(ms).padStart(7)}  ${name}`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

async function metrics(cdp: CDPSession): Promise<Map<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return new Map(list.map((m) => [m.name, m.value]));
}

/** Runs `step` and answers how Chromium's main thread spent its time meanwhile (ms). */
async function measure(cdp: CDPSession, step: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await metrics(cdp);
  await step();
  const after = await metrics(cdp);
  const out: Record<string, number> = {};
  for (const name of COUNTERS)
    out[name] = Math.round(((after.get(name) ?? 0) - (before.get(name) ?? 0)) * 1000);
  for (const name of COUNTS)
    out[name] = (after.get(name) ?? 0) - (name.endsWith('Count') ? (before.get(name) ?? 0) : 0);
  return out;
}

/** Runs `step` under V8's sampling profiler and prints the functions with the most self time. */
async function profiled(cdp: CDPSession, what: string, step: () => Promise<void>): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await step();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + hits);
  }
  console.log(`script self time while ${what} (share of samples):`);
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [key, hits] of top) console.log(`${((100 * hits) / total).toFixed(1).padStart(5)} %  ${key}`);
}

const args = process.argv.slice(2);
const tasksArg = args.indexOf('--tasks');
const tasks = tasksArg >= 0 ? Number(args[tasksArg + 1]) : 10_000;
const trace = args.includes('--trace');
const profile = args.includes('--profile');
const bench = await openRendererBench(tasks, (line) => console.log(line));
try {
  const { page, projectName } = bench;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const navigation: Record<string, number>[] = [];
  const times: number[] = [];
  const navigateAll = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) {
      await leaveProject(page);
      navigation.push(
        await measure(cdp, async () => times.push(await navigationToFirstRows(page, projectName))),
      );
    }
  };
  await (profile ? profiled(cdp, 'navigating (and leaving)', navigateAll) : navigateAll());
  console.log('navigation → first rows painted (ms):', times.map((t) => Math.round(t)).join(', '));
  console.table(navigation);
  if (trace) {
    // One more navigation, traced: what the main thread did, and how long it waited (the IPC).
    await leaveProject(page);
    await traced(page, 'navigating', async () => {
      console.log(`traced navigation: ${Math.round(await navigationToFirstRows(page, projectName))} ms`);
    });
  }
  await waitForWholeList(page, tasks);
  let frames: number[] = [];
  const scrollAll = async (): Promise<void> => {
    frames = await scrollFrames(page, 400);
  };
  const scroll = await measure(cdp, () =>
    trace
      ? traced(page, 'scrolling', scrollAll)
      : profile
        ? profiled(cdp, 'scrolling', scrollAll)
        : scrollAll(),
  );
  const sortedFrames = [...frames].sort((a, b) => a - b);
  console.log(
    `scroll: ${frames.length} frames, p50 ${sortedFrames[Math.floor(frames.length / 2)]?.toFixed(1)} ms, p95 ${sortedFrames[Math.floor(frames.length * 0.95)]?.toFixed(1)} ms`,
  );
  console.table([scroll]);
} finally {
  await bench.close();
}
