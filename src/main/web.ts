// The web host: the same core and handler maps as the desktop app, under plain Node, behind a
// WebSocket on 127.0.0.1, serving the built renderer. `npm run web` runs this file.
// Options: `--port N` (default: any free port), `--data DIR` (default: the per-user data folder,
// see core/accounts/data-dir.ts; WORKDESK_DATA_DIR overrides it).
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startHostSession } from './core/accounts/host-session';
import { defaultDataDir } from './core/accounts/data-dir';
import { createJsonSettingsStore } from './core/accounts/settings-store';
import { createFileSecretStore } from './core/accounts/secret-store';
import { startBundledServerOnDemand } from './core/bundled-server-on-demand';
import { startWebHost } from './core/web-host';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { port?: string | undefined; data?: string | undefined };
  try {
    ({ values } = parseArgs({
      options: { port: { type: 'string' }, data: { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail(`--port: expected a port number from 0 to 65535, got "${values.port}"`);
  }
  const dataDir = resolve(values.data ?? defaultDataDir(process.platform, process.env, homedir()));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const log = (message: string): void => console.error(message);

  const session = await startHostSession({
    dataDir,
    settings: createJsonSettingsStore(join(dataDir, 'settings.json')),
    // Weaker than the desktop app's keychain: the token file is protected by its mode (0600) only.
    secrets: createFileSecretStore(join(dataDir, 'secrets.json')),
    startServer: startBundledServerOnDemand,
    version,
    transport: 'web',
    log,
    // A browser tab has no system notifications from here: the terminal shows them.
    notifier: { notify: ({ title, body }) => console.log(`${title}: ${body}`) },
  });
  const host = await startWebHost({
    core: session,
    rendererDir: join(root, 'out', 'renderer'),
    port,
    // While the browser evaluates the page's script, its first views are read from the cache
    // (not before: a read blocks this thread, and the page's files would wait for it).
    onPageServed: () => session.readAhead(),
  });
  const stop = async (): Promise<void> => {
    await host.close();
    await session.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // Printed last: whoever waits for this banner may signal the process at once.
  console.log(`Workdesk is running at ${host.url}`);
  console.log(`Data folder: ${dataDir}`);
  console.log("Open that address in a browser (it carries this run's secret). Ctrl+C stops it.");
}

void main();
