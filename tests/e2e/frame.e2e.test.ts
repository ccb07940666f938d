import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { SettingsPage } from './pages/settings';

describe('app frame: navigation, title, theme, keyboard', () => {
  const suite = appSuite();

  it('goes back and forward with Alt+arrows and the mouse buttons, and titles the window', async () => {
    const { page, ui } = suite;
    await ui.waitForTitle('Home');
    expect(await page.title()).toBe('Home — Workdesk');
    await ui.goToSettings();
    expect(await page.title()).toBe('Settings — Workdesk');
    await ui.goToChanges();
    expect(await page.title()).toBe('Changes — Workdesk');

    await ui.back();
    await ui.waitForTitle('Settings');
    await ui.back();
    await ui.waitForTitle('Home');
    await ui.forward();
    await ui.waitForTitle('Settings');

    await ui.mouseHistory('back');
    await ui.waitForTitle('Home');
    await ui.mouseHistory('forward');
    await ui.waitForTitle('Settings');

    await page.getByRole('button', { name: 'Back (Alt+Left)' }).click();
    await ui.waitForTitle('Home');
    expect(await page.title()).toBe('Home — Workdesk');
  });

  it('opens settings with Ctrl+, and switches between light and dark themes, remembering the choice', async () => {
    const { page, ui } = suite;
    await page.keyboard.press('Control+Comma');
    await ui.waitForTitle('Settings');
    const settings = new SettingsPage(page);
    await settings.chooseTheme('dark');
    expect(await settings.appliedTheme()).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(27, 27, 31)');
    await screenshot(page, 'settings-dark');

    await page.reload();
    await ui.sidebar.waitFor();
    expect(await settings.appliedTheme()).toBe('dark');

    await page.emulateMedia({ colorScheme: 'light' });
    await ui.goToSettings();
    await settings.chooseTheme('system');
    expect(await settings.appliedTheme()).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    await settings.chooseTheme('light');
    expect(await settings.appliedTheme()).toBe('light');
    await screenshot(page, 'settings-light');
  });

  it('shows where the keyboard is: a visible focus ring on the focused control', async () => {
    const { page } = suite;
    await page.getByRole('button', { name: 'Back (Alt+Left)' }).focus();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? getComputedStyle(el).outlineStyle : 'none';
    });
    expect(outline).toBe('solid');
  });

  it('opens the New task dialog with Ctrl+N and closes it with Escape', async () => {
    const { page } = suite;
    await page.keyboard.press('Control+n');
    const dialog = page.getByTestId('new-task-dialog');
    await dialog.getByRole('heading', { name: 'New task' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('nt-title');
    await screenshot(page, 'new-task-dialog-empty');
    await page.keyboard.press('Escape');
    await dialog.getByRole('heading', { name: 'New task' }).waitFor({ state: 'detached' });
  });
});
