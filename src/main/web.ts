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
import type { Session } from './core/accounts/session';
import { startBundledServerOnDemand } from './core/bundled-server-on-demand';
import { applyCoreHeapFlags } from './core/process/heap';
import { startWebHost } from './core/web-host';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How long without a request for a file the host waits before loading its core (see `begin`). */
const OPEN_QUIET_MS = 250;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(): Promise<void> {
  // The core runs in this process: V8's heap settings for it (see heap.ts).
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

  // The port listens and the address is printed first; the core (most of the host's code) is
  // loaded and its account opened after, while a browser evaluates the page's script: the page's
  // first calls wait for it (`startWebHost` takes the promise). The banner's last line says it
  // is open.
  let open: (opening: Promise<Session>) => void = () => undefined;
  const session = new Promise<Session>((resolve, reject) => {
    open = (opening) => void opening.then(resolve, reject);
  });
  // Loading the core holds this thread for a few hundred milliseconds (a second and more on a
  // loaded machine: compiling and running most of the host's code), during which no file is
  // served. So it starts once a page has been served its files (the browser then evaluates its
  // script, which needs nothing of this host), or once no file has been asked for OPEN_QUIET_MS.
  let begun = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const begin = (): void => {
    clearTimeout(quiet);
    if (begun) return;
    begun = true;
    open(
      import('./web-session').then(({ openWebSession }) =>
        openWebSession({ dataDir, version, startServer: startBundledServerOnDemand, log }),
      ),
    );
  };
  const waitQuiet = (): void => {
    clearTimeout(quiet);
    if (!begun) quiet = setTimeout(begin, OPEN_QUIET_MS);
  };
  const host = await startWebHost({
    core: session,
    rendererDir: join(root, 'out', 'renderer'),
    port,
    onRequest: waitQuiet,
    // The core opens, and then reads the page's first views from the cache, while the browser
    // evaluates the page's script.
    onPageServed: () => {
      begin();
      void session.then(
        (opened) => opened.readAhead(),
        () => undefined,
      );
    },
  });
  const stop = async (): Promise<void> => {
    clearTimeout(quiet);
    await host.close();
    // A signal while the account opens: it is closed once open, as it would have been.
    if (begun) await (await session.catch(() => undefined))?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  console.log(`Workdesk is running at ${host.url}`);
  console.log(`Data folder: ${dataDir}`);
  waitQuiet();
  try {
    await session;
  } catch (err) {
    fail(`Could not open the workspace: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
  // Printed last, once the workspace is open: whoever waits for this line may signal the process
  // at once.
  console.log("Open that address in a browser (it carries this run's secret). Ctrl+C stops it.");
}

void main();
