// A cache made again from the service while changes wait in the outbox file: a title and a
// priority edited offline, and a task created offline. The cache file is deleted or emptied, the
// engine opened again, and its first pull runs while sends cannot get through. The task list
// must show what the user typed (rule 7) and the task created offline, under its local id; once
// sends get through, each change reaches the service once and the cache equals the service.
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import { cacheFileFor } from '../../../src/main/core/engine';
import { isTempId } from '../../../src/main/core/local-ids';
import { SEED_IDS } from '../../../src/server/seed/index';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';

/** A fetch that holds every write (anything but GET) until `release`: reads go through. */
function heldWrites() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const fetch: FetchLike = async (input, init) => {
    if ((init.method ?? 'GET') !== 'GET') {
      held++;
      // Given up when the engine closes (its sends are aborted), so a failed test still ends.
      const signal = init.signal;
      await new Promise<void>((resolve, reject) => {
        void released.then(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    return globalThis.fetch(input, init);
  };
  return { fetch, release, held: () => held };
}

const damages = {
  deleted: (file: string) => rmSync(file),
  emptied: (file: string) => truncateSync(file, 0),
} as const;

const listed = async (e: TestEngine) =>
  (await e.call('tasks.list', { projectId: SEED_IDS.workspace, limit: 50_000 })).rows;

describe.each(SERVICE_PROFILES)('a rebuilt cache on the %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  beforeAll(async () => {
    svc = await startService({ seed: 'empty', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each(Object.keys(damages) as (keyof typeof damages)[])(
    'cache %s: the first pull shows the pending title, priority and offline-created task; then they are sent once',
    async (damage) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'rebuilt-cache-'));
      const open: TestEngine[] = [];
      try {
        const original = `R-${damage}-original`;
        const { id: taskId } = await api.call(taskEndpoints.createTask, {
          body: {
            projectId: SEED_IDS.workspace,
            title: original,
            fromUserId: svc.users.actingUserId,
          },
        });
        const engine = (extra: Parameters<typeof testEngine>[3] = {}) =>
          testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir, ...extra }).then((e) => {
            open.push(e);
            return e;
          });

        // Offline: the outbox stopped, two changes queued.
        const first = await engine();
        await first.sync.now();
        await first.outbox.stop();
        const typed = `R-${damage}-typed`;
        const created = `R-${damage}-created-offline`;
        await first.call('tasks.update', { taskId, changes: { title: typed, priority: 7 } });
        const { id: localId } = await first.call('tasks.create', {
          projectId: SEED_IDS.workspace,
          title: created,
        });
        expect(isTempId(localId)).toBe(true);
        await first.close();
        open.splice(0);

        damages[damage](cacheFileFor(dataDir, { baseUrl: svc.baseUrl, userId: svc.users.actingUserId }));

        // Opened again: reads reach the service, sends are held.
        const writes = heldWrites();
        const second = await engine({ fetch: writes.fetch });
        expect(await listed(second)).toEqual([]);
        const status = await second.sync.now();
        expect(status.lastError).toBeNull();
        const rows = await listed(second);
        expect(rows.find((r) => r.id === taskId)).toMatchObject({ name: typed, priority: 7 });
        expect(rows.find((r) => r.id === localId)).toMatchObject({ name: created, priority: 1 });
        expect(rows.filter((r) => r.name === created)).toHaveLength(1);
        expect(second.outbox.status().pending).toBe(2);
        // A second pull over this cache keeps them (the normal path, rule 7).
        await second.sync.now();
        expect((await listed(second)).find((r) => r.id === taskId)).toMatchObject({
          name: typed,
          priority: 7,
        });
        expect((await listed(second)).some((r) => r.id === localId)).toBe(true);

        // Sends get through: each change lands once, and the cache equals the service.
        writes.release();
        await second.drained();
        expect(writes.held()).toBeGreaterThan(0);
        await second.sync.now();
        const service = (
          await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } })
        ).filter((t) => t.name.startsWith(`R-${damage}-`));
        expect(service.map((t) => [t.name, t.priority]).sort()).toEqual(
          [
            [created, 1],
            [typed, 7],
          ].sort(),
        );
        const cached = (await listed(second)).filter((r) => r.name.startsWith(`R-${damage}-`));
        expect(cached.map((r) => [r.id, r.name, r.priority]).sort()).toEqual(
          service.map((t) => [t.id, t.name, t.priority]).sort(),
        );
      } finally {
        for (const e of open) await e.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
