// The renderer on a 10,000-task project, in Chromium through the web host: time from clicking
// the project to its first rows painted, frame times while scrolling the list from top to
// bottom, and the palette's keystroke-to-results-painted latency. Chromium runs without its
// frame-rate cap, so a frame's interval is the work it took rather than the display's refresh.
/// <reference lib="dom" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { openDatabase } from '../../src/server/db/open';
import { generateWorkspace } from '../../src/server/seed/generate';
import { startApp } from '../../tests/e2e/support/web-host';
import { launchBrowser } from '../../tests/e2e/support/browser';
import { percentile, round, sorted } from '../lib/stats';
import { bareListPage, type ListShape } from '../lib/bare-list';
import type { Scenario } from '../lib/types';
import { FLING_ROWS } from '../../src/renderer/src/lib/fling';

const ROOT = join(import.meta.dirname, '..', '..');
/** The project's size: the 10,000 tasks the list is built for; `--quick` a small form, to stay within its 2 minutes. */
const TASKS = { full: 10_000, quick: 2_000 };
/**
 * Pixels scrolled per frame: a fast fling, ~12 rows coming into view at every frame (the aim's).
 * The list shows them lite (short id and name) until it stops: lib/fling.ts.
 */
const SCROLL_STEP = 400;
/** A quick turn of a mouse wheel: ~3 rows a frame. */
const WHEEL_STEP = 100;
const QUERIES = ['invoice', 'onboarding', 'dashboard', 'migrate', 'refactor', 'billing', 'release', 'audit'];

/** Clicks a tree item and answers the ms until a task row is in the page and painted. */
export async function navigationToFirstRows(page: Page, projectName: string): Promise<number> {
  return page.evaluate(async (name) => {
    const item = [
      ...document.querySelectorAll<HTMLElement>('[data-testid="project-tree"] [role="treeitem"]'),
    ].find((el) => el.querySelector('.name')?.textContent === name);
    if (!item) throw new Error(`no tree item ${name}`);
    const start = performance.now();
    item.click();
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (document.querySelector('[data-testid="task-row"]')) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    // The frame after the rows went in has been painted once the next one starts.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now() - start;
  }, projectName);
}

/** Scrolls the task grid top to bottom one step per frame; answers each frame's interval. */
export async function scrollFrames(page: Page, step: number): Promise<number[]> {
  return page.evaluate(async (dy) => {
    const scroller = document.querySelector('[data-testid="task-table"] [data-testid="virtual-list"]');
    if (!scroller) throw new Error('no task grid');
    scroller.scrollTop = 0;
    const frames: number[] = [];
    let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
      scroller.scrollTop += dy;
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      frames.push(now - last);
      last = now;
    }
    return frames;
  }, step);
}

/** One scroll of a list top to bottom: each frame's interval, and the main thread's CPU per frame. */
export interface ScrollRun {
  frames: number[];
  /**
   * CPU time of the page's main thread per frame (ms): the work a frame took, which another
   * program on the machine lengthens in wall time but barely changes (CDP's `ThreadTime`).
   */
  cpuPerFrame: number;
}

async function threadTime(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
}

/** Brings the page to the front (a page behind another gets fewer frames) and scrolls it. */
async function scrollRun(page: Page, step: number): Promise<ScrollRun> {
  await page.bringToFront();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    const before = await threadTime(cdp);
    const frames = await scrollFrames(page, step);
    const cpu = (await threadTime(cdp)) - before;
    return { frames, cpuPerFrame: round(cpu / Math.max(1, frames.length), 2) };
  } finally {
    await cdp.detach();
  }
}

/** Types a query into the open palette and answers the ms until its results are painted. */
async function paletteLatency(page: Page, query: string): Promise<number> {
  return page.evaluate(async (text) => {
    const input = document.querySelector('[data-testid="palette-input"]') as HTMLInputElement | null;
    if (!input) throw new Error('palette not open');
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const start = performance.now();
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const first = document.querySelector('[data-testid="palette-item"][data-group="Tasks"] .label');
        if (first?.textContent?.toLowerCase().includes(text)) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - start;
  }, query);
}

/** The task grid's size, columns and box, for the bare list to match (bench/lib/bare-list.ts). */
async function listShape(page: Page): Promise<ListShape> {
  return page.evaluate(() => {
    const table = document.querySelector<HTMLElement>('[data-testid="task-table"]');
    const scroller = table?.querySelector<HTMLElement>('[data-testid="virtual-list"]');
    const row = table?.querySelector<HTMLElement>('[data-testid="task-row"]');
    if (!table || !scroller || !row) throw new Error('no task grid');
    const rect = scroller.getBoundingClientRect();
    return {
      rows: Number(table.getAttribute('aria-rowcount')),
      rowHeight: row.getBoundingClientRect().height,
      columns: getComputedStyle(table).getPropertyValue('--columns').trim(),
      box: { left: rect.left, top: rect.top, width: rect.width, height: rect.height },
    };
  });
}

/** The bare list of the task grid's shape, in a page of its own in the same browser. */
async function openBareList(page: Page): Promise<Page> {
  const shape = await listShape(page);
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  const bare = await browser.newPage({ viewport: page.viewportSize() ?? { width: 1440, height: 900 } });
  await bare.setContent(bareListPage(shape));
  return bare;
}

/**
 * Scrolls the app's list and the bare list in turn, `rounds` times each: side by side, so that
 * what else the machine does meanwhile weighs on both alike.
 */
async function scrollBoth(
  page: Page,
  rounds: number,
  step: number,
): Promise<{ app: ScrollRun[]; bare: ScrollRun[] }> {
  const barePage = await openBareList(page);
  const app: ScrollRun[] = [];
  const bare: ScrollRun[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      app.push(await scrollRun(page, step));
      bare.push(await scrollRun(barePage, step));
    }
  } finally {
    await barePage.close();
  }
  await page.bringToFront();
  return { app, bare };
}

/** The spread of a figure taken once. */
function one(value: number): { median: number; min: number; max: number } {
  return { median: value, min: value, max: value };
}

function ratioOf(value: number, baseline: number): number {
  return round(value / baseline, 2);
}

/**
 * Scrolls at the display's rate: frame p95, and the share of frames that missed their turn (an
 * interval longer than 1.5 refresh intervals, the refresh being the median interval), overall and
 * per scroll.
 */
function displayRateOf(runs: readonly ScrollRun[]): {
  frames: number;
  p95: number;
  latePercent: number;
  latePerRun: number[];
} {
  const lateShare = (frames: readonly number[]): number => {
    const refresh = percentile(sorted(frames), 50);
    return round((100 * frames.filter((ms) => ms > 1.5 * refresh).length) / Math.max(1, frames.length), 1);
  };
  const frames = runs.flatMap((run) => run.frames);
  return {
    frames: frames.length,
    p95: summary(frames).p95,
    latePercent: lateShare(frames),
    latePerRun: runs.map((run) => lateShare(run.frames)),
  };
}

function summary(values: readonly number[]): { p50: number; p95: number; max: number } {
  const s = sorted(values);
  return {
    p50: round(percentile(s, 50), 1),
    p95: round(percentile(s, 95), 1),
    max: round(s[s.length - 1] ?? NaN, 1),
  };
}

/** The renderer, the service and Chromium on one project of `tasks` tasks, its tree item shown. */
export interface RendererBench {
  page: Page;
  projectName: string;
  /**
   * The same app in a second Chromium that keeps its frame-rate limit (a 60 Hz begin-frame
   * source, as a display gives), its project list open and whole: frame intervals there are what
   * a user sees, a refresh interval each unless a frame misses its turn.
   */
  openAtDisplayRate: () => Promise<Page>;
  close: () => Promise<void>;
}

/**
 * Chromium for the bench. Without the frame-rate limit a frame starts as soon as the last one is
 * done, so its interval is the work it took rather than the display's refresh.
 */
function browserFor(frameRateLimit: boolean): Promise<Browser> {
  return launchBrowser(frameRateLimit ? [] : ['--disable-frame-rate-limit', '--disable-gpu-vsync']);
}

/** Opens the app at `url` in a new page of `browser` and shows the project's tree item. */
async function openApp(browser: Browser, url: string, projectName: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // tsx names the arrow functions it compiles with a `__name` helper the page lacks.
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Sidebar' }).waitFor();
  // A tree item's name goes on with its open tasks ("…, 12 open tasks"): found by its shown name.
  const treeItem = (name: string) =>
    page
      .getByTestId('project-tree')
      .getByRole('treeitem')
      .filter({ has: page.getByText(name, { exact: true }) });
  const folder = treeItem('Company Workspace');
  await folder.waitFor();
  if ((await folder.getAttribute('aria-expanded')) === 'false') {
    await folder.focus();
    await page.keyboard.press('ArrowRight');
  }
  await treeItem(projectName).waitFor();
  return page;
}

/** Builds the renderer if needed, seeds and syncs the project, opens the app in Chromium. */
export async function openRendererBench(tasks: number, log: (line: string) => void): Promise<RendererBench> {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    log('building the renderer');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--renderer-only'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'workdesk-bench-renderer-'));
  const db = openDatabase(join(dataDir, 'service.sqlite'));
  const generated = generateWorkspace(db, { projects: 1, tasks, messagesPerTask: 0, seed: 5 });
  const projectName = (
    db.prepare('SELECT name FROM projects WHERE id = ?').get(generated.projectIds[0]) as { name: string }
  ).name;
  db.close();
  log(`starting the service and syncing ${tasks} tasks`);
  const app = await startApp({ service: { seed: 'empty', dataDir } });
  const browsers: Browser[] = [];
  const close = async (): Promise<void> => {
    for (const browser of browsers) await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const browser = await browserFor(false);
    browsers.push(browser);
    const page = await openApp(browser, app.host.url, projectName);
    const openAtDisplayRate = async (): Promise<Page> => {
      const limited = await browserFor(true);
      browsers.push(limited);
      const shown = await openApp(limited, app.host.url, projectName);
      await navigationToFirstRows(shown, projectName);
      await waitForWholeList(shown, tasks);
      return shown;
    };
    return { page, projectName, openAtDisplayRate, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Leaves the project (to the calendar), so the next click on it builds its list again. */
export async function leaveProject(page: Page): Promise<void> {
  await page.getByTestId('nav-calendar').click();
  await page.getByTestId('month-grid').waitFor();
}

/** Waits until the list's total is known (the grid is taller than the first window of rows). */
export async function waitForWholeList(page: Page, tasks: number): Promise<void> {
  await page.getByTestId('task-row').first().waitFor();
  // (Taller than the first window of 200 rows: the rows are 34 px.)
  await page.waitForFunction(
    (height) =>
      (document.querySelector('[data-testid="task-table"] [data-testid="virtual-list"]')?.scrollHeight ?? 0) >
      height,
    tasks * 10,
  );
}

export const scenario: Scenario = {
  name: 'renderer',
  description:
    'A 10,000-task project (2,000 with --quick) in Chromium through the web host: navigation to first rows painted, scroll frame times top to bottom (the list and a bare DOM list of its shape in turn, three times each, with the CPU per frame of the main thread), palette keystroke to results painted (aims: 100 ms, 16.7 ms p95, 50 ms).',
  quick: true,
  async run(ctx) {
    const tasks = ctx.quick ? TASKS.quick : TASKS.full;
    const { page, projectName, openAtDisplayRate, close } = await openRendererBench(tasks, ctx.log);
    try {
      const runs = ctx.quick ? 3 : 7;
      const navigation: number[] = [];
      for (let i = 0; i < runs; i++) {
        await leaveProject(page);
        navigation.push(await navigationToFirstRows(page, projectName));
      }
      // The list's total is known once the first window answered; scroll only then.
      await waitForWholeList(page, tasks);
      const scrolls = await scrollBoth(page, ctx.quick ? 1 : 3, SCROLL_STEP);
      // Once each: the fastest scroll whose rows are filled whole, and a quick wheel.
      const wholeStep = FLING_ROWS * (await listShape(page)).rowHeight;
      const speeds = [
        { step: wholeStep, what: `${FLING_ROWS} rows a frame, the fastest shown in whole rows` },
        { step: WHEEL_STEP, what: 'a quick wheel' },
      ];
      const single = [];
      for (const speed of speeds) {
        const both = await scrollBoth(page, 1, speed.step);
        const app = both.app[0];
        const floor = both.bare[0];
        if (!app || !floor) throw new Error('no scroll run');
        single.push({
          ...speed,
          app: { ...summary(app.frames), n: app.frames.length, cpu: app.cpuPerFrame },
          bare: { ...summary(floor.frames), n: floor.frames.length, cpu: floor.cpuPerFrame },
        });
      }

      await page.keyboard.press('Control+k');
      await page.getByTestId('palette-input').waitFor();
      const search: number[] = [];
      for (const query of ctx.quick ? QUERIES.slice(0, 4) : [...QUERIES, ...QUERIES]) {
        search.push(await paletteLatency(page, query));
      }

      const nav = summary(navigation);
      const palette = summary(search);

      // The same scrolls at the display's rate, as a user sees them: which frames miss their turn.
      const shown = await openAtDisplayRate();
      const atDisplay = [];
      for (const speed of [
        { step: SCROLL_STEP, what: 'a fling', rounds: ctx.quick ? 1 : 3 },
        ...speeds.map((speed) => ({ ...speed, rounds: 1 })),
      ]) {
        const both = await scrollBoth(shown, speed.rounds, speed.step);
        atDisplay.push({ ...speed, app: displayRateOf(both.app), bare: displayRateOf(both.bare) });
      }
      const frames = scrolls.app.flatMap((run) => run.frames);
      const bareFrames = scrolls.bare.flatMap((run) => run.frames);
      const scroll = summary(frames);
      const bare = summary(bareFrames);
      // Per round: each scroll's p95 and CPU per frame, and their ratio to the bare list's beside it.
      const p95Of = (runs: ScrollRun[]) => runs.map((run) => summary(run.frames).p95);
      const cpuOf = (runs: ScrollRun[]) => runs.map((run) => run.cpuPerFrame);
      const ratios = (app: number[], floor: number[]) => app.map((v, i) => ratioOf(v, floor[i] ?? v));
      const scrollP95 = p95Of(scrolls.app);
      const bareP95 = p95Of(scrolls.bare);
      const scrollCpu = cpuOf(scrolls.app);
      const bareCpu = cpuOf(scrolls.bare);
      ctx.table(
        ['measure', 'samples', 'p50 ms', 'p95 ms', 'max ms', 'aim'],
        [
          ['navigation → first rows painted', navigation.length, nav.p50, nav.p95, nav.max, '< 100 ms'],
          [
            `scroll frame at ${SCROLL_STEP} px a frame, a fling (top → bottom, ${scrolls.app.length}×)`,
            frames.length,
            scroll.p50,
            scroll.p95,
            scroll.max,
            'p95 < 16.7 ms',
          ],
          [
            `bare DOM list, same shape (floor, ${scrolls.bare.length}×)`,
            bareFrames.length,
            bare.p50,
            bare.p95,
            bare.max,
            '',
          ],
          ...single.flatMap((run) => [
            [
              `scroll frame at ${run.step} px a frame (${run.what})`,
              run.app.n,
              run.app.p50,
              run.app.p95,
              run.app.max,
              '',
            ],
            [
              `bare DOM list at ${run.step} px a frame`,
              run.bare.n,
              run.bare.p50,
              run.bare.p95,
              run.bare.max,
              '',
            ],
          ]),
          [
            'palette keystroke → results painted',
            search.length,
            palette.p50,
            palette.p95,
            palette.max,
            '< 50 ms',
          ],
        ],
      );
      const size = `${tasks.toLocaleString('en-US')}-task project`;
      const spreadOf = (values: readonly number[]) => {
        const s = summary(values);
        return { median: s.p50, min: round(Math.min(...values), 1), max: s.max };
      };
      ctx.table(
        ['scroll round', 'app p95 ms', 'bare p95 ms', 'app CPU ms/frame', 'bare CPU ms/frame'],
        scrollP95.map((p95, i) => [i + 1, p95, bareP95[i] ?? '', scrollCpu[i] ?? '', bareCpu[i] ?? '']),
      );
      ctx.headline({
        figure: `navigation to first rows painted, ${size} (aim < 100 ms)`,
        unit: 'ms',
        value: spreadOf(navigation),
        runs: navigation.length,
      });
      ctx.headline({
        figure: `scroll frame p95, top to bottom at ${SCROLL_STEP} px a frame (a fling: rows lite until it stops), ${size} (aim < 16.7 ms)`,
        unit: 'ms',
        value: spreadOf(scrollP95),
        runs: scrollP95.length,
        baseline: { name: 'bare DOM list of the same shape', value: spreadOf(bareP95) },
        ratio: spreadOf(ratios(scrollP95, bareP95)),
      });
      for (const run of single) {
        ctx.headline({
          figure: `scroll frame p95 at ${run.step} px a frame (${run.what}), ${size}`,
          unit: 'ms',
          value: one(run.app.p95),
          runs: 1,
          baseline: { name: 'bare DOM list of the same shape', value: one(run.bare.p95) },
          ratio: one(ratioOf(run.app.p95, run.bare.p95)),
        });
        ctx.headline({
          figure: `main-thread CPU per scroll frame at ${run.step} px a frame, ${size}`,
          unit: 'ms',
          value: one(round(run.app.cpu, 1)),
          runs: 1,
          baseline: { name: 'bare DOM list of the same shape', value: one(round(run.bare.cpu, 1)) },
          ratio: one(ratioOf(run.app.cpu, run.bare.cpu)),
        });
      }
      ctx.headline({
        figure: `main-thread CPU per scroll frame at ${SCROLL_STEP} px a frame (a fling), ${size}`,
        unit: 'ms',
        value: spreadOf(scrollCpu),
        runs: scrollCpu.length,
        baseline: { name: 'bare DOM list of the same shape', value: spreadOf(bareCpu) },
        ratio: spreadOf(ratios(scrollCpu, bareCpu)),
      });
      ctx.table(
        [
          "at the display's rate (60 Hz)",
          'frames',
          'p95 ms',
          'late frames %',
          'bare list p95 ms',
          'bare list late %',
        ],
        atDisplay.map((run) => [
          `${run.step} px a frame (${run.what}${run.rounds > 1 ? `, ${run.rounds}×` : ''})`,
          run.app.frames,
          run.app.p95,
          run.app.latePercent,
          run.bare.p95,
          run.bare.latePercent,
        ]),
      );
      for (const run of atDisplay) {
        ctx.headline({
          figure: `frames late at the display's rate (60 Hz; late: longer than 1.5 refresh intervals), scrolling at ${run.step} px a frame (${run.what}), ${size}`,
          unit: '%',
          value: spreadOf(run.app.latePerRun),
          runs: run.rounds,
          baseline: { name: 'bare DOM list of the same shape', value: spreadOf(run.bare.latePerRun) },
        });
      }
      ctx.headline({
        figure: `palette keystroke to results painted, ${size} cache (aim < 50 ms)`,
        unit: 'ms',
        value: spreadOf(search),
        runs: search.length,
      });
      return {
        tasks,
        navigationMedianMs: nav.p50,
        navigationP95Ms: nav.p95,
        scrollFrames: frames.length,
        scrollFrameP50Ms: scroll.p50,
        scrollFrameP95Ms: scroll.p95,
        bareScrollFrameP50Ms: bare.p50,
        bareScrollFrameP95Ms: bare.p95,
        scrollCpuPerFrameMs: summary(scrollCpu).p50,
        bareScrollCpuPerFrameMs: summary(bareCpu).p50,
        ...Object.fromEntries(
          single.flatMap((run) => [
            [`scrollFrameP95At${run.step}PxMs`, run.app.p95],
            [`bareScrollFrameP95At${run.step}PxMs`, run.bare.p95],
            [`scrollCpuPerFrameAt${run.step}PxMs`, round(run.app.cpu, 1)],
            [`bareScrollCpuPerFrameAt${run.step}PxMs`, round(run.bare.cpu, 1)],
          ]),
        ),
        paletteMedianMs: palette.p50,
        paletteP95Ms: palette.p95,
        ...Object.fromEntries(
          atDisplay.flatMap((run) => [
            [`displayRateScrollP95At${run.step}PxMs`, run.app.p95],
            [`displayRateLatePercentAt${run.step}Px`, run.app.latePercent],
            [`bareDisplayRateScrollP95At${run.step}PxMs`, run.bare.p95],
            [`bareDisplayRateLatePercentAt${run.step}Px`, run.bare.latePercent],
          ]),
        ),
      };
    } finally {
      await close();
    }
  },
};
