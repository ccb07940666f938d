import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_TOKEN_HEADER, LOCAL_ACCOUNT_ID } from '../../shared/ipc/accounts';
import type { SecretStore } from './accounts/secret-store';
import type { RunningLocalService } from './accounts/session';

/** What the bundled service (src/server) must offer the embedded default. */
export type LocalServerFactory = (args: {
  dbPath: string;
  filesDir: string;
  token: string;
  /** True on the first start only: the demo organization is created then. */
  seedDemo: boolean;
}) => Promise<{
  /** Loopback address with the port the OS picked, ending with `/2.0`. */
  baseUrl: string;
  /** The demo user to act as; answered when `seedDemo` was true. */
  demoUserId?: string;
  close(): Promise<void>;
}>;

export interface LocalServiceOptions {
  /** The service's own folder under the user-data folder. */
  dataDir: string;
  /** The generated token is kept here under the local account's id. */
  secrets: SecretStore;
  startServer: LocalServerFactory;
}

/** Written after the first, seeding start; its presence is what "seeded once" means. */
const State = z.object({ userId: z.string().min(1) }).strict();

/**
 * Starts the bundled service on 127.0.0.1 (DESIGN.md "The embedded default"): data under
 * `dataDir`, a generated token kept in the secret store, the demo organization seeded on the
 * first start only. The answer is a connection like any remote one.
 */
export async function startLocalService(options: LocalServiceOptions): Promise<RunningLocalService> {
  const { dataDir, secrets } = options;
  mkdirSync(join(dataDir, 'files'), { recursive: true, mode: 0o700 });
  const stateFile = join(dataDir, 'local-service.json');
  const previous = existsSync(stateFile)
    ? State.parse(JSON.parse(readFileSync(stateFile, 'utf8')))
    : undefined;

  let token = secrets.get(LOCAL_ACCOUNT_ID);
  if (!token) {
    token = randomBytes(32).toString('base64url');
    secrets.set(LOCAL_ACCOUNT_ID, token);
  }
  const server = await options.startServer({
    dbPath: join(dataDir, 'service.sqlite'),
    filesDir: join(dataDir, 'files'),
    token,
    seedDemo: !previous,
  });
  let userId = previous?.userId;
  if (!userId) {
    userId = server.demoUserId;
    if (!userId) {
      await server.close();
      throw new Error('The bundled service seeded no demo user to act as');
    }
    writeFileSync(stateFile, JSON.stringify({ userId }), { mode: 0o600 });
  }
  return {
    connection: {
      baseUrl: server.baseUrl,
      token,
      tokenHeader: DEFAULT_TOKEN_HEADER,
      userId,
      cacheKey: 'local-workspace',
    },
    close: () => server.close(),
  };
}
