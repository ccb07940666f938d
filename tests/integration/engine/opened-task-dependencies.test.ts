// Opening a task reads its detail, messages and dependencies together. When only the dependency
// read fails, what did arrive is kept, but the task is not taken as read: the next open asks
// again, so its dependencies are read once the service answers (a pull never reads them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../support/service';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { testEngine } from './support';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';
import { messageEndpoints } from '../../../src/shared/api/messages';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;
let engine: Awaited<ReturnType<typeof testEngine>>;

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  proxy = await startFaultProxy({ target: svc.baseUrl });
  engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, {
    sync: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 }, probeIntervalMs: 50 },
  });
});

afterAll(async () => {
  await engine?.close();
  await proxy?.close();
  await svc?.close();
});

/** A task of the seed with dependencies, and those dependencies as the service lists them. */
async function taskWithDependencies(): Promise<{ taskId: string; service: string[] }> {
  const roots = await api.call(projectEndpoints.projects, { query: { rootOnly: true } });
  for (const root of roots) {
    for (const t of await api.call(taskEndpoints.projectTasks, {
      id: root.id,
      query: { closed: true, subfolders: true },
    })) {
      const answer = await api.call(dependencyEndpoints.dependencies, { kind: 'task', id: t.id });
      const service = [...answer.predecessors, ...answer.successors];
      if (service.length) return { taskId: t.id, service: service.map((d) => d.id).sort() };
    }
  }
  throw new Error('the demo seed has a task with dependencies');
}

describe('a task opened while its dependencies cannot be read', () => {
  it('keeps its detail and messages, and reads the dependencies at the next open', async () => {
    expect((await engine.sync.now()).lastError).toBeNull();
    const { taskId, service } = await taskWithDependencies();

    proxy.set({ serverError: { next: 1_000, status: 500, match: /\/task\/[^/]+\/dependencies/ } });
    const first = await engine.call('tasks.detail', { taskId });
    expect(first.messages.length).toBe(
      (await api.call(messageEndpoints.taskMessages, { id: taskId })).length,
    );
    expect(first.dependencies).toEqual([]);
    expect(proxy.stats().injected.serverError).toBeGreaterThan(0);

    proxy.reset();
    const again = await engine.call('tasks.detail', { taskId });
    expect(again.dependencies.map((d) => d.id).sort()).toEqual(service);
    // Read now: the open after that answers from the cache.
    const requests = proxy.stats().received;
    await engine.call('tasks.detail', { taskId });
    expect(proxy.stats().received).toBe(requests);
  });
});
