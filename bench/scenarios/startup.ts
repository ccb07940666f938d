// Start-up: the web host process (`out/web/web.mjs`, the bundle `npm run web` runs, the renderer
// already built) started on a data folder whose account cache holds a 20,000-task workspace, to the
// first rows of My Work shown in Chromium from that cache. Beside it in each round: the same host
// from its TypeScript source through tsx (how `npm run web` started before the bundle), and the
// floor any such process has: Node running an empty script.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { launchBrowser } from '../../tests/e2e/support/browser';
import { showMyWork } from '../lib/app-page';
import { describeTrace, traceFirstRows } from '../lib/startup-trace';
import { startServiceProcess, writeBenchAccount, type ServiceProcess } from '../lib/service-process';
import { round, spread, type Spread } from '../lib/stats';
import type { Scenario } from '../lib/types';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
export const TASKS = 20_000;
export const SIZE = { projects: 40, tasks: TASKS, messagesPerTask: 1, seed: 31 };

export interface Host {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** How the host is started: the bundle, or its source through tsx. */
type Entry = 'bundle' | 'source';

/** Starts the web host on `--data DIR` and resolves with the address it prints. */
export function startHost(
  dataDir: string,
  entry: Entry = 'bundle',
  nodeArgs: string[] = [],
  tree: string = ROOT,
): Promise<Host> {
  const start =
    entry === 'bundle'
      ? [join(tree, 'out', 'web', 'web.mjs')]
      : ['--import', 'tsx', join(ROOT, 'src', 'main', 'web.ts')];
  const child = spawn(process.execPath, [...nodeArgs, ...start, '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /Workdesk is running at (\S+)/.exec(line);
      if (!m) return;
      resolve({
        child,
        url: m[1]!,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) =>
      reject(new Error(`web host exited with ${code}: ${stderr.slice(-10).join('\n')}`)),
    );
  });
}

/** The account cache files under the data folder (not the bundled service's own database). */
function cacheFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => /(^|\/)cache-[0-9a-f]+\.sqlite$/.test(p))
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).isFile());
}

function counts(file: string): { tasks: number; messages: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('SELECT (SELECT count(*) FROM tasks) AS tasks, (SELECT count(*) FROM messages) AS messages')
      .get() as { tasks: number; messages: number };
  } finally {
    db.close();
  }
}

/**
 * A data folder as a user would have it: a remote account (the service in its own process,
 * one address for the whole scenario) whose cache the app filled by its own sync. The
 * embedded local workspace is not used: its service gets a new port every start, and the
 * cache file is keyed by the address, so it starts from an empty cache each time.
 */
export async function prepare(
  dataDir: string,
  service: ServiceProcess,
  log: (m: string) => void,
): Promise<void> {
  writeBenchAccount(dataDir, service);
  const t0 = performance.now();
  const host = await startHost(dataDir);
  try {
    // The host syncs at start; wait until the cache holds the workspace and stops changing.
    let last = '';
    for (;;) {
      await new Promise((r) => setTimeout(r, 2000));
      const [file] = cacheFiles(dataDir);
      if (!file) continue;
      const c = counts(file);
      const now = JSON.stringify(c);
      if (c.tasks >= TASKS && c.messages >= TASKS && now === last) break;
      last = now;
      if (performance.now() - t0 > 15 * 60_000) throw new Error(`the cache did not fill: ${now}`);
    }
    log(`cache filled by the app's sync in ${round((performance.now() - t0) / 1000, 1)} s: ${last}`);
  } finally {
    await host.stop();
  }
  if (cacheFiles(dataDir).length !== 1) throw new Error('expected one account cache');
}

/** Node running nothing: the part of the start-up no app code can remove. */
function emptyProcess(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-e', ''], { cwd: ROOT, stdio: 'ignore' });
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`empty node exited with ${code}`)),
    );
  });
}

export const scenario: Scenario = {
  name: 'startup',
  description:
    `The web host process (node out/web/web.mjs --data DIR, the bundle) on a data folder with one remote account whose cache holds a ${TASKS.toLocaleString('en-US')}-task workspace (${SIZE.projects} projects, seed ${SIZE.seed}; the service runs in its own process on loopback), filled beforehand by the app's own sync (not timed). ` +
    'Timed from spawning the process to its address printed (host ready) and to the first My Work rows painted in Chromium (page loaded, My Work opened, rows from the cache; the start-up refresh runs meanwhile as it would for a user). ' +
    'Chromium is started once before. Beside it in each round: the same host from its source through tsx (before the bundle), and Node running an empty script (the floor).',
  quick: false,
  async run(ctx) {
    // Each run spawns the web host and Chromium on a 20,000-task cache (15 s or more on a loaded
    // machine); three keep the median within the run's 15-minute bound.
    const runs = ctx.quick ? 2 : 3;
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    const service = await startServiceProcess(SIZE);
    const browser = await launchBrowser();
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--web'], {
        cwd: ROOT,
        stdio: 'ignore',
      });
      await prepare(dataDir, service, ctx.log);
      const times: Record<Entry, { ready: number[]; rows: number[] }> = {
        bundle: { ready: [], rows: [] },
        source: { ready: [], rows: [] },
      };
      const empty: number[] = [];
      for (let i = 0; i < runs; i++) {
        empty.push(await emptyProcess());
        for (const entry of ['bundle', 'source'] as const) {
          const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
          const t0 = performance.now();
          const host = await startHost(dataDir, entry);
          try {
            times[entry].ready.push(performance.now() - t0);
            if (entry === 'bundle') {
              // Where the time after the address goes (process spawn = 0): what the page was
              // served, when its script asked the core for what, and when each answer came.
              const pageStart = performance.now() - t0;
              const trace = await traceFirstRows(page, host.url);
              times[entry].rows.push(performance.now() - t0);
              for (const line of describeTrace(trace, pageStart)) ctx.log(`  ${line}`);
            } else {
              await showMyWork(page, host.url);
              times[entry].rows.push(performance.now() - t0);
            }
          } finally {
            await page.close();
            await host.stop();
          }
        }
        const t = (entry: Entry, what: 'ready' | 'rows') => round(times[entry][what][i]!, 0);
        ctx.log(
          `run ${i + 1}/${runs}: bundle ready ${t('bundle', 'ready')} ms, first rows ${t('bundle', 'rows')} ms; ` +
            `source ready ${t('source', 'ready')} ms, first rows ${t('source', 'rows')} ms (empty node ${round(empty[i]!, 0)} ms)`,
        );
      }
      const r0 = (s: Spread) => ({ median: round(s.median, 0), min: round(s.min, 0), max: round(s.max, 0) });
      const rowsS = spread(times.bundle.rows);
      const readyS = spread(times.bundle.ready);
      const sourceRowsS = spread(times.source.rows);
      const sourceReadyS = spread(times.source.ready);
      const emptyS = spread(empty);
      const ratio = spread(times.bundle.rows.map((v, i) => v / times.source.rows[i]!));
      const r2 = (s: Spread) => ({ median: round(s.median, 2), min: round(s.min, 2), max: round(s.max, 2) });
      ctx.headline({
        figure: `web host start (bundle) to first My Work rows, ${TASKS.toLocaleString('en-US')}-task cache (aim ≤ 600 ms)`,
        unit: 'ms',
        value: r0(rowsS),
        runs,
        baseline: { name: 'the same from its source through tsx', value: r0(sourceRowsS) },
        ratio: r2(ratio),
      });
      ctx.headline({
        figure: 'web host start (bundle) to address printed',
        unit: 'ms',
        value: r0(readyS),
        runs,
        baseline: { name: 'the same from its source through tsx', value: r0(sourceReadyS) },
        ratio: r2(spread(times.bundle.ready.map((v, i) => v / times.source.ready[i]!))),
      });
      const f = (s: Spread) => `${round(s.median, 0)} (${round(s.min, 0)}–${round(s.max, 0)})`;
      ctx.table(
        ['step', `bundle: ms from process spawn, median (min–max) of ${runs}`, 'source through tsx'],
        [
          ['host ready (address printed)', f(readyS), f(sourceReadyS)],
          ['first My Work rows painted', f(rowsS), f(sourceRowsS)],
          ['floor: empty Node process, exit', f(emptyS), ''],
        ],
      );
      return {
        tasks: TASKS,
        runs,
        hostReadyMs: round(readyS.median, 0),
        firstRowsMs: round(rowsS.median, 0),
        sourceHostReadyMs: round(sourceReadyS.median, 0),
        sourceFirstRowsMs: round(sourceRowsS.median, 0),
        emptyProcessMs: round(emptyS.median, 0),
        ratioToSource: round(ratio.median, 2),
      };
    } finally {
      await browser.close();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
