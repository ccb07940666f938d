// The web host: the same core and handler maps as the desktop app, under plain Node, behind a
// WebSocket on 127.0.0.1, serving the built renderer. `npm run web` runs this file.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createCore } from './core/core';
import { startWebHost } from './core/web-host';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main(): Promise<void> {
  const portArg = process.argv.indexOf('--port');
  const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port: expected a port number from 0 to 65535, got "${process.argv[portArg + 1]}"`);
    process.exit(2);
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const core = await createCore({ version, transport: 'web', log: (m) => console.error(m) });
  const host = await startWebHost({ core, rendererDir: join(root, 'out', 'renderer'), port });
  console.log(`Workdesk is running at ${host.url}`);
  console.log("Open that address in a browser (it carries this run's secret). Ctrl+C stops it.");
  const stop = async (): Promise<void> => {
    await host.close();
    await core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

void main();
