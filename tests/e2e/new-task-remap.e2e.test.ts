import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { NewTaskDialogPage } from './pages/new-task';
import { TaskDetailPage } from './pages/task-detail';

interface ServiceTask {
  id: string;
  name: string;
}

describe('a new task opens at once and stays open when the service gives it its id', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo', faults: true } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    ui = new AppPage(page);
    await ui.open(app.host.url);
  });
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const panel = (): ReturnType<Page['getByTestId']> => page.getByTestId('detail-panel');
  const openId = async (): Promise<string> => (await panel().getAttribute('data-task-id')) ?? '';

  async function create(title: string): Promise<string> {
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title });
    await dialog.submit();
    await dialog.root.waitFor({ state: 'hidden' });
    await new TaskDetailPage(page).waitFor(title);
    return openId();
  }

  it('opens each created task under its local id, then follows the real id in place and in history', async () => {
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Customer portal 4');

    // Offline, so the ids stay local until the service is back.
    app.faults!.set({ dropBefore: { rate: 1 } });
    await page.getByTestId('sync-now').click();
    await ui.waitForOnline(false);

    const firstLocal = await create('Write the launch checklist');
    const secondLocal = await create('Book the launch room');
    expect(firstLocal).not.toBe(secondLocal);
    await ui.waitForPendingCount(2);
    await screenshot(page, 'new-task-opened');

    // Back online: both creates are acknowledged and get the service's ids.
    app.faults!.reset();
    await ui.waitForPendingCount(0);
    const onService = await eventually(
      () => app.api<ServiceTask[]>('/project/g7-p4/tasks'),
      (tasks) =>
        tasks.filter((t) => t.name === 'Book the launch room' || t.name === 'Write the launch checklist')
          .length === 2,
    );
    const realOf = (name: string): string => onService.find((t) => t.name === name)!.id;

    // The open one: still open, same task, now under its real id.
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="detail-panel"]')?.getAttribute('data-task-id') === id,
      realOf('Book the launch room'),
    );
    await new TaskDetailPage(page).waitFor('Book the launch room');
    await expect(page.getByText('This task is not here any more').count()).resolves.toBe(0);

    // The earlier one, in history: going back opens it under its real id too.
    await ui.back();
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="detail-panel"]')?.getAttribute('data-task-id') === id,
      realOf('Write the launch checklist'),
    );
    await new TaskDetailPage(page).waitFor('Write the launch checklist');
    expect(await openId()).not.toBe(firstLocal);
    await screenshot(page, 'new-task-remapped');
  });
});
