import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildService } from '../../src/server/app';
import { SERVICE_PROFILES, type ServiceProfileName } from '../../src/server/profiles';
import { SEED_IDS } from '../../src/server/seed/index';

/**
 * The service's answer profiles, for `describe.each(SERVICE_PROFILES)`: `spec` answers as the
 * spec's tables say, `goodday` as GoodDay's live service does.
 */
export { SERVICE_PROFILES };
export type { ServiceProfileName };

/**
 * The profile `startService` uses when a test names none: `WORKDESK_SERVICE_PROFILE` (`spec` or
 * `goodday`), default `spec`. The `integration-goodday` vitest project sets it, so the engine and
 * outbox suites run once more against the live-faithful answers without a loop in every file.
 */
export const TEST_PROFILE: ServiceProfileName = profileFromEnv(process.env['WORKDESK_SERVICE_PROFILE']);

function profileFromEnv(value: string | undefined): ServiceProfileName {
  if (value === undefined || value === '') return 'spec';
  const known = SERVICE_PROFILES.find((p) => p === value);
  if (!known) {
    throw new Error(`WORKDESK_SERVICE_PROFILE must be one of ${SERVICE_PROFILES.join(', ')}, got "${value}"`);
  }
  return known;
}

export interface StartServiceOptions {
  seed?: 'demo' | 'empty';
  /** Reuse a data folder (restart tests); default a new temp folder, removed on close. */
  dataDir?: string;
  token?: string;
  clock?: () => Date;
  uploadLimitBytes?: number;
  /** Default `TEST_PROFILE` (`spec` unless `WORKDESK_SERVICE_PROFILE` says otherwise). */
  profile?: ServiceProfileName;
  /**
   * The address upload URLs are built on (e.g. a relay's in front of the service); by default the
   * address the service listens on. The service never takes it from the `Host` header.
   */
  baseUrl?: string;
}

export interface RunningService {
  /** Ends with `/2.0`, e.g. `http://127.0.0.1:41234/2.0`. */
  baseUrl: string;
  token: string;
  /** Seeded user ids; `actingUserId` is the admin, `guestUserId` is not a Workspace member. */
  users: {
    actingUserId: string;
    admin: string;
    bob: string;
    cleo: string;
    dan: string;
    guestUserId: string;
  };
  dataDir: string;
  profile: ServiceProfileName;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The seeded users every started service has (`RunningService.users`). */
export const SEEDED_USERS: RunningService['users'] = {
  actingUserId: SEED_IDS.users.admin,
  admin: SEED_IDS.users.admin,
  bob: SEED_IDS.users.bob,
  cleo: SEED_IDS.users.cleo,
  dan: SEED_IDS.users.dan,
  guestUserId: SEED_IDS.users.guest,
};

/** Starts the real service on 127.0.0.1, port 0, with a temp data folder (or the one given). */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'wms-'));
  const token = options.token ?? 'test-token';
  const { app } = buildService({
    dbPath: join(dataDir, 'service.sqlite'),
    filesDir: join(dataDir, 'files'),
    tokens: [token],
    seed: options.seed ?? 'empty',
    profile: options.profile ?? TEST_PROFILE,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.uploadLimitBytes ? { uploadLimitBytes: options.uploadLimitBytes } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `${address}/2.0`,
    token,
    users: SEEDED_USERS,
    dataDir,
    profile: options.profile ?? TEST_PROFILE,
    app,
    async close() {
      await app.close();
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
