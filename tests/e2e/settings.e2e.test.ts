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

    await page.getByRole('button', { name: 'Add a remote account…' }).click();
    await page.getByLabel('Name').fill('Second service');
    await page.getByLabel('Service address').fill(second.baseUrl);
    await page.getByLabel('API token').fill('wrong-token');
    await page.getByLabel('Act as user (id)').fill(second.users.actingUserId);
    await page.getByRole('button', { name: 'Test and add' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Token' });
    await problem.waitFor();
    await screenshot(page, 'settings-account-refused');

    await page.getByLabel('API token').fill(second.token);
    await page.getByRole('button', { name: 'Test and add' }).click();
    await accounts.filter({ hasText: 'Second service' }).waitFor();
    await accounts.filter({ hasText: 'Second service' }).getByRole('button', { name: 'Switch to' }).click();
    await accounts.filter({ hasText: 'In use' }).filter({ hasText: 'Second service' }).waitFor();
    await screenshot(page, 'settings-accounts');
  });

  it('saves the sync interval and the theme through the shell, refusing an interval out of range', async () => {
    const { app, page } = suite;
    const interval = page.getByLabel('Sync every');
    await interval.fill('5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Sync interval' }).waitFor();
    await interval.fill('120');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Syncing every 120 seconds' }).waitFor();

    const settings = new SettingsPage(page);
    await settings.chooseTheme('dark');
    expect(await settings.appliedTheme()).toBe('dark');
    const stored = await app.session.dispatch('settings.get', {});
    expect(stored).toMatchObject({ ok: true, value: { syncIntervalSeconds: 120, theme: 'dark' } });
    await settings.chooseTheme('light');
  });
});
