import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';

/** The box of an element, or a failure naming it. */
async function box(
  locator: Locator,
  what: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${what} is not laid out`);
  return found;
}

/** Every control of the view's toolbar, with the edge of what the user can see of the view. */
async function toolbarControls(page: Page): Promise<{ name: string; right: number }[]> {
  const toolbar = page.locator('main header.toolbar').first();
  return toolbar.locator('button').evaluateAll((buttons) =>
    buttons.map((button) => ({
      name: button.getAttribute('aria-label') ?? button.textContent?.trim() ?? '',
      right: button.getBoundingClientRect().right,
    })),
  );
}

// In a 900-pixel window with a task open beside the list, the project's layout switch and its
// "+ Task" button stay in reach (they were once pushed under the detail panel), the title keeps
// its room, and the panel's fields stay inside its right edge; a CRM list and its record share
// the width.
describe('a narrow window with the detail panel open', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 900, height: 700 } });

  it('keeps every toolbar control and the title in view, and the panel holds its fields', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Mobile app 5');
    await list.waitForRows();
    await list.openRow(1);
    const panel = page.getByTestId('detail-panel');
    await panel.getByTestId('task-fields').waitFor();

    const panelLeft = (await box(panel, 'the detail panel')).x;
    const controls = await toolbarControls(page);
    expect(controls.map((control) => control.name)).toEqual(
      expect.arrayContaining(['List', 'Board', 'Overview', 'Timeline', 'Task']),
    );
    expect(controls.filter((control) => control.right > panelLeft + 0.5)).toEqual([]);
    // The title keeps room for its first words.
    expect((await box(ui.viewTitle, 'the title')).width).toBeGreaterThan(80);

    // Each layout stays one click away, named for assistive technology and by its tooltip.
    const board = page.getByRole('radio', { name: 'Board', exact: true });
    await expect.poll(() => board.getAttribute('title')).toBe('Board');
    await board.click();
    await page.getByTestId('board').waitFor();
    await expect.poll(() => panel.count()).toBe(1);

    // Nothing in the panel runs past its right edge.
    const overflow = await panel.locator('.scroll').evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, 'narrow-window-board-with-panel');
  });

  it('gives a CRM list and its record room side by side', async () => {
    const { page } = suite;
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('crm-row').first().click();
    const detail = page.getByTestId('crm-detail');
    await detail.waitFor();
    const listWidth = (await box(page.getByTestId('crm-list'), 'the contact list')).width;
    const detailWidth = (await box(detail, 'the contact')).width;
    // Before: the record took 440 of the 652 pixels and the list's e-mails showed as "cont…".
    expect(listWidth).toBeGreaterThanOrEqual(detailWidth - 100);
    await screenshot(page, 'narrow-window-contacts');
  });
});
