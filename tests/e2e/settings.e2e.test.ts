/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { SettingsPage } from './pages/settings';
import { appSuite } from './support/suite';

describe('settings: accounts, sync interval, theme (the web host with its accounts session)', () => {
  let second: RunningService;
  beforeAll(async () => {
    second = await startService({ seed: 'demo', token: 'second-token' });
  });
  afterAll(async () => {
    await second?.close();
  });
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  it('lists the local workspace, refuses a wrong token naming the field, adds and switches to a remote account', async () => {
    const { page, ui } = suite;
    await ui.goToSettings();
    const accounts = page.getByTestId('account');
    await accounts.filter({ hasText: 'Local workspace' }).waitFor();
    await expect.poll(() => accounts.filter({ hasText: 'In use' }).innerText()).toMatch(/Local workspace/);

    const form = new SettingsPage(page);
    await form.connect({ label: 'Second service', baseUrl: second.baseUrl, token: 'wrong-token' });
    const problem = page.getByRole('alert').filter({ hasText: 'token' });
    await problem.waitFor();
    await expect.poll(() => page.getByLabel('API token').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'settings-account-refused');

    await page.getByLabel('API token').fill(second.token);
    await page.getByRole('button', { name: 'Connect' }).click();
    // Who you are is picked from the organization's users by name, never typed as an id.
    await page.getByTestId('account-user').first().waitFor();
    await expect.poll(() => page.getByTestId('account-user').count()).toBe(5);
    await form.pickUserAndAdd('Ada Lindqvist', 'lindq');
    await accounts.filter({ hasText: 'Second service' }).waitFor();
    await expect
      .poll(() => accounts.filter({ hasText: 'Second service' }).innerText())
      .toContain('acting as');
    await accounts.filter({ hasText: 'Second service' }).getByRole('button', { name: 'Switch to' }).click();
    await accounts.filter({ hasText: 'In use' }).filter({ hasText: 'Second service' }).waitFor();
    await screenshot(page, 'settings-accounts');
  });

  it('saves the sync interval and the theme through the shell, refusing an interval out of range', async () => {
    const { app, page } = suite;
    const interval = page.getByLabel('Sync every');
    await interval.fill('5');
    await page.getByRole('button', { name: 'Save sync interval' }).click();
    await page.getByRole('alert').filter({ hasText: 'Sync interval' }).waitFor();
    await interval.fill('120');
    await page.getByRole('button', { name: 'Save sync interval' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Syncing every 120 seconds' }).waitFor();

    const settings = new SettingsPage(page);
    await settings.chooseTheme('dark');
    expect(await settings.appliedTheme()).toBe('dark');
    const stored = await app.session.dispatch('settings.get', {});
    expect(stored).toMatchObject({ ok: true, value: { syncIntervalSeconds: 120, theme: 'dark' } });
    await settings.chooseTheme('light');
  });

  it('saves the cap of the files kept offline through the shell, refusing one out of range', async () => {
    const { app, page } = suite;
    const cap = page.getByTestId('download-cap');
    await cap.fill('5');
    await page.getByRole('button', { name: 'Save offline files cap' }).click();
    await page.getByRole('alert').filter({ hasText: 'Files kept offline' }).waitFor();
    await expect.poll(() => cap.getAttribute('aria-invalid')).toBe('true');
    await cap.fill('50');
    await page.getByRole('button', { name: 'Save offline files cap' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Keeping up to 50 MB of files offline' }).waitFor();
    await expect.poll(() => cap.getAttribute('aria-invalid')).toBeNull();
    const stored = await app.session.dispatch('settings.get', {});
    expect(stored).toMatchObject({ ok: true, value: { downloadCacheMiB: 50 } });
    await page.getByTestId('download-usage').filter({ hasText: 'of 50.0 MB' }).waitFor();
  });
});

describe('adding an account by keyboard, with bad values', () => {
  let second: RunningService;
  beforeAll(async () => {
    second = await startService({ seed: 'demo', token: 'second-token' });
  });
  afterAll(async () => {
    await second?.close();
  });
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  it('never draws the token, names the field at fault for each bad value, and keeps the focus', async () => {
    const { app, page, ui } = suite;
    await ui.goToSettings();
    const add = page.getByRole('button', { name: 'Add a remote account…' });
    await add.focus();
    await page.keyboard.press('Enter');
    // Before: the button went with the form and the focus fell to <body>.
    await page.locator('#acc-label:focus').waitFor();

    await page.getByLabel('Name').fill('Elsewhere');
    await page.getByLabel('Service address').fill('not an address');
    await page.getByLabel('API token').fill('s3cret-token-value');
    // Before: the token was drawn as typed, in a text field.
    await expect.poll(() => page.getByLabel('API token').getAttribute('type')).toBe('password');
    // Drawn as the other fields are (a password field had the browser's own square black box).
    const look = (label: string) =>
      page.getByLabel(label).evaluate((field) => {
        const style = getComputedStyle(field);
        return `${style.height} ${style.borderRadius} ${style.borderTopColor}`;
      });
    // Compared with neither focused (a focused field draws its ring instead of its border).
    await page.getByLabel('Token header').focus();
    expect(await look('API token')).toBe(await look('Name'));
    await page.getByRole('button', { name: 'Connect' }).click();
    // Before: the browser's own URL check stopped the form under no message of the app's.
    const problem = page.getByRole('alert');
    await problem.filter({ hasText: 'Service address' }).waitFor();
    await expect.poll(() => page.getByLabel('Service address').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'settings-keyboard-account-refused');

    await page.getByLabel('Service address').fill('ftp://example.com/2.0');
    await page.getByRole('button', { name: 'Connect' }).click();
    await problem.filter({ hasText: 'Service address: an http or https address' }).waitFor();
    const accounts = await app.session.dispatch('accounts.list', {});
    expect(accounts).toMatchObject({ ok: true });
    expect(JSON.stringify(accounts)).not.toContain('Elsewhere');

    await page.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#add-account:focus').waitFor();
  });

  it('switches accounts from the keyboard and keeps the focus on the account list', async () => {
    const { page } = suite;
    const form = new SettingsPage(page);
    await form.connect({ label: 'Second service', baseUrl: second.baseUrl, token: second.token });
    await form.pickUserAndAdd('Ada Lindqvist');
    const accounts = page.getByTestId('account');
    const added = accounts.filter({ hasText: 'Second service' });
    await added.waitFor();
    // The token is not drawn anywhere once added.
    await expect.poll(() => page.locator('main').innerText()).not.toContain(second.token);
    await added.getByRole('button', { name: 'Switch to' }).focus();
    await page.keyboard.press('Enter');
    await accounts.filter({ hasText: 'In use' }).filter({ hasText: 'Second service' }).waitFor();
    const focus = await page.evaluate(() => {
      const active = document.activeElement;
      return !active || active === document.body
        ? 'body'
        : (active.closest('[data-testid="account"]')?.textContent ?? active.tagName);
    });
    // Before: "Switch to" went with the switch and the focus fell to <body>.
    expect(focus).toContain('Second service');
    await screenshot(page, 'settings-keyboard-account-switched');
  });
});

describe('Settings on a core that keeps no settings', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('shows a field that cannot be changed as such, and says why', async () => {
    const { page, ui } = suite;
    // This suite's core keeps no settings (a core on one service, no accounts store).
    await ui.goToSettings();
    const interval = page.locator('#sync-interval');
    await expect.poll(() => interval.isDisabled()).toBe(true);
    // Before: drawn like any field, with nothing to say why typing did nothing.
    const look = await interval.evaluate((el) => {
      const style = getComputedStyle(el);
      return { cursor: style.cursor, background: style.backgroundColor };
    });
    const pageBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(look.cursor).toBe('not-allowed');
    expect(look.background).not.toBe(pageBackground);
    await expect.poll(() => page.getByTestId('sync-interval-note').innerText()).toMatch(/keeps no settings/);
  });
});
