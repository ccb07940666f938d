// Rule 7: a pull keeps fields with a pending local change and items pending create; it tells the
// outbox port the service's values so a conflict can be recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../support/service';
import { createServiceClient } from '../../../src/main/core/api/client';
import { flattenTask } from '../../../src/main/core/cache/repos/tasks';
import type { PendingEntity, PendingFields } from '../../../src/main/core/sync/pending';
import { testEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';

let svc: RunningService;
let engine: Awaited<ReturnType<typeof testEngine>>;
const pendingFields = new Map<string, Set<string>>();
const pendingStructural = new Set<string>();
const noted: { entity: PendingEntity; id: string; values: Record<string, unknown> }[] = [];
const port: PendingFields = {
  pendingFieldsFor: (_e, id) => pendingFields.get(id) ?? new Set(),
  isPendingStructural: (_e, id) => pendingStructural.has(id),
  noteServerValues: (entity, id, values) => noted.push({ entity, id, values }),
  pendingCount: () => pendingFields.size + pendingStructural.size,
};

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { pending: port });
  expect((await engine.sync.now()).lastError).toBeNull();
});
afterAll(async () => {
  await engine?.close();
  await svc?.close();
});

describe('pull and pending local changes', () => {
  it('keeps a pending field, reports the server value, and takes the server value once acknowledged', async () => {
    const api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    const { nodes } = await engine.call('projects.tree', {});
    const project = nodes.find((n) => n.openTaskCount > 0)!;
    const task = (await engine.call('tasks.list', { projectId: project.id, limit: 1 })).rows[0]!;
    // What the outbox does on a local edit: the cache row changes and the field is pending.
    const local = engine.cache.tasks.get(task.id)!;
    engine.cache.tasks.upsertMany([flattenTask({ ...local, name: 'Local title' })]);
    pendingFields.set(task.id, new Set(['name']));
    // A local create the service has not seen yet.
    engine.cache.tasks.upsertMany([
      flattenTask({ ...local, id: 'local-1', shortId: '', name: 'Made offline' }),
    ]);
    pendingStructural.add('local-1');

    await api.call(taskEndpoints.updateTask, {
      id: task.id,
      body: { userId: svc.users.actingUserId, title: 'Service title', priority: 7 },
    });
    const status = await engine.sync.now();
    expect(status.pendingCount).toBe(2);
    expect(engine.cache.tasks.get(task.id)).toMatchObject({ name: 'Local title', priority: 7 });
    expect(noted).toContainEqual({ entity: 'task', id: task.id, values: { name: 'Service title' } });
    expect(engine.cache.tasks.get('local-1')?.name).toBe('Made offline');

    pendingFields.clear();
    pendingStructural.clear();
    await engine.sync.now();
    expect(engine.cache.tasks.get(task.id)?.name).toBe('Service title');
    expect(engine.cache.tasks.get('local-1')).toBeNull();
  });
});
