// The web host: the same core and handler maps as the desktop app, under plain Node, behind a
// WebSocket on 127.0.0.1, serving the built renderer. `npm run web` runs this file.
// Options: `--port N` (default: any free port), `--data DIR` (default: the per-user data folder,
// see core/accounts/data-dir.ts; WORKDESK_DATA_DIR overrides it).
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultDataDir } from './core/accounts/data-dir';
import { loadFirstScreen } from './core/accounts/first-screen';
import { applyCoreHeapFlags } from './core/process/heap';
import { startWebHost, type CoreFacade } from './core/web-host';
import { startWebCore, type WebCore } from './web-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(): Promise<void> {
  // The core runs in this process (on a worker thread; V8's flags are the process's): V8's heap
  // settings for it (see heap.ts), set before the worker starts.
  applyCoreHeapFlags();
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

  // The core (most of the host's code: its schemas, the cache, sync) is loaded, and the account
  // opened, on a worker thread (web-core.ts) started once the port listens and the address is
  // printed: meanwhile this thread serves the page its files, and the browser evaluates the
  // page's script. (Started before the port listened, its load competed with the host's own
  // start on a busy machine and delayed the address.) The page's first calls wait for the
  // account to be open (`startWebHost` takes the promise). The banner's last line says it is open.
  const started: { core?: WebCore } = {};
  let opening: (core: WebCore) => void = () => undefined;
  const opened = new Promise<CoreFacade>((resolve, reject) => {
    opening = (core) => void core.opened.then(resolve, reject);
  });
  const host = await startWebHost({
    core: opened,
    rendererDir: join(root, 'out', 'renderer'),
    port,
    // Once the page has its files, the core reads its first views from the cache while the
    // browser evaluates the page's script.
    onPageServed: () => started.core?.readAhead(),
  });
  const stop = async (): Promise<void> => {
    await host.close();
    // A signal while the account opens: it is closed once open, as it would have been.
    await started.core?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  console.log(`Workdesk is running at ${host.url}`);
  console.log(`Data folder: ${dataDir}`);
  // Checked before the core opens the cache: the page's first reads are answered from the record
  // of the last close while the core loads (see core/accounts/first-screen.ts).
  const screen = loadFirstScreen({ dataDir, version, transport: 'web', log });
  if (screen) host.serveFirstScreen(screen);
  started.core = startWebCore({
    dataDir,
    version,
    log,
    onStopped: (reason) => fail(`The workspace's core stopped: ${reason}`),
  });
  opening(started.core);
  try {
    await opened;
  } catch (err) {
    // The message carries the core's own stack (web-core-worker.ts sends it).
    fail(`Could not open the workspace: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Printed last, once the workspace is open: whoever waits for this line may signal the process
  // at once.
  console.log("Open that address in a browser (it carries this run's secret). Ctrl+C stops it.");
}

void main();
