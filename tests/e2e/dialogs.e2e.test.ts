import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { NewTaskDialogPage } from './pages/new-task';

/** Whether the whole of `locator` is on screen and not scrolled out of its dialog's body. */
async function inSight(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (box.top < 0 || box.bottom > window.innerHeight) return false;
    const body = el.closest('dialog')?.querySelector('.body');
    if (!body?.contains(el)) return true;
    const frame = body.getBoundingClientRect();
    return box.top >= frame.top && box.bottom <= frame.bottom;
  });
}

const focusedTestId = (page: Page): Promise<string | null | undefined> =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

// In a small window a refused New task shows why where the user looks, what was typed survives
// Escape, and the shortcuts help keeps every key inside its column.
describe('dialogs in a 900x700 window', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 900, height: 700 } });

  it('shows why a new task was refused where the user looks, and takes them to the field', async () => {
    const { page } = suite;
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title: 'Plan the offsite' });
    await dialog.submit();
    await dialog.error.waitFor();
    await expect.poll(() => dialog.error.innerText()).toMatch(/^Project: /);
    // Before: the line sat under the form's last field, below the fold of the dialog.
    expect(await inSight(dialog.error)).toBe(true);
    expect(await focusedTestId(page)).toBe('nt-project');
    await expect.poll(() => page.getByTestId('nt-project').getAttribute('data-invalid')).toBe('');

    await dialog.fill({ project: 'Support desk 2' });
    await dialog.root.getByLabel('Story points').fill('-2');
    await dialog.submit();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="nt-error"]')?.textContent?.startsWith('Story points'),
    );
    expect(await inSight(dialog.error)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('nt-points');
    await screenshot(page, 'dialogs-new-task-refused');
    await page.keyboard.press('Escape');
    await dialog.root.getByRole('heading').waitFor({ state: 'detached' });
  });

  it('keeps what was typed in a New task closed by Escape, until a task is created', async () => {
    const { page, ui } = suite;
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title: 'Call the printer', description: 'About the Q3 flyers.' });
    await page.keyboard.press('Escape');
    await dialog.root.getByRole('heading').waitFor({ state: 'detached' });
    // Before: one Escape threw the text away.
    await dialog.openWithShortcut();
    await expect.poll(() => page.getByTestId('nt-title').inputValue()).toBe('Call the printer');
    await expect.poll(() => dialog.root.getByLabel('Description').inputValue()).toBe('About the Q3 flyers.');
    await page.getByTestId('nt-restored').waitFor();
    await screenshot(page, 'dialogs-new-task-restored');
    await page.getByTestId('nt-restored').getByRole('button', { name: 'Start empty' }).click();
    await expect.poll(() => page.getByTestId('nt-title').inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('nt-title');

    await dialog.fill({ title: 'Call the printer', project: 'Support desk 2' });
    await dialog.root.getByRole('button', { name: 'Cancel' }).click();
    await dialog.openWithShortcut();
    await expect.poll(() => page.getByTestId('nt-title').inputValue()).toBe('Call the printer');
    await dialog.fill({ project: 'Support desk 2' });
    await dialog.submit();
    await dialog.root.getByRole('heading').waitFor({ state: 'detached' });
    await ui.waitForTitle('Support desk 2');
    await dialog.openWithShortcut();
    await expect.poll(() => page.getByTestId('nt-title').inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('nt-restored').count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.root.getByRole('heading').waitFor({ state: 'detached' });
  });

  it('lists the shortcuts with every key inside its column', async () => {
    const { page } = suite;
    await page.getByTestId('nav-settings').focus();
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcuts-help');
    await help.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor();
    const spill = await help.locator('dt').evaluateAll((terms) =>
      terms.flatMap((term) => {
        const edge = term.getBoundingClientRect().right;
        return [...term.querySelectorAll('kbd')]
          .filter((key) => key.getBoundingClientRect().right > edge + 0.5)
          .map((key) => key.textContent);
      }),
    );
    // Before: "↑ ↓ / Page Up, Page Down / Home, End" was one key running over "Move between rows".
    expect(spill).toEqual([]);
    const listKeys = await help
      .locator('section[aria-label="Lists"] dt')
      .evaluateAll((terms) =>
        terms
          .filter((term) => term.nextElementSibling?.textContent === 'Move between rows')
          .map((term) => [...term.querySelectorAll('kbd')].map((key) => key.textContent)),
      );
    expect(listKeys).toEqual([['↑ ↓', 'Page Up', 'Page Down', 'Home', 'End']]);
    await expect.poll(() => help.locator('kbd', { hasText: /\+,$/ }).count()).toBe(1);
    await screenshot(page, 'dialogs-shortcuts-help');
    await page.keyboard.press('Escape');
    await help.getByRole('heading').waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('nav-settings');
  });
});
