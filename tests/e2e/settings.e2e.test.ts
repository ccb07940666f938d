/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHostSession } from '../../src/main/core/accounts/host-session';
import type { Session } from '../../src/main/core/accounts/session';
import { createJsonSettingsStore } from '../../src/main/core/accounts/settings-store';
import { createFileSecretStore } from '../../src/main/core/accounts/secret-store';
import { startBundledServer } from '../../src/main/core/bundled-server';
import { startWebHost, type WebHost } from '../../src/main/core/web-host';
import { startService, type RunningService } from '../support/service';
import { launchBrowser, screenshot } from './support/browser';
import { AppPage } from './pages/app';
import { SettingsPage } from './pages/settings';

const ROOT = join(import.meta.dirname, '..', '..');

describe('settings: accounts, sync interval, theme (the web host with its accounts session)', () => {
  let dataDir: string;
  let session: Session;
  let host: WebHost;
  let second: RunningService;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'workdesk-e2e-settings-'));
    session = await startHostSession({
      dataDir,
      settings: createJsonSettingsStore(join(dataDir, 'settings.json')),
      secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
      startServer: startBundledServer,
      version: 'e2e',
      transport: 'web',
      log: () => {},
    });
    host = await startWebHost({ core: session, rendererDir: join(ROOT, 'out', 'renderer') });
    second = await startService({ seed: 'demo', token: 'second-token' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    ui = new AppPage(page);
    await ui.open(host.url);
  });
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await session?.close();
    await second?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the local workspace, refuses a wrong token naming the field, adds and switches to a remote account', async () => {
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
    const stored = await session.dispatch('settings.get', {});
    expect(stored).toMatchObject({ ok: true, value: { syncIntervalSeconds: 120, theme: 'dark' } });
    await settings.chooseTheme('light');
  });
});
