// The web host's account session: loaded by src/main/web.ts once its port listens (this module
// and what it imports are most of the host's code: the core, its schemas, the cache), so the
// address is printed, and a browser loads the page, while it loads and opens.
import { join } from 'node:path';
import { startHostSession } from './core/accounts/host-session';
import type { Session } from './core/accounts/session';
import { createJsonSettingsStore } from './core/accounts/settings-store';
import { createFileSecretStore } from './core/accounts/secret-store';
import type { LocalServerFactory } from './core/local-service';

export interface WebSessionOptions {
  dataDir: string;
  version: string;
  startServer: LocalServerFactory;
  log(message: string): void;
}

export function openWebSession({ dataDir, version, startServer, log }: WebSessionOptions): Promise<Session> {
  return startHostSession({
    dataDir,
    settings: createJsonSettingsStore(join(dataDir, 'settings.json')),
    // Weaker than the desktop app's keychain: the token file is protected by its mode (0600) only.
    secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
    startServer,
    version,
    transport: 'web',
    log,
    // A browser tab has no system notifications from here: the terminal shows them.
    notifier: { notify: ({ title, body }) => console.log(`${title}: ${body}`) },
  });
}
