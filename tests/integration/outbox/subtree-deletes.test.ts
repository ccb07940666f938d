// A task's subtree deleted bottom-up: the child's waiting changes, the child's delete, then the
// parent's delete. The service removes a parent with its subtasks, so the parent's DELETE must not
// overtake anything still waiting on a subtask, or that change is answered 404 and refused: a
// failed change for something the user's own later delete made moot (campaign seeds 6176, 6334).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';

let svc: RunningService;
let proxy: FaultProxy;
let e: TestEngine;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  proxy = await startFaultProxy({ target: svc.baseUrl });
  e = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { timeoutMs: 1_000 });
  await e.sync.now();
});
afterAll(async () => {
  await e?.close();
  await proxy?.close();
  await svc?.close();
});

/** A parent and its subtask, both on the service and in the cache, by real id. */
async function parentWithChild(name: string): Promise<{ parent: string; child: string }> {
  const { id: parentLocal } = await e.call('tasks.create', {
    projectId: SEED_IDS.workspace,
    title: `${name} parent`,
  });
  const { id: childLocal } = await e.call('tasks.create', {
    projectId: SEED_IDS.workspace,
    title: `${name} child`,
    parentTaskId: parentLocal,
  });
  await e.drained();
  await e.sync.now();
  return { parent: e.outbox.realIdOf(parentLocal), child: e.outbox.realIdOf(childLocal) };
}

/** Drains, then answers the kinds of the failed changes (discarding them so the next test starts clean). */
async function failedKinds(): Promise<string[]> {
  await e.drained();
  proxy.reset();
  const failed = e.outbox.outbox.entries('failed');
  for (const f of failed) await e.call('outbox.discard', { id: f.id });
  return failed.map((f) => `${f.kind}: ${f.errorMessage ?? ''}`);
}

describe('deleting a subtree bottom-up', () => {
  it("sends a subtask's waiting tag before the parent's delete takes the subtask along", async () => {
    const { parent, child } = await parentWithChild('tagged');
    const throttled = proxy.stats().injected.tooMany;
    proxy.set({ tooMany: { next: 1, match: new RegExp(`POST /2.0/task/${child}/tag/`) } });
    await e.call('tasks.addTag', { taskId: child, tagId: SEED_IDS.tags.urgent });
    await e.call('tasks.delete', { taskId: child });
    await e.call('tasks.delete', { taskId: parent });
    expect(await failedKinds()).toEqual([]);
    expect(proxy.stats().injected.tooMany).toBe(throttled + 1);
  });

  it("sends a subtask's waiting comment before the parent's delete, with both made offline", async () => {
    await e.outbox.outbox.stop();
    const { id: parent } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'offline parent',
    });
    const { id: child } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'offline child',
      parentTaskId: parent,
    });
    const throttled = proxy.stats().injected.tooMany;
    proxy.set({ tooMany: { next: 1, match: /POST \/2.0\/task\/[^/]+\/comment$/ } });
    await e.call('tasks.comment', { taskId: child, message: 'on the child' });
    await e.call('tasks.delete', { taskId: child });
    await e.call('tasks.delete', { taskId: parent });
    e.outbox.outbox.start();
    expect(await failedKinds()).toEqual([]);
    expect(proxy.stats().injected.tooMany).toBe(throttled + 1);
    await e.sync.now();
    const list = await e.call('tasks.list', { projectId: SEED_IDS.workspace, filter: { closed: 'all' } });
    expect(list.rows.map((r) => r.name).filter((n) => n.startsWith('offline '))).toEqual([]);
  });
});
