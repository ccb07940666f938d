/// <reference lib="dom" />
// The task grid's light rows (for speed on a 10,000-task list): a row is plain markup until one of its pickers
// is used, and then behaves as the Picker always did; dialogs open with the focus on their
// first field.
import { describe, expect, it } from 'vitest';
import { appSuite } from './support/suite';
import { screenshot } from './support/browser';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';

interface ServiceTask {
  id: string;
  name: string;
  status: { id: string; name: string };
}

describe('task rows: light until used, pickers open in place; dialogs focus their first field', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it('renders rows without any picker, and mounts one (opened, beside its cell) when a cell is used', async () => {
    const { page, ui, app } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    // No row holds a Picker until one is used: every status cell is a plain button.
    await expect.poll(() => page.locator('[data-testid="task-row"] [aria-expanded="true"]').count()).toBe(0);
    const row = list.rows.nth(2);
    const task = {
      id: (await row.getAttribute('data-task-id'))!,
      name: await row.locator('.task-name').innerText(),
    };
    const before = await app.api<ServiceTask>(`/task/${task.id}`);
    const cell = list.row(task).getByTestId('cell-status');
    await expect
      .poll(() => cell.getAttribute('aria-label'))
      .toBe(`Status of ${task.name}: ${before.status.name}`);

    await cell.click();
    const filter = page.getByRole('combobox', { name: `Filter Status of ${task.name}` });
    await filter.waitFor();
    // The list opens just below (or above) its cell, not elsewhere on the page.
    const cellBox = (await list.row(task).getByTestId('cell-status').boundingBox())!;
    const filterBox = (await filter.boundingBox())!;
    expect(Math.abs(filterBox.x - cellBox.x)).toBeLessThan(40);
    expect(Math.abs(filterBox.y - (cellBox.y + cellBox.height))).toBeLessThan(60);
    await screenshot(page, 'task-rows-picker-open');

    const next = before.status.name === 'On Hold' ? 'In Progress' : 'On Hold';
    await filter.fill(next);
    await filter.press('Enter');
    await filter.waitFor({ state: 'detached' });
    // The picker keeps the focus on its cell, as a picker does, and the row shows the choice.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'cell-status',
    );
    // (The write reaches the core and comes back as the row's new value a moment later.)
    await expect
      .poll(() => list.row(task).getByTestId('cell-status').getAttribute('aria-label'))
      .toBe(`Status of ${task.name}: ${next}`);
    await eventually(
      () => app.api<ServiceTask>(`/task/${task.id}`),
      (t) => t.status.name === next,
    );

    // The keyboard opens a row's picker too (Enter on the cell's button).
    const other = list.rows.nth(3);
    await other.getByTestId('cell-priority').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: /^Filter Priority of / }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: /^Filter Priority of / }).waitFor({ state: 'detached' });
  });

  it('keeps every cell in its column while an editor is open in the row, and after it closes', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    const row = list.rows.nth(5);
    const task = {
      id: (await row.getAttribute('data-task-id'))!,
      name: await row.locator('.task-name').innerText(),
    };
    // The row's cells in page order, each named by what it shows (an editor by what it edits).
    const columns = (): Promise<string[]> =>
      list.row(task).evaluate((el) =>
        [...el.children]
          .filter((cell) => cell.getAttribute('role') === 'gridcell')
          .map((cell) => {
            const id =
              cell.getAttribute('data-testid') ??
              cell.querySelector('[data-testid]')?.getAttribute('data-testid');
            if (id) return id;
            if (cell.querySelector('input[type="date"]')) return 'cell-deadline';
            return cell.classList[0] ?? '?';
          }),
      );
    const order = [
      'check',
      'name',
      'cell-status',
      'cell-assignee',
      'user-chip',
      'cell-priority',
      'cell-deadline',
      'progress-bar',
    ];
    expect(await columns()).toEqual(order);
    // Each editor stands in its own cell's place (lib/task-row-cells.ts places the cells around it).
    for (const cell of ['cell-assignee', 'cell-priority', 'cell-status'] as const) {
      await list.row(task).getByTestId(cell).click();
      await page.getByRole('combobox', { name: /^Filter / }).waitFor();
      expect(await columns()).toEqual(order);
      await page.keyboard.press('Escape');
      await page.getByRole('combobox', { name: /^Filter / }).waitFor({ state: 'detached' });
    }
    await list.row(task).getByTestId('cell-deadline').click();
    await list.row(task).locator('input[type="date"]').waitFor();
    expect(await columns()).toEqual(order);
    await page.keyboard.press('Escape');
    await list.row(task).locator('input[type="date"]').waitFor({ state: 'detached' });
    expect(await columns()).toEqual(order);
    await list
      .row(task)
      .getByRole('button', { name: `Rename ${task.name}` })
      .click();
    const rename = list.row(task).getByRole('textbox', { name: `Name of ${task.name}` });
    await rename.waitFor();
    expect(await columns()).toEqual(order);
    await rename.press('Escape');
    await rename.waitFor({ state: 'detached' });
    expect(await columns()).toEqual(order);
    await expect.poll(() => list.row(task).locator('.task-name').innerText()).toBe(task.name);
  });

  it('leaves the list after its sort buttons with Tab, not through every row’s buttons', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    // (Another project: a picker used in a row stays mounted, and in the Tab order, until the row is re-filled.)
    await ui.openDemoProject('Support desk 2');
    await list.waitForRows();
    await list.table.focus();
    const inRows = (): Promise<boolean> =>
      page.evaluate(() => document.activeElement?.closest('[data-testid="task-row"]') !== null);
    const inTable = (): Promise<boolean> =>
      page.evaluate(() => document.activeElement?.closest('[data-testid="task-table"]') !== null);
    // The column headers' sort buttons (Name, Status, Assignee, Priority, Deadline), then out.
    let tabs = 0;
    while (tabs < 10) {
      await page.keyboard.press('Tab');
      tabs += 1;
      expect(await inRows()).toBe(false);
      if (!(await inTable())) break;
    }
    expect(tabs).toBe(6);
    // The rows' cells are still reached by their keys: S opens the active row's status picker.
    await list.table.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('s');
    await page.getByRole('combobox', { name: /^Filter Status of / }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('clips a name with an ellipsis only when it does not fit its cell, and again when the cell grows', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    const row = list.rows.nth(4);
    const task = {
      id: (await row.getAttribute('data-task-id'))!,
      name: await row.locator('.task-name').innerText(),
    };
    // Short text fits: no clip anywhere in the row (a clip is what makes scrolling slow).
    await expect.poll(() => list.row(task).locator('[data-clip]').count()).toBe(0);

    // About 60 characters: too long for the name column at 1440 px, room to spare at 2400 px.
    const long = `${task.name}, then write down what was agreed with the customer`;
    await list.rename(task, long);
    const renamed = { id: task.id, name: long };
    const name = list.row(renamed).locator('.task-name');
    await expect.poll(() => name.innerText()).toBe(long);
    await expect.poll(() => name.getAttribute('data-clip')).toBe('');
    // Clipped inside its cell, with its full text still there.
    const cell = list.row(renamed).getByRole('gridcell').nth(1);
    const nameBox = (await name.boundingBox())!;
    const cellBox = (await cell.boundingBox())!;
    expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(cellBox.x + cellBox.width);
    // The whole name is the clipped text's tooltip, put in when the pointer comes over it.
    await expect.poll(() => name.getAttribute('title')).toBeNull();
    await name.hover();
    await expect.poll(() => name.getAttribute('title')).toBe(long);
    await screenshot(page, 'task-rows-long-name');

    // A wider window gives the column room: the clip goes; narrower again, it comes back.
    await page.setViewportSize({ width: 2400, height: 900 });
    await expect.poll(() => name.getAttribute('data-clip')).toBeNull();
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(() => name.getAttribute('data-clip')).toBe('');
    // Other text in the same row element: a short name is not clipped.
    await list.rename(renamed, task.name);
    await expect.poll(() => list.row(task).locator('.task-name').getAttribute('data-clip')).toBeNull();
  });

  it('shows an empty assignee or action-required cell as a dash, spoken as none', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    // The demo's project has unassigned tasks: their cells read as the empty deadline does.
    const assignee = list.rows.getByTestId('cell-assignee').and(page.locator('[aria-label$=": none"]'));
    await assignee.first().waitFor();
    await expect.poll(() => assignee.first().innerText()).toBe('—');
    const nobody = list.rows.locator('.user-chip.none').first();
    await expect.poll(() => nobody.innerText()).toBe('—');
    const noProgress = list.rows.getByRole('gridcell', { name: 'Progress: none' }).first();
    await expect.poll(() => noProgress.innerText()).toBe('—');
    await screenshot(page, 'task-rows-empty-cells');
  });

  it('says whose subtask a subtask row is, and nothing on a top-level task', async () => {
    const { page, ui, app } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    const hint = page.locator('.parent-task:not(.none)');
    await list.rows.locator(hint).first().waitFor();
    const row = list.rows.filter({ has: hint }).first();
    const id = (await row.getAttribute('data-task-id'))!;
    const subtask = await app.api<{ parentTaskId: string | null }>(`/task/${id}`);
    expect(subtask.parentTaskId).not.toBeNull();
    const parent = await app.api<ServiceTask>(`/task/${subtask.parentTaskId}`);
    await expect.poll(() => row.locator('.parent-task').innerText()).toBe(`subtask of ${parent.name}`);
    // A top-level task (the parent, when listed) says nothing of the kind.
    const top = list.rows.filter({ hasNot: hint }).first();
    const topTask = await app.api<{ parentTaskId: string | null }>(
      `/task/${(await top.getAttribute('data-task-id'))!}`,
    );
    expect(topTask.parentTaskId).toBeNull();
    await expect.poll(() => top.locator('.parent-task').isVisible()).toBe(false);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'task-rows-subtask');
  });

  it('closes the open task with Escape in the list; several selected rows are unselected first', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
    await list.table.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('detail-panel');
    await panel.waitFor();
    await list.table.focus();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // With several rows selected, the first Escape unselects them and the panel stays.
    await page.keyboard.press('Enter');
    await panel.waitFor();
    await list.table.focus();
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await expect.poll(() => list.rows.and(page.locator('[aria-selected="true"]')).count()).toBeGreaterThan(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => list.rows.and(page.locator('[aria-selected="true"]')).count()).toBe(0);
    await expect.poll(() => panel.count()).toBe(1);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('opens a dialog with the focus on its first field, not on Close', async () => {
    const { page } = suite;
    await page.getByTestId('nav-calendar').click();
    await page.getByTestId('event-new').click();
    const dialog = page.getByTestId('new-event');
    await dialog.waitFor();
    // The New event dialog has no field of its own asking for the focus: the dialog gives it.
    const focused = await eventually(
      () =>
        page.evaluate(
          () => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName,
        ),
      (id) => id !== 'BODY',
    );
    expect(focused).toBe('event-type');
    await screenshot(page, 'task-rows-dialog-focus');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });
});
