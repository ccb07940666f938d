import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderChart, type Chart } from './lib/chart';
import { deriveHeadlines } from './lib/headlines';
import { childrenCpuMs, machine, loadAverage } from './lib/machine';
import { markdown, updateReadme, type Report, type RunMeta } from './lib/report';
import { round, spread, type Spread } from './lib/stats';
import type { Figures, Headline, Scenario } from './lib/types';

/**
 * npm run bench [-- --quick] [-- --readme] [-- --add] [-- name ...]: runs every scenario module in
 * bench/scenarios (each exports `scenario: Scenario`), or those named, each in its own child
 * process (one cannot skew the next: heap, JIT, open handles, leftover servers), and writes
 * bench/results/latest.json, latest.md and the charts (*.svg). `--readme` also replaces the
 * Performance section of README.md with the summary; `--add` keeps the other scenarios of
 * the last results (re-running one scenario); `--readme-only` rewrites that section from the
 * last results without running anything. The process fails only when a scenario
 * errors or overruns its time limit; no figure is checked against a threshold.
 */
const here = dirname(fileURLToPath(import.meta.url));
const scenariosDir = join(here, 'scenarios');
const resultsDir = join(here, 'results');

/**
 * Runner-level repeats (separate child processes) for scenarios that measure one run of each
 * figure; the others repeat inside (paired rounds, several launches) and run once here.
 */
const RUNS: Record<string, { full: number; quick: number }> = {
  'cache-reads': { full: 3, quick: 1 },
  'outbox-drain': { full: 3, quick: 1 },
};

/** A child that overruns this is killed with its process group and reported as an error. */
const LIMIT_MS: Record<string, { full: number; quick: number }> = {
  scaling: { full: 1_500_000, quick: 180_000 },
  startup: { full: 900_000, quick: 600_000 },
  sync: { full: 900_000, quick: 180_000 },
  // Syncs 20,000 tasks over loopback, then pulls; then syncs 1,000 to 50,000 for the curves.
  'steady-pull': { full: 1_500_000, quick: 180_000 },
  // Syncs a 10,000-task project into the app, then scrolls it top to bottom (850 frames).
  renderer: { full: 900_000, quick: 240_000 },
  // Syncs a 20,000-task workspace, then 1,000 comments and a second pull.
  inbox: { full: 900_000, quick: 240_000 },
  // Syncs a 20,000-task workspace twice (core in process, core in its own process), with pulls.
  'ipc-during-pull': { full: 1_500_000, quick: 300_000 },
};
const DEFAULT_LIMIT_MS = { full: 240_000, quick: 90_000 };

/** What one child run sends back. */
interface RunResult {
  figures: Figures;
  tables: Report['tables'];
  charts: Chart[];
  headlines: Headline[];
  error?: string;
}

async function childMain(file: string, quick: boolean): Promise<void> {
  const mod = (await import(pathToFileURL(join(scenariosDir, file)).href)) as { scenario?: Scenario };
  const scenario = mod.scenario;
  const out: RunResult = { figures: {}, tables: [], charts: [], headlines: [] };
  try {
    if (!scenario) throw new Error(`${file} does not export a scenario`);
    out.figures = await scenario.run({
      quick,
      log: (message) => process.stdout.write(`[${scenario.name}] ${message}\n`),
      table: (columns, rows) => out.tables.push({ columns, rows }),
      chart: (chart) => out.charts.push(chart),
      headline: (line) => out.headlines.push(line),
    });
  } catch (err) {
    out.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  process.send?.(out, () => process.exit(0));
}

function runChild(file: string, quick: boolean, limitMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', file, ...(quick ? ['--quick'] : [])], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Its own process group, so a timeout ends the scenario's own children (services, browsers) too.
      detached: true,
    });
    let result: RunResult | undefined;
    const timer = setTimeout(() => {
      result = {
        figures: {},
        tables: [],
        charts: [],
        headlines: [],
        error: `timed out after ${limitMs / 1000} s`,
      };
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, limitMs);
    child.on('message', (m: RunResult) => (result ??= m));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(
        result ?? {
          figures: {},
          tables: [],
          charts: [],
          headlines: [],
          error: `child exited with ${signal ?? code} before reporting`,
        },
      );
    });
  });
}

/** CPU time the scenario's processes used: with the wall time, how much of it was waiting. */
function cpuSince(before: number | undefined): { cpuMs?: number } {
  const now = childrenCpuMs();
  return before === undefined || now === undefined ? {} : { cpuMs: now - before };
}

/** Numeric figures over several runs: median, min and max of each. */
function combine(runs: RunResult[]): Record<string, Spread> {
  const keys = new Set(runs.flatMap((r) => Object.keys(r.figures)));
  const out: Record<string, Spread> = {};
  for (const key of keys) {
    const values = runs.map((r) => r.figures[key]).filter((v): v is number => typeof v === 'number');
    if (values.length > 0) out[key] = spread(values);
  }
  return out;
}

async function scenarioNames(): Promise<string[]> {
  const names: string[] = [];
  for (const f of readdirSync(scenariosDir).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))) {
    const { scenario } = (await import(pathToFileURL(join(scenariosDir, f)).href)) as { scenario?: Scenario };
    if (scenario) names.push(scenario.name);
  }
  return names;
}

function previousReports(): Report[] {
  try {
    const parsed = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8')) as {
      scenarios?: Report[];
    };
    return parsed.scenarios ?? [];
  } catch {
    return [];
  }
}

function write(meta: RunMeta, reports: Report[]): string {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'latest.json'),
    `${JSON.stringify({ ...meta, scenarios: reports }, null, 2)}\n`,
  );
  const md = markdown(meta, reports);
  writeFileSync(join(resultsDir, 'latest.md'), md);
  return md;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return childMain(args[1]!, args.includes('--quick'));
  if (args.includes('--readme-only')) {
    // The README section from the last results, without measuring anything.
    const last = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8')) as RunMeta & {
      scenarios: Report[];
    };
    const readme = join(here, '..', 'README.md');
    const names = await scenarioNames();
    const missing = names.filter((n) => !last.scenarios.some((r) => r.name === n));
    writeFileSync(readme, updateReadme(readFileSync(readme, 'utf8'), last, last.scenarios, missing));
    return;
  }
  const quick = args.includes('--quick');
  const only = args.filter((a) => !a.startsWith('--'));
  const files = readdirSync(scenariosDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  const meta: RunMeta = { date: new Date().toISOString(), quick, machine: machine() };
  const started = performance.now();
  // The load through the run, not only at its ends: other people's work comes and goes.
  const loadSamples: number[] = [loadAverage()[0] ?? 0];
  const sampler = setInterval(() => loadSamples.push(loadAverage()[0] ?? 0), 10_000);
  sampler.unref();
  const during = (): NonNullable<RunMeta['loadDuring']> => ({
    mean: round(loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length, 2),
    max: Math.max(...loadSamples),
    samples: loadSamples.length,
  });
  // `--add`: keep the other scenarios of the last results and replace only those run now.
  const kept: Report[] = args.includes('--add') ? previousReports() : [];
  const reports: Report[] = [];
  const all = (): Report[] => [...kept.filter((k) => !reports.some((r) => r.name === k.name)), ...reports];
  for (const file of files) {
    const { scenario } = (await import(pathToFileURL(join(scenariosDir, file)).href)) as {
      scenario?: Scenario;
    };
    if (!scenario) throw new Error(`${file} does not export a scenario`);
    if (only.length > 0 && !only.includes(scenario.name)) continue;
    if (quick && !scenario.quick) continue;
    const mode = quick ? 'quick' : 'full';
    const times = RUNS[scenario.name]?.[mode] ?? 1;
    const limit = LIMIT_MS[scenario.name]?.[mode] ?? DEFAULT_LIMIT_MS[mode];
    const loadBefore = loadAverage();
    const t0 = performance.now();
    const cpu0 = childrenCpuMs();
    const runs: RunResult[] = [];
    for (let i = 0; i < times; i++) {
      process.stdout.write(`[${scenario.name}] run ${i + 1}/${times} (load average ${loadBefore[0]})\n`);
      const r = await runChild(file, quick, limit);
      runs.push(r);
      if (r.error) {
        process.stdout.write(`[${scenario.name}] FAILED: ${r.error}\n`);
        break;
      }
    }
    const ok = runs.filter((r) => !r.error);
    const last = ok[ok.length - 1] ?? runs[runs.length - 1]!;
    const spreads = combine(ok);
    const figures: Figures = { ...last.figures };
    for (const [k, s] of Object.entries(spreads)) figures[k] = s.median;
    const own = last.headlines;
    const report: Report = {
      name: scenario.name,
      ...(scenario.description ? { description: scenario.description } : {}),
      runs: ok.length,
      figures,
      ...(ok.length > 1 ? { spreads } : {}),
      tables: last.tables,
      headlines: own.length > 0 ? own : deriveHeadlines(scenario.name, spreads, last, ok.length),
      charts: [],
      loadAverage: { before: loadBefore, after: loadAverage() },
      durationMs: Math.round(performance.now() - t0),
      ...cpuSince(cpu0),
      ...(runs.find((r) => r.error) ? { error: runs.find((r) => r.error)!.error! } : {}),
    };
    mkdirSync(resultsDir, { recursive: true });
    for (const chart of last.charts) {
      writeFileSync(join(resultsDir, `${chart.file}.svg`), renderChart(chart));
      report.charts.push({ file: `${chart.file}.svg`, title: chart.title });
    }
    reports.push(report);
    process.stdout.write(
      `[${scenario.name}] wall time ${(report.durationMs / 1000).toFixed(1)} s (load average ${loadBefore[0]} → ${report.loadAverage.after[0]})\n`,
    );
    // Written after every scenario, so an interrupted run still leaves what it measured.
    write(
      {
        ...meta,
        loadAverageEnd: loadAverage(),
        loadDuring: during(),
        totalMs: Math.round(performance.now() - started),
      },
      all(),
    );
  }
  clearInterval(sampler);
  meta.loadAverageEnd = loadAverage();
  meta.loadDuring = during();
  meta.totalMs = Math.round(performance.now() - started);
  const md = write(meta, all());
  process.stdout.write(md);
  if (args.includes('--readme')) {
    const readme = join(here, '..', 'README.md');
    writeFileSync(readme, updateReadme(readFileSync(readme, 'utf8'), meta, all()));
  }
  if (reports.some((r) => r.error)) process.exitCode = 1;
}

void main();
