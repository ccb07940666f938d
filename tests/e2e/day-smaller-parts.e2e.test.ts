/// <reference lib="dom" />
// The smaller parts of a working day: a new task complete with tags and custom fields, a
// folder's list, opening a task without selecting it, the board's Done column.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { BoardPage } from './pages/board';
import { NewTaskDialogPage } from './pages/new-task';
import { TaskListPage } from './pages/task-list';
import { choose } from './pages/picker';

interface ServiceTask {
  id: string;
  name: string;
  projectId: string;
  customFieldsData: Record<string, unknown>;
}

describe('a working day: the smaller parts', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it('creates a task with a tag and a custom field value from the New task dialog', async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title: 'Complete on creation', project: 'Support desk 1' });
    await choose(page, dialog.root.getByTestId('nt-add-tag'), 'Backend');
    await dialog.root.getByTestId('nt-tag').filter({ hasText: 'Backend' }).waitFor();
    const reference = dialog.root.getByTestId('cf-Customer reference').locator('input');
    await reference.fill('PO-4471');
    await reference.press('Tab');
    await screenshot(page, 'day-new-task-tags-fields');
    await dialog.submit();
    await dialog.root.waitFor({ state: 'hidden' });
    await ui.waitForPendingCount(0);
    const created = await eventually(
      async () =>
        (await app.api<ServiceTask[]>('/project/g7-p1/tasks')).find((t) => t.name === 'Complete on creation'),
      (t) => t !== undefined && Object.values(t.customFieldsData).includes('PO-4471'),
    );
    const tags = await app.api<{ id: string; name: string }[]>('/tags');
    const backend = tags.find((tag) => tag.name === 'Backend')!;
    const tagged = await app.api<ServiceTask[]>(`/tag/${backend.id}/tasks`);
    expect(tagged.map((t) => t.id)).toContain(created!.id);
  });

  it("lists a folder's tasks with a Project column, Subfolders on", async () => {
    const { page, ui } = suite;
    await ui.expand('Company Workspace');
    await ui.openProject('Website relaunch area 1');
    const list = new TaskListPage(page);
    await list.waitForRows();
    await expect.poll(() => page.getByTestId('toggle-subfolders').isChecked()).toBe(true);
    await list.table.getByRole('columnheader', { name: 'Project' }).waitFor();
    expect(await list.total()).toBeGreaterThan(0);
    await screenshot(page, 'day-folder-list');
  });

  it('opens a task without selecting its row for a bulk change', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    const task = await list.openRow(1);
    await expect.poll(() => list.row(task).getAttribute('aria-selected')).toBe('false');
    // A Ctrl+click on two others selects those two only: the bulk bar says 2.
    const a = list.rows.nth(2);
    const b = list.rows.nth(3);
    await a.locator('.task-name').click({ modifiers: ['Control'] });
    await b.locator('.task-name').click({ modifiers: ['Control'] });
    await page.getByTestId('bulk-bar').getByText('2 selected').waitFor();
    await page.keyboard.press('Escape');
  });

  it('shows a Done column on the board, its closed tasks folded until shown', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Support desk 1');
    await page.getByTestId('layout-board').click();
    const board = new BoardPage(page);
    await board.root.waitFor();
    // The board's columns come in with its first read: wait for them rather than read at once.
    await eventually(
      () => board.columnNames(),
      (names) => names.at(-1) === 'Done',
    );
    const done = board.column('Done');
    await expect.poll(() => done.getByTestId('board-card').count()).toBe(0);
    await screenshot(page, 'day-board-done-folded');
    await done.getByTestId('board-show-closed').click();
    await page.getByTestId('board-show-closed').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('toggle-closed').isChecked()).toBe(true);
    // Shown, the closed statuses have their columns (the demo's Done and Cancelled) with their cards.
    // The board reads again with closed tasks: its columns are rebuilt, so wait for them.
    await eventually(
      () => board.columnNames(),
      (names) => names.includes('Done') && names.includes('Cancelled'),
    );
    await eventually(
      () => board.column('Done').getByTestId('board-card').count(),
      (count) => count > 0,
    );
    await screenshot(page, 'day-board-done-shown');
  });
});
