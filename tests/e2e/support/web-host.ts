import { join } from 'node:path';
import { createCore, type Core } from '../../../src/main/core/core';
import { startWebHost, type WebHost } from '../../../src/main/core/web-host';

const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface RunningApp {
  core: Core;
  host: WebHost;
  close(): Promise<void>;
}

/** The web host in-process, serving the renderer built by `npm run test:e2e`. */
export async function startApp(): Promise<RunningApp> {
  const core = await createCore({ version: 'test', transport: 'web' });
  const host = await startWebHost({ core, rendererDir: join(ROOT, 'out', 'renderer') });
  return {
    core,
    host,
    async close() {
      await host.close();
      await core.close();
    },
  };
}
