// A user whose local-workspace cache was damaged between two runs (overwritten by a disk tool,
// with a change still waiting): the app starts, says what happened, what was kept and where the
// old file is, the change still reaches the service, and Changes lists the notice and exports
// the pending changes as a readable file.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/api/client';
import { startHostSession } from '../../src/main/core/accounts/host-session';
import type { Session } from '../../src/main/core/accounts/session';
import { createFileSecretStore } from '../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../src/main/core/accounts/settings-store';
import { startBundledServer } from '../../src/main/core/bundled-server';
import type { Engine } from '../../src/main/core/engine';
import { startWebHost, type WebHost } from '../../src/main/core/web-host';
import { SEED_IDS } from '../../src/server/seed/index';
import { launchBrowser, screenshot } from './support/browser';
import { AppPage } from './pages/app';
import { taskEndpoints } from '../../src/shared/api/tasks';

const ROOT = join(import.meta.dirname, '..', '..');
let dataDir: string;
let session: Session;
let host: WebHost;
let browser: Browser;
let page: Page;
let ui: AppPage;

function start(): Promise<Session> {
  return startHostSession({
    dataDir,
    settings: createJsonSettingsStore(join(dataDir, 'settings.json')),
    secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
    startServer: startBundledServer,
    version: 'e2e',
    transport: 'web',
    log: () => {},
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'workdesk-e2e-damaged-'));
  // First run: a change made while the outbox does not send, then the app closes.
  const first = await start();
  const engine = first.activeCore()!.engine as Engine;
  await engine.sync.now();
  await engine.outbox.stop();
  const made = await first.dispatch('tasks.create', {
    projectId: SEED_IDS.workspace,
    title: 'Written before the crash',
  });
  if (!made.ok) throw new Error(JSON.stringify(made));
  await first.close();
  // A disk tool overwrites the cache file.
  const accountDir = join(dataDir, 'accounts', 'local');
  const cache = readdirSync(accountDir).find((f) => /^cache-[0-9a-f]+\.sqlite$/.test(f))!;
  writeFileSync(join(accountDir, cache), Buffer.alloc(32 * 1024, 0x42));

  session = await start();
  host = await startWebHost({ core: session, rendererDir: join(ROOT, 'out', 'renderer') });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 760 }, acceptDownloads: true });
  ui = new AppPage(page);
  await ui.open(host.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await session?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a damaged cache of the local workspace', () => {
  it('starts, tells the user what happened, keeps the change, and exports pending changes', async () => {
    const toast = page.getByText('The local cache was damaged', { exact: false }).first();
    await toast.waitFor();
    const said = await toast.innerText();
    expect(said).toMatch(/1 unsent change is kept and will be sent.*kept at .*\.corrupt-/s);
    // The cache never held the change: nothing is said lost.
    expect(said).not.toMatch(/lost/);

    await ui.goToChanges();
    const notices = page.getByTestId('data-notices');
    await notices.waitFor();
    await expect.poll(() => notices.innerText()).toMatch(/Your files[\s\S]*The local cache was damaged/);
    await screenshot(page, 'damaged-cache-changes');

    // The change reached the service after all.
    await ui.waitForPendingCount(0);
    const connection = session.activeConnection()!;
    const api = createServiceClient({ baseUrl: connection.baseUrl, token: connection.token });
    const onService = (await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace })).filter(
      (t) => t.name === 'Written before the crash',
    );
    expect(onService).toHaveLength(1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-pending').click(),
    ]);
    const saved = join(dataDir, 'export.json');
    await download.saveAs(saved);
    const file = JSON.parse(readFileSync(saved, 'utf8')) as { format: string; changes: unknown[] };
    expect(file).toMatchObject({ format: 'workdesk-pending-changes', changes: [] });
    expect(ui.errors).toEqual([]);
  }, 120_000);

  it('imports a pending-changes file, and names a file that is not one', async () => {
    const input = page.getByTestId('import-pending-file');
    const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });
    await input.setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('notes'),
    });
    await toast('Could not import the file: notes.json is not a JSON file').waitFor();
    await input.setInputFiles(join(dataDir, 'export.json'));
    await toast('Imported 0 changes.').waitFor();
    expect(ui.errors).toEqual([]);
  });
});
