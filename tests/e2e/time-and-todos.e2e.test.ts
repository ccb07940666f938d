import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { audit, describeFindings, failing } from './support/axe';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { choose } from './pages/picker';

interface ServiceReport {
  taskId: string;
  reported: number;
  message: string;
}
interface ServiceTask {
  id: string;
  todoList:
    | {
        title: string;
        items: { properties: { completed: boolean; title: string; userId?: string | null } }[];
      }[]
    | null;
}
interface ServiceUser {
  id: string;
  name: string;
}

const hm = (minutes: number): string => {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h && m ? `${h}h ${m}m` : h ? `${h}h` : `${m}m`;
};

describe('time and to-do lists on the task detail', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ui: AppPage;
  let taskId: string;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    // axe is added as a script: the page's CSP is bypassed (tests only).
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    ui = new AppPage(page);
    await ui.open(app.host.url);
    await ui.openDemoProject('Customer portal 4');
    const list = new TaskListPage(page);
    await list.waitForRows();
    taskId = (await list.openRow(0)).id;
    await new TaskDetailPage(page).waitFor();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  it('logs 1h 30m on a task and lists it with the total; refuses a bad duration naming the field', async () => {
    const time = page.getByTestId('time-section');
    await time.scrollIntoViewIfNeeded();

    await time.getByLabel('Duration').fill('0');
    await time.getByTestId('time-log').click();
    await time.getByRole('alert').filter({ hasText: 'Duration: must be at least 1 minute' }).waitFor();
    await time.getByLabel('Duration').fill('25h');
    await time.getByTestId('time-log').click();
    await time.getByRole('alert').filter({ hasText: 'Duration: must be at most 24h' }).waitFor();

    await time.getByLabel('Duration').fill('1h 30m');
    await time.getByLabel('Note').fill('Design review with the client');
    await time.getByLabel('Billable').check();
    await time.getByTestId('time-log').click();
    const row = time.getByTestId('time-report').filter({ hasText: 'Design review with the client' });
    await row
      .getByTestId('time-report-duration')
      .filter({ hasText: /^1h 30m$/ })
      .waitFor();
    await expect.poll(() => time.getByLabel('Duration').inputValue()).toBe('');

    // Sent once; the total shown is the service's for the task.
    await ui.waitForPendingCount(0);
    const reports = await eventually(
      () => app.api<ServiceReport[]>(`/task/${taskId}/time-reports`),
      (list) => list.some((r) => r.message === 'Design review with the client'),
    );
    expect(
      reports.filter((r) => r.message === 'Design review with the client').map((r) => r.reported),
    ).toEqual([90]);
    const total = reports.reduce((sum, r) => sum + r.reported, 0);
    await time
      .getByTestId('time-reports-total')
      .filter({ hasText: new RegExp(`^${hm(total)}$`) })
      .waitFor();
    await time.getByText('The service keeps time reports as logged').waitFor();
    await time.scrollIntoViewIfNeeded();
    await screenshot(page, 'time-section');
  });

  it('makes a to-do list, ticks an item offline and the service has it once back online', async () => {
    const todos = page.getByTestId('todo-section');
    await todos.scrollIntoViewIfNeeded();
    await todos.getByLabel('New to-do list title').fill('Release checklist');
    await todos.getByRole('button', { name: 'Add list' }).click();
    const list = todos.getByRole('group', { name: 'To-do list Release checklist' });
    await list.waitFor();
    for (const item of ['Write notes', 'Tag build', 'Ship']) {
      await list.getByLabel('New item in Release checklist').fill(item);
      await list.getByRole('button', { name: 'Add', exact: true }).click();
      await list.getByRole('textbox', { name: new RegExp(`^Item ${item} `) }).waitFor();
    }
    await todos.getByTestId('todo-progress').filter({ hasText: '0/3' }).waitFor();

    // Assign an item, and move "Ship" up with the keyboard.
    const users = await app.api<ServiceUser[]>('/users');
    const someone = users[0]!;
    await choose(page, list.getByRole('button', { name: /^Assignee of Tag build/ }), someone.name);
    await list.getByTestId('todo-item-initials').first().waitFor();
    await list.getByLabel(/^Item Ship/).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await eventually(
      () =>
        list
          .getByTestId('todo-item-title')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
      (titles) => titles.join(',') === 'Write notes,Ship,Tag build',
    );
    await ui.waitForPendingCount(0);

    // Offline: the tick shows at once and waits in the outbox.
    await app.stopService();
    await page.getByTestId('sync-now').click();
    await ui.waitForOnline(false);
    await list.getByLabel('Done: Write notes').check();
    await todos.getByTestId('todo-progress').filter({ hasText: '1/3' }).waitFor();
    await ui.waitForPendingCount(1);
    await todos.scrollIntoViewIfNeeded();
    await screenshot(page, 'todo-lists-offline');

    // Axe on the detail with both sections filled in.
    const result = await audit(page, 'task-detail-time-todos');
    expect(result.rulesPassed).toBeGreaterThan(15);
    expect(failing(result.findings), describeFindings(failing(result.findings))).toEqual([]);

    await app.restartService();
    await ui.waitForOnline(true);
    await ui.waitForPendingCount(0);
    const onService = await eventually(
      () => app.api<ServiceTask>(`/task/${taskId}`),
      (task) => task.todoList?.[0]?.items[0]?.properties.completed === true,
    );
    const saved = onService.todoList!.find((l) => l.title === 'Release checklist')!;
    expect(
      saved.items.map((i) => [i.properties.title, i.properties.completed, i.properties.userId ?? null]),
    ).toEqual([
      ['Write notes', true, null],
      ['Ship', false, null],
      ['Tag build', false, someone.id],
    ]);
    expect(ui.errors).toEqual([]);
  });
});
