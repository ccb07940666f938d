import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { BoardPage } from './pages/board';

interface ServiceTask {
  id: string;
  name: string;
  status: { name: string };
  priority: number;
  assignedToUserId: string | null;
}

describe('the board grouped by status, assignee or priority', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let board: BoardPage;
  const task = (id: string) => app.api<ServiceTask>(`/task/${id}`);

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
    ui = new AppPage(page);
    board = new BoardPage(page);
    await ui.open(app.host.url);
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
  });
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('groups by assignee and by priority; a drag changes that field on the service', async () => {
    const tasks = await app.api<ServiceTask[]>('/project/g7-p6/tasks');
    // Unique names, so a card is found by its name alone.
    const unique = tasks.filter((t) => tasks.filter((o) => o.name === t.name).length === 1);
    // From the column beside Dan's, and from a high priority beside Blocker's, so both ends of
    // each drag are on screen.
    const byDan = unique.find((t) => t.assignedToUserId === 'u-cleo')!;
    const toBlocker = unique.find((t) => [8, 9, 10, 100].includes(t.priority) && t.id !== byDan.id)!;
    await ui.openProject('Mobile app 6');
    await page.getByTestId('layout-board').click();
    await board.root.waitFor();
    expect(await board.grouping()).toBe('board-group-status');

    await board.groupBy('assignee');
    expect(await board.root.getAttribute('aria-label')).toBe('Board by assignee');
    const people = await board.columnNames();
    expect(people[0]).toBe('Nobody');
    expect(people).toContain('Dan Whitfield');
    // Both columns in view: the drag itself does not scroll the board.
    await board.column('Dan Whitfield').scrollIntoViewIfNeeded();
    await board.drag(byDan.name, 'Dan Whitfield');
    await board.column('Dan Whitfield').getByTestId('board-card').filter({ hasText: byDan.name }).waitFor();
    await screenshot(page, 'board-by-assignee');
    await eventually(
      () => task(byDan.id),
      (t) => t.assignedToUserId === 'u-dan',
    );

    await board.groupBy('priority');
    await board.column('Emergency').scrollIntoViewIfNeeded();
    expect((await board.columnNames()).slice(0, 3)).toEqual(['Emergency', 'Blocker', '10']);
    await board.drag(toBlocker.name, 'Blocker');
    await board.column('Blocker').getByTestId('board-card').filter({ hasText: toBlocker.name }).waitFor();
    await screenshot(page, 'board-by-priority');
    await eventually(
      () => task(toBlocker.id),
      (t) => t.priority === 50,
    );
  });

  it('remembers the grouping per project', async () => {
    // Another project starts by status.
    await ui.openProject('Mobile app 5');
    await page.getByTestId('layout-board').click();
    await board.root.waitFor();
    expect(await board.grouping()).toBe('board-group-status');

    // Back to the first, after a reload: still by priority.
    await page.reload();
    await ui.sidebar.waitFor();
    await ui.openProject('Mobile app 6');
    await page.getByTestId('layout-board').click();
    await board.root.waitFor();
    expect(await board.grouping()).toBe('board-group-priority');
    expect(await board.root.getAttribute('aria-label')).toBe('Board by priority');
  });
});
