import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileSecretStore } from './accounts/secret-store';
import { startLocalService, type LocalServerFactory } from './local-service';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-local-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeServer() {
  const close = vi.fn(async () => {});
  const factory = vi.fn<LocalServerFactory>(async ({ seedDemo }) => ({
    baseUrl: 'http://127.0.0.1:40001/2.0',
    ...(seedDemo ? { demoUserId: 'u-ada' } : {}),
    close,
  }));
  return { factory, close };
}

describe('local service', () => {
  it('generates a token, seeds the demo the first time only, and keeps both', async () => {
    const secrets = createFileSecretStore(join(dir, 'secrets.json'));
    const { factory } = fakeServer();
    const first = await startLocalService({ dataDir: join(dir, 'svc'), secrets, startServer: factory });
    expect(first.connection).toEqual({
      baseUrl: 'http://127.0.0.1:40001/2.0',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      tokenHeader: 'svc-api-token',
      userId: 'u-ada',
      // Fixed, so the cache survives the new port of every start.
      cacheKey: 'local-workspace',
    });
    expect(factory).toHaveBeenLastCalledWith({
      dbPath: join(dir, 'svc', 'service.sqlite'),
      filesDir: join(dir, 'svc', 'files'),
      token: first.connection.token,
      seedDemo: true,
    });
    await first.close();

    const again = await startLocalService({
      dataDir: join(dir, 'svc'),
      secrets: createFileSecretStore(join(dir, 'secrets.json')),
      startServer: factory,
    });
    expect(factory).toHaveBeenLastCalledWith(expect.objectContaining({ seedDemo: false }));
    expect(again.connection).toEqual(first.connection);
  });

  it('refuses a first start that seeded no user, and remembers nothing', async () => {
    const secrets = createFileSecretStore(join(dir, 'secrets.json'));
    const close = vi.fn(async () => {});
    await expect(
      startLocalService({
        dataDir: join(dir, 'svc'),
        secrets,
        startServer: async () => ({ baseUrl: 'http://127.0.0.1:1', close }),
      }),
    ).rejects.toThrow(/seeded no demo user/);
    expect(close).toHaveBeenCalled();
    expect(existsSync(join(dir, 'svc', 'local-service.json'))).toBe(false);
  });
});
