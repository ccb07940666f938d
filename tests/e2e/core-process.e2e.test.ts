// The web host's page with the core in a process of its own (as the desktop app runs it; the
// web host itself keeps its core in process, see the README), in Chromium: the app works
// through the child, and a child that dies is started again with the window told.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LOCAL_ACCOUNT_ID } from '../../src/shared/ipc/accounts';
import { createFileSecretStore } from '../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../src/main/core/accounts/settings-store';
import { startCoreProcess, type CoreProcess } from '../../src/main/core/process/core-process';
import { forkCoreChild } from '../../src/main/core/process/links';
import type { ChildLink } from '../../src/main/core/process/messages';
import { startWebHost, type WebHost } from '../../src/main/core/web-host';
import { launchBrowser, screenshot } from './support/browser';
import { AppPage } from './pages/app';

const ROOT = join(import.meta.dirname, '..', '..');
const ENTRY = join(ROOT, 'src', 'main', 'core', 'process', 'entry.ts');

describe('the app with its core in a process of its own', () => {
  let dataDir: string;
  let core: CoreProcess;
  let host: WebHost;
  let browser: Browser;
  const children: ChildLink[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'workdesk-e2e-core-process-'));
    const settings = createJsonSettingsStore(join(dataDir, 'settings.json'));
    core = await startCoreProcess({
      spawn: () => {
        const child = forkCoreChild(ENTRY, { execArgv: ['--import', 'tsx'] });
        children.push(child);
        return child;
      },
      start: { dataDir, version: 'e2e', transport: 'web' },
      secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
      secretKeys: () => [LOCAL_ACCOUNT_ID, ...settings.read().accounts.map((a) => a.id)],
      log: () => {},
      restartDelayMs: 50,
    });
    host = await startWebHost({ core, rendererDir: join(ROOT, 'out', 'renderer') });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await core?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the local workspace through the child, and keeps working after the child is killed', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    const ui = new AppPage(page);
    await ui.open(host.url);
    await ui.openDemoProject('Support desk 1');
    await expect.poll(() => page.getByRole('row').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await screenshot(page, 'core-process-project');

    children[0]!.kill();
    await ui.goToChanges();
    const notices = page.getByTestId('data-notices');
    await expect
      .poll(() => notices.textContent(), { timeout: 20_000 })
      .toContain('Workdesk’s core stopped and is starting again');
    // About the app, not about the user's files: under its own heading.
    await expect
      .poll(() => page.getByTestId('app-notices').innerText())
      .toMatch(/^The app[\s\S]*Workdesk’s core stopped and is starting again/);
    expect(await page.getByTestId('file-notices').count()).toBe(0);
    // Once the new core is ready, the views read again: a read the dead one left unanswered
    // does not stay an error.
    await expect
      .poll(() => page.getByText('Could not read the changes').count(), { timeout: 20_000 })
      .toBe(0);
    await expect.poll(() => ui.tree.getByRole('treeitem').count(), { timeout: 20_000 }).toBeGreaterThan(3);
    await screenshot(page, 'core-process-restarted');
    expect(children).toHaveLength(2);

    // The new core answers the window: the project opens again with its rows.
    await ui.openDemoProject('Support desk 1');
    await expect.poll(() => page.getByRole('row').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    expect(ui.errors).toEqual([]);
    await page.close();
  }, 90_000);
});
