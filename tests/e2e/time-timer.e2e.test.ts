// The running timer and to-do progress on rows, in Chromium against the web host: T on the
// selected row starts the timer, the status bar shows it ticking, a reload finds it still running
// (the core keeps it), its stop confirm logs the time with an edited note (in the Time section and
// on the service); the palette starts one, T on another task asks to switch, a run over a day is
// flagged and capped; the rounding setting (saved through the shell) rounds a stop up to 15
// minutes. A task row shows its to-do progress ("2/3") from the cache.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, SCREENSHOT_DIR } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { audit, describeFindings, failing } from './support/axe';
import { sessionSuite } from './support/suite';
import { AppPage } from './pages/app';
import { TaskListPage, type TaskRef } from './pages/task-list';
import type { TimerView } from '../../src/shared/ipc/time';

interface ServiceReport {
  id: string;
  taskId: string;
  reported: number;
  message: string;
}

describe('the running timer, and to-do progress on task rows', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ui: AppPage;
  let list: TaskListPage;

  const running = async (): Promise<TimerView | null> => {
    const answer = await app.core.dispatch('time.timer', {});
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value as TimerView | null;
  };
  const statusTimer = () => page.getByTestId('timer-status');
  /** Focuses the grid and moves its active row to the `index`th; answers that row's task. */
  async function selectRow(index: number): Promise<TaskRef> {
    await list.table.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    const id = await page.evaluate(() => {
      const grid = document.querySelector('[data-testid="task-table"]');
      const active = grid?.getAttribute('aria-activedescendant');
      return (active && document.getElementById(active)?.getAttribute('data-task-id')) || '';
    });
    expect(id).not.toBe('');
    return { id, name: await list.row({ id, name: '' }).locator('.task-name').innerText() };
  }

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    // axe is added as a script: the page's CSP is bypassed (tests only).
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    ui = new AppPage(page);
    list = new TaskListPage(page);
    await ui.open(app.host.url);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  it('shows a task’s to-do progress on its row, from the cache', async () => {
    const task = await selectRow(1);
    const item = (title: string, completed: boolean) => ({ properties: { completed, title, userId: null } });
    await app.api(`/task/${task.id}/update`, {
      method: 'PUT',
      body: {
        userId: app.service!.users.bob,
        todoList: [
          { uid: 'l1', title: 'Checks', items: [item('Reproduce', true), item('Fix', true)] },
          { uid: 'l2', title: 'Release', items: [item('Ship', false)] },
        ],
      },
    });
    await page.getByTestId('sync-now').click();
    const progress = list.row(task).locator('.row-todos');
    await expect.poll(() => progress.innerText()).toBe('2/3');
    expect(await progress.getAttribute('aria-label')).toBe('2 of 3 to-do items done');
    // A task without items shows nothing.
    await expect.poll(() => list.rows.locator('.row-todos.none').count()).toBeGreaterThan(0);
    await screenshot(page, 'task-rows-todo-progress');
    const rows = await audit(page, 'task-rows-todo-progress');
    expect(failing(rows.findings), describeFindings(failing(rows.findings))).toEqual([]);
  });

  it('starts with T, ticks in the status bar, survives a reload, and its stop logs the time once', async () => {
    const task = await selectRow(2);
    await page.keyboard.press('t');
    await expect.poll(() => statusTimer().getByTestId('timer-task').innerText()).toBe(task.name);
    const started = (await running())!;
    expect(started).toMatchObject({ taskId: task.id, taskName: task.name });
    // It ticks.
    const elapsed = statusTimer().getByTestId('timer-elapsed');
    await expect.poll(() => elapsed.innerText()).toMatch(/^0:00:0[1-9]$/);
    await screenshot(page, 'timer-status-bar');
    await ui.statusBar.screenshot({ path: join(SCREENSHOT_DIR, 'timer-status-bar-close.png') });

    // The web host keeps the core: after a reload the timer is still running, from the same moment.
    await page.reload();
    await ui.sidebar.waitFor();
    await expect.poll(() => statusTimer().getByTestId('timer-task').innerText()).toBe(task.name);
    await expect.poll(() => elapsed.innerText()).toMatch(/^0:00:\d\d$/);
    expect((await running())?.startedAt).toBe(started.startedAt);

    // The status bar opens the task; its Time section shows the run; Stop asks.
    await statusTimer().getByTestId('timer-open').click();
    const time = page.getByTestId('time-section');
    await time.getByTestId('time-timer-elapsed').waitFor();
    await time.getByTestId('time-timer-stop').click();
    const dialog = page.getByTestId('timer-stop-dialog');
    await dialog.getByTestId('timer-stop-duration').waitFor();
    // Rounding is off by default: the nearest minute, at least one.
    await expect.poll(() => dialog.getByTestId('timer-stop-duration').inputValue()).toBe('1m');
    await dialog.getByTestId('timer-stop-duration').fill('25m');
    await dialog.getByTestId('timer-stop-note').fill('Triage from the timer');
    await dialog.getByTestId('timer-stop-billable').check();
    // A colleague renames the task and a pull brings it while the confirm is open: the timer is
    // read again (the dialog shows the new name), and what was typed stays. Before, the boxes were
    // filled again from the timer, so 25m became the 1m it had run.
    const renamed = `${task.name} (renamed by Bob)`;
    await app.api(`/task/${task.id}/update`, {
      method: 'PUT',
      body: { userId: app.service!.users.bob, title: renamed },
    });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await dialog.getByText(renamed).waitFor();
    expect(await dialog.getByTestId('timer-stop-duration').inputValue()).toBe('25m');
    expect(await dialog.getByTestId('timer-stop-note').inputValue()).toBe('Triage from the timer');
    expect(await dialog.getByTestId('timer-stop-billable').isChecked()).toBe(true);
    await screenshot(page, 'timer-stop-dialog');
    const confirm = await audit(page, 'timer-stop-dialog');
    expect(failing(confirm.findings), describeFindings(failing(confirm.findings))).toEqual([]);
    await dialog.getByTestId('timer-stop-submit').click();

    await statusTimer().waitFor({ state: 'detached' });
    const row = time.getByTestId('time-report').filter({ hasText: 'Triage from the timer' });
    await expect.poll(() => row.getByTestId('time-report-duration').innerText()).toBe('25m');
    expect(await running()).toBeNull();
    await ui.waitForPendingCount(0);
    const reports = await eventually(
      () => app.api<ServiceReport[]>(`/task/${task.id}/time-reports`),
      (listed) => listed.some((r) => r.message === 'Triage from the timer'),
    );
    expect(reports.filter((r) => r.message === 'Triage from the timer').map((r) => r.reported)).toEqual([25]);
    await time.getByTestId('time-timer-start').waitFor();
    expect(ui.errors).toEqual([]);
  });

  it('starts from the palette; T on another task asks to switch; discard logs nothing', async () => {
    // The status bar opened the last task as a page of its own: back to the list.
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    const first = await selectRow(3);
    const reportsOf = async (id: string) =>
      (await app.api<ServiceReport[]>(`/task/${id}/time-reports`)).length;
    const before = await reportsOf(first.id);
    await page.keyboard.press('Control+k');
    await page.getByTestId('palette-input').fill('timer');
    const start = page.getByTestId('palette-item').filter({ hasText: `Start timer on ${first.name}` });
    await start.waitFor();
    await start.click();
    await expect.poll(async () => (await running())?.taskId).toBe(first.id);
    await expect.poll(() => statusTimer().getByTestId('timer-task').innerText()).toBe(first.name);

    const second = await selectRow(4);
    await page.keyboard.press('t');
    const dialog = page.getByTestId('timer-stop-dialog');
    await expect
      .poll(() => dialog.getByRole('heading').first().innerText())
      .toBe(`Switch the timer to '${second.name}'`);
    await dialog.getByTestId('timer-discard').click();
    await expect.poll(async () => (await running())?.taskId).toBe(second.id);
    await expect.poll(() => statusTimer().getByTestId('timer-task').innerText()).toBe(second.name);
    // The first run was discarded: nothing queued, nothing on the service.
    expect(app.core.engine!.outbox.entries().filter((e) => e.kind === 'timeReport.create')).toEqual([]);
    expect(await reportsOf(first.id)).toBe(before);
  });

  it('flags a run over a day in the status bar and offers a day at most', async () => {
    const current = await running();
    if (current) await app.core.dispatch('time.timerDiscard', { startedAt: current.startedAt });
    await list.waitForRows();
    const task = await selectRow(5);
    // A timer started 26 hours ago (left running over a night and a day).
    app.core.engine!.cache.timer.put({
      taskId: task.id,
      startedAt: Date.now() - 26 * 3600_000,
      note: 'Left running',
      isBillable: false,
    });
    await page.reload();
    await ui.sidebar.waitFor();
    await expect.poll(() => statusTimer().getAttribute('data-over-day')).toBe('true');
    await expect.poll(() => statusTimer().getByTestId('timer-elapsed').innerText()).toMatch(/^26:00:\d\d$/);
    await statusTimer().getByTestId('timer-stop').click();
    const dialog = page.getByTestId('timer-stop-dialog');
    await dialog.getByTestId('timer-over-day').waitFor();
    await expect.poll(() => dialog.getByTestId('timer-stop-duration').inputValue()).toBe('24h');
    await expect.poll(() => dialog.getByTestId('timer-stop-note').inputValue()).toBe('Left running');
    await screenshot(page, 'timer-stop-over-day');
    await dialog.getByRole('button', { name: 'Keep running' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await running())?.taskId).toBe(task.id);
    expect(ui.errors).toEqual([]);
  });
});

describe('the rounding setting (the web host with its accounts session)', () => {
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  it('is saved through the shell and rounds a stopped timer up to 15 minutes', async () => {
    const { app, page, ui } = suite;
    await ui.goToSettings();
    await page.getByTestId('timer-rounding-15').check();
    await expect
      .poll(async () => app.session.dispatch('settings.get', {}))
      .toMatchObject({ ok: true, value: { timerRounding: 15 } });

    // The local workspace's demo organization: T on a row, then Stop in the status bar.
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    await list.table.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('t');
    await page.getByTestId('timer-status').getByTestId('timer-stop').click();
    const dialog = page.getByTestId('timer-stop-dialog');
    await expect.poll(() => dialog.getByTestId('timer-stop-duration').inputValue()).toBe('15m');
    await dialog.getByText('Rounded up to 15 minutes.').waitFor();
    await dialog.getByTestId('timer-discard').click();
    await page.getByTestId('timer-status').waitFor({ state: 'detached' });
  });
});
