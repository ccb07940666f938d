import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { SettingsPage } from './pages/settings';

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
    expect(await accounts.filter({ hasText: 'In use' }).innerText()).toMatch(/Local workspace/);

    const form = new SettingsPage(page);
    await form.connect({ label: 'Second service', baseUrl: second.baseUrl, token: 'wrong-token' });
    const problem = page.getByRole('alert').filter({ hasText: 'token' });
    await problem.waitFor();
    expect(await page.getByLabel('API token').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'settings-account-refused');

    await page.getByLabel('API token').fill(second.token);
    await page.getByRole('button', { name: 'Connect' }).click();
    // Who you are is picked from the organization's users by name, never typed as an id.
    await page.getByTestId('account-user').first().waitFor();
    expect(await page.getByTestId('account-user').count()).toBe(5);
    await form.pickUserAndAdd('Ada Lindqvist', 'lindq');
    await accounts.filter({ hasText: 'Second service' }).waitFor();
    expect(await accounts.filter({ hasText: 'Second service' }).innerText()).toContain('acting as');
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
    expect(await cap.getAttribute('aria-invalid')).toBe('true');
    await cap.fill('50');
    await page.getByRole('button', { name: 'Save offline files cap' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Keeping up to 50 MB of files offline' }).waitFor();
    expect(await cap.getAttribute('aria-invalid')).toBeNull();
    const stored = await app.session.dispatch('settings.get', {});
    expect(stored).toMatchObject({ ok: true, value: { downloadCacheMiB: 50 } });
    await page.getByTestId('download-usage').filter({ hasText: 'of 50.0 MB' }).waitFor();
  });
});
