import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProbe } from '../../../src/main/core/accounts/probe';
import { createFileSecretStore } from '../../../src/main/core/accounts/secret-store';
import { startBundledServer } from '../../../src/main/core/bundled-server';
import { startLocalService } from '../../../src/main/core/local-service';
import { cacheFileFor } from '../../../src/main/core/engine';
import type { Connection } from '../../../src/main/core/accounts/probe';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-embedded-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = () =>
  startLocalService({
    dataDir: join(dir, 'local-service'),
    secrets: createFileSecretStore(join(dir, 'secrets.json')),
    startServer: startBundledServer,
  });

async function api(connection: Connection, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${connection.baseUrl}${path}`, {
    ...init,
    headers: { [connection.tokenHeader]: connection.token, 'content-type': 'application/json' },
  });
}

async function projectNames(connection: Connection): Promise<string[]> {
  const response = await api(connection, '/projects');
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((p) => p.name).sort();
}

describe('embedded local service', () => {
  it('starts on loopback with the demo organization and answers only its token', async () => {
    const service = await start();
    try {
      expect(service.connection.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2\.0$/);
      expect((await projectNames(service.connection)).length).toBeGreaterThan(5);
      await expect(createProbe()(service.connection)).resolves.toBeUndefined();
      const wrong = await api({ ...service.connection, token: 'not-the-token' }, '/projects');
      expect(wrong.status).toBe(401);
    } finally {
      await service.close();
    }
  });

  it('seeds once, and a restart on the same data keeps what was written', async () => {
    const first = await start();
    const created = await api(first.connection, '/projects/new-folder', {
      method: 'POST',
      body: JSON.stringify({ createdByUserId: first.connection.userId, name: 'Kept across restarts' }),
    });
    expect(created.status).toBe(200);
    const before = await projectNames(first.connection);
    expect(before).toContain('Kept across restarts');
    await first.close();

    const second = await start();
    try {
      expect(second.connection.token).toBe(first.connection.token);
      expect(second.connection.userId).toBe(first.connection.userId);
      // A new port every start, but the same cache file, so cached data and queued changes stay.
      expect(cacheFileFor('/data', second.connection)).toBe(cacheFileFor('/data', first.connection));
      // Same projects, the new folder among them, and no second demo seed doubling them.
      expect(await projectNames(second.connection)).toEqual(before);
    } finally {
      await second.close();
    }
  });
});
