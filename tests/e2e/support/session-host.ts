import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostSession } from '../../../src/main/core/accounts/host-session';
import type { Session } from '../../../src/main/core/accounts/session';
import { createJsonSettingsStore } from '../../../src/main/core/accounts/settings-store';
import { createFileSecretStore, type SecretStore } from '../../../src/main/core/accounts/secret-store';
import type { SettingsStore } from '../../../src/main/core/accounts/settings-store';
import { startBundledServer } from '../../../src/main/core/bundled-server';
import { startWebHost, type WebHost } from '../../../src/main/core/web-host';

const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface SessionAppOptions {
  /**
   * Fills the stores before the session reads them (accounts, stored tokens). Without it the
   * session starts as a first run does: on the local workspace, with the bundled service.
   */
  configure?(stores: { settings: SettingsStore; secrets: SecretStore }): void;
}

export interface SessionApp {
  /** The accounts session the web host serves, as `npm run web` runs it. */
  session: Session;
  host: WebHost;
  /** Its fresh user-data folder (settings.json, secrets.json, accounts/<id>/). */
  dataDir: string;
  close(): Promise<void>;
}

/** The web host with its accounts session on a fresh data folder, as the web entry starts it. */
export async function startSessionApp(options: SessionAppOptions = {}): Promise<SessionApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'workdesk-e2e-session-'));
  const settings = createJsonSettingsStore(join(dataDir, 'settings.json'));
  const secrets = createFileSecretStore(join(dataDir, 'secrets.json'));
  options.configure?.({ settings, secrets });
  const session = await startHostSession({
    dataDir,
    settings,
    secrets,
    startServer: startBundledServer,
    version: 'e2e',
    transport: 'web',
    log: () => {},
  });
  // As the web entry does: the page's first reads are read ahead once it has its script.
  const host = await startWebHost({
    core: session,
    rendererDir: join(ROOT, 'out', 'renderer'),
    onPageServed: () => session.readAhead(),
  });
  return {
    session,
    host,
    dataDir,
    async close() {
      await host.close();
      await session.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
