import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { BoardPage } from './pages/board';

interface ServiceTask {
  id: string;
  name: string;
  momentClosed: string | null;
  status: { id: string; name: string };
  priority: number;
}

describe('the daily loop, reading: tree, project list, board, My Work, tag, task detail', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 860 } });

  it('shows the folder tree with expand/collapse remembered, and the status bar online and synced', async () => {
    const { page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.treeItem('Support desk 1').waitFor();
    await ui.waitForOnline(true);
    await expect.poll(() => page.getByTestId('last-synced').innerText()).toMatch(/^Synced /);
    expect(await ui.pendingCount()).toBe(0);

    await page.reload();
    await ui.treeItem('Support desk 1').waitFor();
    await ui.treeItem('Website relaunch area 1').focus();
    await page.keyboard.press('ArrowLeft');
    await ui.treeItem('Support desk 1').waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowRight');
    await ui.treeItem('Support desk 1').waitFor();
  });

  it('lists a project with the same open tasks as the service, sorts, groups by status and shows closed ones', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks?closed=true');
    const open = tasks.filter((task) => !task.momentClosed);
    await ui.openProject('Support desk 1');
    await list.waitForRows();
    await list.waitForTotal(open.length);
    expect(await page.title()).toBe('Support desk 1 — Workdesk');

    await list.sortBy('Name');
    const expected = open.map((task) => task.name).sort((a, b) => a.localeCompare(b));
    const names = await list.visibleNames();
    expect(names.slice(0, 5)).toEqual(expected.slice(0, 5));
    await screenshot(page, 'project-list');

    await list.setToggle('toggle-closed', true);
    await list.waitForTotal(tasks.length);
    await list.setToggle('toggle-group', true);
    const headers = page.getByTestId('group-header');
    await headers.first().waitFor();
    const statusNames = new Set(tasks.map((task) => task.status.name));
    // (The list's first frame holds the rows in view; the ones just below come a moment later.)
    await expect.poll(() => headers.count()).toBe(statusNames.size);
    await screenshot(page, 'project-list-grouped');
    await list.setToggle('toggle-group', false);
    await list.setToggle('toggle-closed', false);
    await list.waitForTotal(open.length);
  });

  it('opens a task in the detail panel with its fields and messages, and full view', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const target = tasks[0]!;
    await list.open(target);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(target.name);
    await expect
      .poll(() => detail.field('field-status').getAttribute('aria-label'))
      .toBe(`Status: ${target.status.name}`);
    expect(await page.title()).toBe(`${target.name} · Support desk 1 — Workdesk`);
    await screenshot(page, 'task-detail-panel');

    await page.getByRole('button', { name: 'Open full view' }).click();
    await ui.waitForTitle(target.name);
    await screenshot(page, 'task-detail-full');
    await ui.back();
    await page.getByTestId('detail-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('detail-panel').waitFor({ state: 'detached' });
  });

  it('shows the board by status', async () => {
    const { app, page } = suite;
    await page.getByTestId('layout-board').click();
    const board = new BoardPage(page);
    await board.root.waitFor();
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const first = tasks[0]!;
    await board.card(first.name).waitFor();
    const column = board.column(first.status.name);
    await expect.poll(() => column.getByTestId('board-card').filter({ hasText: first.name }).count()).toBe(1);
    await screenshot(page, 'board');
    await page.getByTestId('layout-list').click();
  });

  it("shows My Work (action required, assigned to me) with the service's counts, and a tag's tasks", async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const user = app.service!.users.actingUserId;
    const action = await app.api<ServiceTask[]>(`/user/${user}/action-required-tasks`);
    const assigned = await app.api<ServiceTask[]>(`/user/${user}/assigned-tasks`);
    await ui.goToActionRequired();
    // Action required is an inbox (tests/e2e/inbox.e2e.test.ts): a row per task; the sidebar
    // counts the new ones, none at the first look.
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="inbox-row"]').length === n,
      action.length,
    );
    await expect.poll(() => page.getByTestId('count-action').count()).toBe(0);
    await screenshot(page, 'my-work-action-required');
    await ui.goToAssigned();
    await list.waitForTotal(assigned.length);

    const tagged = await app.api<ServiceTask[]>('/tag/tag-urgent/tasks');
    await ui.sidebar.getByRole('button', { name: 'Urgent' }).click();
    await ui.waitForTitle('Tag · Urgent');
    await list.waitForTotal(tagged.length);
    await screenshot(page, 'tag-view');
  });

  it('moves through the list by keyboard and opens the active task with Enter', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openProject('Support desk 1');
    await list.waitForRows();
    await list.table.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-panel').waitFor();
    const names = await list.visibleNames();
    await new TaskDetailPage(page).waitFor(names[1]);
  });
});
