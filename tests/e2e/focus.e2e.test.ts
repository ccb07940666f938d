/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';

/** Where the keyboard focus is: test id, else tag and label. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return 'body';
    return (
      active.dataset['testid'] ?? `${active.tagName.toLowerCase()} ${active.getAttribute('aria-label') ?? ''}`
    );
  });
}

// The keyboard focus goes where the user's next key is meant to act: into what was opened, back to
// what was left, never to the page's body.
describe('the keyboard focus across views, panels, the palette and dialogs', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('keeps the frame in the window when a task opens and its message box takes the focus', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.openHit('Ship login flow', 'Tasks');
    await page.getByTestId('detail-panel').waitFor();
    // Before: a visually hidden label in the panel's scrolling body was placed against the page,
    // 1000 px below the window, so the document itself could scroll: a focus or scroll into view
    // then moved the whole frame up, under a blank band, with no way back.
    const extent = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(extent).toBe(800);
    await page.keyboard.press('c');
    await page.locator('textarea[id^="composer-"]:focus').waitFor();
    await page.evaluate(() => document.querySelector('[id^="composer-"]')?.scrollIntoView());
    expect(await page.evaluate(() => document.documentElement.scrollTop)).toBe(0);
    const bar = await page.getByTestId('status-bar').boundingBox();
    expect(bar && bar.y + bar.height).toBe(800);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
  });

  it('takes the focus into what the palette opens, not back to the sidebar', async () => {
    const { page, ui } = suite;
    const palette = new PalettePage(page);
    await ui.goToActionRequired();
    await page.getByTestId('nav-action-required').focus();
    await palette.openHit('Ship login flow', 'Tasks');
    // Before: the focus went back to "Action required" in the sidebar.
    await page.locator('[data-testid="detail-panel"]:focus').waitFor();
    // The task keys act on the task the palette opened; Escape closes it, the list takes the focus.
    await page.keyboard.press('p');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="detail-panel"] [data-testid="field-priority"]:focus').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('detail-panel').waitFor({ state: 'hidden' });
    expect(await focused(page)).toBe('inbox');

    // "calendar" goes there (before: it opened a New event dialog, listed first).
    expect(await palette.runCommand('calendar')).toBe('Go to Calendar');
    await ui.waitForTitle('Calendar');
    await page.locator('[data-testid="view-title"]:focus').waitFor();

    // A contact: its record takes the focus, Tab goes on to its Edit button.
    await palette.openHit('Maya', 'Contacts');
    await page.locator('[data-testid="crm-detail"]:focus').waitFor();
    await screenshot(page, 'focus-after-palette');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="crm-detail"]'))).toBe(
      true,
    );
  });

  it('never leaves the focus on the page body after a view change or a dialog', async () => {
    const { page, ui } = suite;
    const palette = new PalettePage(page);
    await ui.goToAssigned();
    await page.getByTestId('task-table').focus();
    // The list goes with the view: before, the focus fell to <body> and Tab started over.
    await page.keyboard.press('Control+,');
    await ui.waitForTitle('Settings');
    await page.locator('[data-testid="view-title"]:focus').waitFor();
    await page.keyboard.press('Alt+ArrowLeft');
    await page.locator('[data-testid="task-table"]:focus').waitFor();

    // A dialog opened from the palette has nothing to hand the focus back to on Escape.
    await palette.runCommand('New calendar event');
    await page.getByTestId('event-type').waitFor();
    await page.getByTestId('event-start').fill('2026-11-24');
    await page.getByRole('button', { name: 'Clear Start date' }).focus();
    await page.keyboard.press('Enter');
    // The Clear button goes with the date; the focus goes to the date field, not <body>.
    expect(await focused(page)).toBe('event-start');
    await page.keyboard.press('Escape');
    await page.getByTestId('event-type').waitFor({ state: 'hidden' });
    await page.locator('[data-testid="view-title"]:focus').waitFor();
  });

  it('gives the focus back to the task in the list or on the board when its panel closes', async () => {
    const { page } = suite;
    const {
      task: { id },
    } = await suite.ui.openBeside('Mobile app 6', 2);
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

  it('crosses a project’s layout switch with one Tab, and changes the layout with the arrows', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await new PalettePage(page).openProject('Support desk 1', 'overview');
    await page.getByTestId('layout-overview').focus();
    // Before: List, Board, Overview and Timeline were a Tab stop each.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="radiogroup"]'))).toBeNull();
    await page.keyboard.press('Tab');
    await page.locator('[data-testid="layout-overview"]:focus').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="radiogroup"]'))).toBeNull();
    await page.getByTestId('layout-overview').focus();
    await page.keyboard.press('ArrowRight');
    await page.locator('[data-testid="layout-timeline"][aria-checked="true"]:focus').waitFor();
    await page.getByTestId('timeline').waitFor();
    await page.keyboard.press('Home');
    await page.locator('[data-testid="layout-list"][aria-checked="true"]:focus').waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
