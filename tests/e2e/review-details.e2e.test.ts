import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';
import { CalendarPage } from './pages/calendar';

// Session 5 review: the smaller findings a user meets in a day (see /work/notes/s5-review.md).
describe('small things in a working day', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('opens a task full size with O when its row is already open beside the list', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Mobile app 5');
    await list.waitForRows();
    const row = list.rows.nth(1);
    const id = (await row.getAttribute('data-task-id')) ?? '';
    await row.locator('.task-name').click();
    await page.getByTestId('detail-panel').waitFor();
    await list.table.focus();
    // Before: O opened the same task beside the list again, which did nothing.
    await page.keyboard.press('o');
    await page.waitForFunction(() => !document.querySelector('[data-testid="detail-panel"]'));
    await page.waitForFunction((taskId) => !!document.getElementById(`title-${taskId}`), id);
    await screenshot(page, 'review-o-full-size');
    await ui.back();
    await page.getByTestId('detail-panel').waitFor();
  });

  it('gives the focus back to the task in the list or on the board when its panel closes', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Mobile app 6');
    await list.waitForRows();
    const row = list.rows.nth(2);
    const id = (await row.getAttribute('data-task-id')) ?? '';
    await row.locator('.task-name').click();
    const panel = page.getByTestId('detail-panel');
    // Before: closing with the button left the focus on the page's body.
    await panel.getByRole('button', { name: 'Close details (Escape)' }).click();
    await panel.waitFor({ state: 'detached' });
    const focusedRow = (): Promise<string | null | undefined> =>
      page.evaluate(() => {
        const grid = document.activeElement?.closest('[role="grid"]');
        const active = grid?.getAttribute('aria-activedescendant');
        return active ? document.getElementById(active)?.getAttribute('data-task-id') : undefined;
      });
    expect(await focusedRow()).toBe(id);

    await page.getByTestId('layout-board').click();
    const card = page.locator(`[data-testid="board-card"][data-task-id="${id}"]`);
    await card.focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('button', { name: 'Open full view' }).focus();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-task-id'))).toBe(id);
    await page.getByTestId('layout-list').click();
  });

  it('lists an agenda line with only the parts it has: no dot before a milestone’s project', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    // The demo's milestone is five days back, without an end; that may be last month.
    const milestone = new Date();
    milestone.setDate(milestone.getDate() - 5);
    if (milestone.getMonth() !== new Date().getMonth()) {
      await page.getByRole('button', { name: /previous month/i }).click();
    }
    await page.getByRole('radio', { name: 'Agenda', exact: true }).click();
    await calendar.agendaItems.first().waitFor();
    const metas = await calendar.agendaItems.locator('.meta').allInnerTexts();
    expect(metas.filter((meta) => /^\s*·|·\s*$|·\s*·/.test(meta))).toEqual([]);
    const line = calendar.agendaItems.filter({ hasText: 'project milestone 1' });
    expect((await line.locator('.meta').innerText()).trim()).toMatch(/^[^·\s]/);
    await screenshot(page, 'review-agenda');
  });

  it('says what a refused estimate must be', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Support desk 2');
    await list.waitForRows();
    await list.rows.nth(1).locator('.task-name').click();
    const panel = page.getByTestId('detail-panel');
    await panel.getByTestId('task-fields').waitFor();
    const hours = panel.getByLabel('Estimate hours');
    await hours.fill('-3');
    await hours.press('Tab');
    // The pair is read when the focus leaves it.
    await panel.getByLabel('Estimate minutes').press('Tab');
    // Before: "hours must be a whole number", which -3 is.
    await panel.getByText('Estimate: hours must be a whole number, 0 or more, and minutes 0 to 59').waitFor();
  });
});
