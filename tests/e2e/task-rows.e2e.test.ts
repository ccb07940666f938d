/// <reference lib="dom" />
// The task grid's light rows (issue #8, speed): a row is plain markup until one of its pickers
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
    expect(await page.locator('[data-testid="task-row"] [aria-expanded="true"]').count()).toBe(0);
    const row = list.rows.nth(2);
    const task = {
      id: (await row.getAttribute('data-task-id'))!,
      name: await row.locator('.task-name').innerText(),
    };
    const before = await app.api<ServiceTask>(`/task/${task.id}`);
    const cell = list.row(task).getByTestId('cell-status');
    expect(await cell.getAttribute('aria-label')).toBe(`Status of ${task.name}: ${before.status.name}`);

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
    expect(await list.row(task).getByTestId('cell-status').getAttribute('aria-label')).toBe(
      `Status of ${task.name}: ${next}`,
    );
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
