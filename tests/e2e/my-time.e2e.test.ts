import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { audit, describeFindings, failing } from './support/axe';
import { AppPage } from './pages/app';
import { SEEDED_USERS } from '../support/service';

interface ServiceReport {
  id: string;
  taskId: string;
  reportDate: string;
  reported: number;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const dayString = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** The Monday `weeks` weeks from this week's, on this computer's calendar (as the app counts). */
function monday(weeks = 0): string {
  const now = new Date();
  return dayString(
    new Date(now.getFullYear(), now.getMonth(), now.getDate() - ((now.getDay() + 6) % 7) + weeks * 7),
  );
}
function addDays(day: string, delta: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return dayString(new Date(y!, m! - 1, d! + delta));
}

describe('My Time', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ui: AppPage;
  const me = SEEDED_USERS.actingUserId;

  /** The acting user's reports on the service dated in the week of `start`. */
  const serviceWeek = (start: string): Promise<ServiceReport[]> =>
    app.api<ServiceReport[]>(`/user/${me}/time-reports?startDate=${start}&endDate=${addDays(start, 6)}`);
  const dayTotals = (reports: readonly ServiceReport[], start: string): number[] =>
    Array.from({ length: 7 }, (_, i) =>
      reports.filter((r) => r.reportDate === addDays(start, i)).reduce((sum, r) => sum + r.reported, 0),
    );
  const shownDayTotals = (view: Locator): Promise<number[]> =>
    view
      .getByTestId('mytime-day-total')
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-minutes'))));

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    // axe is added as a script: the page's CSP is bypassed (tests only).
    context = await browser.newContext({
      bypassCSP: true,
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    ui = new AppPage(page);
    await ui.open(app.host.url);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  it("opens from the sidebar on this week with the seeded week's totals per day, project and week", async () => {
    await page.getByTestId('nav-mytime').click();
    const view = page.getByTestId('mytime');
    await expect.poll(() => view.getAttribute('data-week')).toBe(monday());
    await view.getByTestId('mytime-grid').waitFor();

    const reports = await serviceWeek(monday());
    expect(reports.length).toBeGreaterThan(0);
    await expect.poll(() => shownDayTotals(view)).toEqual(dayTotals(reports, monday()));
    const week = reports.reduce((sum, r) => sum + r.reported, 0);
    await expect.poll(() => view.locator('tfoot .week').getAttribute('data-minutes')).toBe(String(week));
    // One row per task with time, its total the sum of its reports.
    const tasks = [...new Set(reports.map((r) => r.taskId))];
    await expect.poll(() => view.getByTestId('mytime-row').count()).toBe(tasks.length);
    for (const taskId of tasks) {
      const minutes = reports.filter((r) => r.taskId === taskId).reduce((sum, r) => sum + r.reported, 0);
      const h = Math.floor(minutes / 60);
      const m = minutes % 60;
      await expect
        .poll(() => view.locator(`[data-task="${taskId}"] [data-testid="mytime-row-total"]`).textContent())
        .toBe(h && m ? `${h}h ${m}m` : h ? `${h}h` : `${m}m`);
    }
    // A row names its task and project as the service does.
    const first = tasks[0]!;
    const named = await app.api<{ name: string; projectId: string }>(`/task/${first}`);
    const project = await app.api<{ name: string }>(`/project/${named.projectId}`);
    const firstRow = view.locator(`[data-testid="mytime-row"][data-task="${first}"]`);
    expect(await firstRow.getByRole('button').textContent()).toBe(named.name);
    expect(await firstRow.locator('.project').textContent()).toBe(project.name);

    // The project totals (the chart's legend) add up to the week.
    const projectMinutes = await view
      .getByTestId('mytime-project-total')
      .evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-minutes'))));
    expect(projectMinutes.length).toBeGreaterThan(0);
    expect(projectMinutes.reduce((a, b) => a + b, 0)).toBe(week);

    // The chart: a bar per day whose value is the day's total, named for screen readers.
    const chart = view.getByTestId('mytime-chart');
    await chart.scrollIntoViewIfNeeded();
    expect(
      await chart
        .getByTestId('mytime-bar')
        .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-minutes')))),
    ).toEqual(dayTotals(reports, monday()));
    await chart.getByRole('img', { name: 'Time per day of the week, by project' }).waitFor();
    await view.getByTestId('mytime-grid').scrollIntoViewIfNeeded();
    await screenshot(page, 'my-time-week');

    const result = await audit(page, 'my-time');
    expect(result.rulesPassed).toBeGreaterThan(15);
    expect(failing(result.findings), describeFindings(failing(result.findings))).toEqual([]);
  });

  it('logs time typed into an empty day offline, marks it not sent, and sends it once back online', async () => {
    const view = page.getByTestId('mytime');
    const row = view.getByTestId('mytime-row').first();
    const taskId = (await row.getAttribute('data-task'))!;
    const saturday = addDays(monday(), 5);
    const cell = row.locator(`[data-testid="mytime-cell"][data-day="${saturday}"]`);
    expect(await cell.getAttribute('data-minutes')).toBe('0');
    const before = await shownDayTotals(view);

    await app.stopService();
    await page.getByTestId('sync-now').click();
    await ui.waitForOnline(false);
    // A mistyped duration is refused, naming the field, and nothing is logged.
    await cell.fill('an hour');
    await cell.press('Enter');
    await view
      .getByTestId('mytime-cell-error')
      .filter({ hasText: /^\s*Duration: cannot read/ })
      .waitFor();
    await cell.fill('1h 30m');
    await cell.press('Enter');
    await expect.poll(() => cell.getAttribute('data-minutes')).toBe('90');
    expect(await cell.getAttribute('data-pending')).toBe('true');
    await view.getByTestId('mytime-pending-note').waitFor();
    await expect.poll(async () => (await shownDayTotals(view))[5]).toBe(before[5]! + 90);
    await ui.waitForPendingCount(1);
    await screenshot(page, 'my-time-offline-entry');

    await app.restartService();
    await ui.waitForOnline(true);
    await ui.waitForPendingCount(0);
    const sent = await eventually(
      () => serviceWeek(monday()),
      (list) => list.some((r) => r.taskId === taskId && r.reportDate === saturday),
    );
    // Exactly once.
    expect(
      sent.filter((r) => r.taskId === taskId && r.reportDate === saturday).map((r) => r.reported),
    ).toEqual([90]);
    await expect.poll(() => cell.getAttribute('data-pending')).toBe(null);

    // Online: the next day, with the keyboard (arrows between cells), in minutes.
    await cell.focus();
    await page.keyboard.press('ArrowRight');
    const sunday = row.locator(`[data-testid="mytime-cell"][data-day="${addDays(monday(), 6)}"]`);
    await expect.poll(() => sunday.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('45m');
    await page.keyboard.press('Enter');
    await expect.poll(() => sunday.getAttribute('data-minutes')).toBe('45');
    // The focus stays on the day just logged, now showing its time.
    await expect.poll(() => sunday.evaluate((el) => el === document.activeElement)).toBe(true);
    await eventually(
      () => serviceWeek(monday()),
      (list) =>
        list.some((r) => r.taskId === taskId && r.reportDate === addDays(monday(), 6) && r.reported === 45),
    );
  });

  it('goes to the next and previous weeks, and fetches a week before the synced ones', async () => {
    const view = page.getByTestId('mytime');
    await page.getByTestId('week-next').click();
    await expect.poll(() => view.getAttribute('data-week')).toBe(monday(1));
    await view.getByTestId('state-empty').filter({ hasText: 'No time logged in this week' }).waitFor();

    await page.getByTestId('week-prev').click();
    await page.getByTestId('week-prev').click();
    await expect.poll(() => view.getAttribute('data-week')).toBe(monday(-1));
    const last = await serviceWeek(monday(-1));
    await expect.poll(() => shownDayTotals(view)).toEqual(dayTotals(last, monday(-1)));
    // Last week's chart (a whole week of work), seen as a user sees it.
    const chart = view.getByTestId('mytime-chart');
    await expect
      .poll(() =>
        chart
          .getByTestId('mytime-bar')
          .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-minutes')))),
      )
      .toEqual(dayTotals(last, monday(-1)));
    await chart.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'my-time-chart');

    // A week long before the synced ones, logged by another client: read from the service.
    const old = monday(-20);
    const taskId = last[0]!.taskId;
    await app.api(`/task/${taskId}/time-report`, {
      method: 'POST',
      body: { userId: me, reportedMinutes: 75, date: addDays(old, 2) },
    });
    await page.getByTestId('week-date').fill(addDays(old, 3));
    await page.getByTestId('week-date').dispatchEvent('change');
    await expect.poll(() => view.getAttribute('data-week')).toBe(old);
    await expect.poll(() => shownDayTotals(view)).toEqual([0, 0, 75, 0, 0, 0, 0]);

    // Adding a task gives an empty row to fill in.
    await page.getByTestId('week-this').click();
    await expect.poll(() => view.getAttribute('data-week')).toBe(monday());
    await page.getByTestId('week-next').click();
    await view.getByTestId('state-empty').waitFor();
    const name = (await app.api<{ name: string }>(`/task/${taskId}`)).name;
    await view.getByTestId('mytime-add-task').fill(name);
    await page.getByTestId('dependency-result').first().click();
    const added = view.getByTestId('mytime-row');
    await expect.poll(() => added.count()).toBe(1);
    await expect.poll(() => added.locator('[data-testid="mytime-cell"]').count()).toBe(7);
  });

  it("exports the week's time as CSV, a line per report with its minutes", async () => {
    const view = page.getByTestId('mytime');
    await page.getByTestId('week-this').click();
    await expect.poll(() => view.getAttribute('data-week')).toBe(monday());
    const exporter = view.getByTestId('mytime-export');
    await exporter.scrollIntoViewIfNeeded();
    await exporter.getByTestId('mytime-export-range-week').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exporter.getByTestId('mytime-export-csv').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`My time ${monday()} to ${addDays(monday(), 6)}.csv`);
    const chunks: Buffer[] = [];
    for await (const part of await download.createReadStream()) chunks.push(part as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.startsWith('\uFEFFDate,Project,Task,Minutes,Hours,Note,Billable\r\n')).toBe(true);
    const reports = await serviceWeek(monday());
    // Rows are split on line ends outside quotes: notes may hold new lines.
    const lines = text
      .slice(1)
      .trim()
      .split(/\r\n(?=\d{4}-\d{2}-\d{2},)/)
      .slice(1);
    expect(lines).toHaveLength(reports.length);
    const minutes = lines.map((line) =>
      Number(/^\d{4}-\d{2}-\d{2},(?:"(?:[^"]|"")*"|[^,]*),(?:"(?:[^"]|"")*"|[^,]*),(\d+),/.exec(line)?.[1]),
    );
    expect(minutes.reduce((a, b) => a + b, 0)).toBe(reports.reduce((sum, r) => sum + r.reported, 0));

    // A narrow window: the grid scrolls sideways, the week's controls stay in reach.
    await page.setViewportSize({ width: 820, height: 760 });
    await view.getByTestId('mytime-grid').scrollIntoViewIfNeeded();
    await page.getByTestId('week-next').waitFor({ state: 'visible' });
    await screenshot(page, 'my-time-narrow');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(ui.errors).toEqual([]);
  });
});
