// Rule 7 end to end: a pull keeps fields with a pending local change; when the service changed
// the same field meanwhile, the conflict journal holds both values, local wins by default, and
// "take theirs" / "keep mine" decide what the service ends up with.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';

let svc: RunningService;
let api: ServiceClient;
let engine: TestEngine;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
});
afterEach(async () => {
  await engine?.close();
});
afterAll(async () => {
  await svc?.close();
});

/** A task on the service and in the cache, then a local rename queued while the service renames it too. */
async function conflicted(title: string): Promise<{ e: TestEngine; taskId: string; conflictId: number }> {
  const { id: taskId } = await api.call(taskEndpoints.createTask, {
    body: {
      projectId: SEED_IDS.workspace,
      title,
      fromUserId: svc.users.actingUserId,
    },
  });
  engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
  const e = engine;
  await e.sync.now();
  await e.outbox.stop();
  await e.call('tasks.update', { taskId, changes: { title: `${title} (mine)`, priority: 4 } });
  await api.call(taskEndpoints.updateTask, {
    id: taskId,
    body: { userId: svc.users.bob, title: `${title} (theirs)` },
  });
  await e.sync.now();
  expect(e.cache.tasks.get(taskId)?.name).toBe(`${title} (mine)`);
  const conflicts = await e.call('conflicts.list', {});
  expect(conflicts).toMatchObject([
    {
      entity: 'task',
      entityId: taskId,
      field: 'name',
      localValue: `${title} (mine)`,
      remoteValue: `${title} (theirs)`,
    },
  ]);
  expect((await e.call('outbox.status', {})).conflicts).toBe(1);
  return { e, taskId, conflictId: conflicts[0]!.id };
}

describe('conflicts (rule 7)', () => {
  it('keep mine: the local value reaches the service', async () => {
    const { e, taskId, conflictId } = await conflicted('Keep');
    await e.call('conflicts.resolve', { id: conflictId, choice: 'mine' });
    e.outbox.start();
    await e.drained();
    expect(await api.call(taskEndpoints.task, { id: taskId })).toMatchObject({
      name: 'Keep (mine)',
      priority: 4,
    });
    expect(await e.call('conflicts.list', {})).toEqual([]);
  });

  it('take theirs: the view shows the service value and the service keeps it', async () => {
    const { e, taskId, conflictId } = await conflicted('Take');
    await e.call('conflicts.resolve', { id: conflictId, choice: 'theirs' });
    expect(e.cache.tasks.get(taskId)?.name).toBe('Take (theirs)');
    e.outbox.start();
    await e.drained();
    expect(await api.call(taskEndpoints.task, { id: taskId })).toMatchObject({
      name: 'Take (theirs)',
      priority: 4,
    });
    await e.sync.now();
    expect(e.cache.tasks.get(taskId)).toMatchObject({ name: 'Take (theirs)', priority: 4 });
  });
});
