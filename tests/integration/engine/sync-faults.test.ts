// Sync through the fault proxy: drops before and after the service, 5xx, 429 and hung answers
// are retried; the cache ends up equal to the service. Offline, cancel and reconnect behave.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../support/service';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { prng } from '../../../src/server/seed/generate';
import type { SyncStatus } from '../../../src/shared/ipc/sync';
import { ids, testEngine } from './support';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { crmEndpoints } from '../../../src/shared/api/crm';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;
const engines: Awaited<ReturnType<typeof testEngine>>[] = [];

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  proxy = await startFaultProxy({ target: svc.baseUrl, random: prng(7) });
});
afterEach(async () => {
  proxy.reset();
  await Promise.all(engines.splice(0).map((e) => e.close()));
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

async function engineThroughProxy(timeoutMs = 2_000) {
  const engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, {
    timeoutMs,
    sync: { retry: { attempts: 10, baseDelayMs: 5, maxDelayMs: 50 }, probeIntervalMs: 50 },
  });
  engines.push(engine);
  return engine;
}

/** Every task of every root, and every message, as the service holds them. */
async function serviceTotals(): Promise<{ taskIds: string[]; messages: number }> {
  const roots = (await api.call(projectEndpoints.projects, { query: { rootOnly: true } })).concat(
    await api.call(projectEndpoints.projects, { query: { archived: true, rootOnly: true } }),
  );
  const tasks = new Set<string>();
  for (const r of roots)
    for (const t of await api.call(taskEndpoints.projectTasks, {
      id: r.id,
      query: { closed: true, subfolders: true },
    }))
      tasks.add(t.id);
  let messages = 0;
  for (const id of tasks) messages += (await api.call(messageEndpoints.taskMessages, { id })).length;
  return { taskIds: [...tasks].sort(), messages };
}

const until = (engine: Awaited<ReturnType<typeof testEngine>>, test: (s: SyncStatus) => boolean) =>
  new Promise<SyncStatus>((resolve) => {
    if (test(engine.sync.status())) return resolve(engine.sync.status());
    const off = engine.sync.onStatus((s) => {
      if (test(s)) {
        off();
        resolve(s);
      }
    });
  });

describe('sync through faults', () => {
  it('survives drops, 5xx, 429 and hangs, and ends equal to the service', async () => {
    proxy.set({
      delayMs: 2,
      dropBefore: { rate: 0.05 },
      dropAfter: { rate: 0.05 },
      serverError: { rate: 0.05 },
      tooMany: { rate: 0.03 },
      hang: { rate: 0.005 },
    });
    const engine = await engineThroughProxy(500);
    const status = await engine.sync.now();
    expect(status).toMatchObject({ lastError: null, online: true });
    const injected = proxy.stats().injected;
    expect(
      injected.dropBefore + injected.dropAfter + injected.serverError + injected.tooMany,
    ).toBeGreaterThan(10);
    proxy.reset();
    const service = await serviceTotals();
    expect(engine.db.prepare('SELECT id FROM tasks ORDER BY id').pluck().all()).toEqual(service.taskIds);
    expect(engine.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(service.messages);
    const contacts = await engine.call('crm.contacts', { includeDeleted: true, limit: 1000 });
    expect(ids(contacts.rows)).toEqual(ids(await api.call(crmEndpoints.crmContacts)));
  });

  it('goes offline when the service cannot be reached, keeps the cache, and pulls on reconnect', async () => {
    const engine = await engineThroughProxy();
    expect((await engine.sync.now()).lastError).toBeNull();
    const tasksBefore = engine.db.prepare('SELECT count(*) FROM tasks').pluck().get();
    proxy.set({ dropBefore: { rate: 1 } });
    const offline = await engine.sync.now();
    expect(offline.online).toBe(false);
    expect(offline.lastError).toMatch(/GET \/2\.0\/|GET \//);
    expect(offline.lastError).not.toContain(svc.token);
    expect(engine.db.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(tasksBefore);
    const { nodes } = await engine.call('projects.tree', {});
    expect(nodes.length).toBeGreaterThan(0);
    proxy.reset();
    engine.sync.start();
    engine.sync.notifyOnline();
    const back = await until(engine, (s) => s.online && !s.running && s.lastError === null);
    expect(back.lastSyncedAt).not.toBeNull();
  });

  it('can be cancelled mid-run and completes on the next run', async () => {
    const engine = await engineThroughProxy();
    proxy.set({ delayMs: 20 });
    const run = engine.sync.now();
    await until(engine, (s) => s.done > 3);
    engine.sync.cancel();
    expect((await run).lastError).toBe('cancelled');
    proxy.reset();
    const status = await engine.sync.now();
    expect(status.lastError).toBeNull();
    expect(engine.db.prepare('SELECT id FROM tasks ORDER BY id').pluck().all()).toEqual(
      (await serviceTotals()).taskIds,
    );
  });

  it('stops at a refused token and says so without the token', async () => {
    const engine = await engineThroughProxy();
    proxy.set({ unauthorized: { rate: 1 } });
    const status = await engine.sync.now();
    expect(status.lastError).toBe('unauthorized: the token was refused');
  });
});
