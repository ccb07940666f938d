// A task's subtree deleted bottom-up: the child's waiting changes, the child's delete, then the
// parent's delete. The service removes a parent with its subtasks, so the parent's DELETE must not
// overtake anything still waiting on a subtask, or that change is answered 404 and refused: a
// failed change for something the user's own later delete made moot (campaign seeds 6176, 6334).
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { writesSuite, type TestEngine } from './support';

const suite = writesSuite();

/** A parent and its subtask, both on the service and in the cache, by real id. */
async function parentWithChild(e: TestEngine, name: string): Promise<{ parent: string; child: string }> {
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
async function failedKinds(e: TestEngine): Promise<string[]> {
  await e.drained();
  const failed = e.outbox.entries('failed');
  for (const f of failed) await e.call('outbox.discard', { id: f.id });
  return failed.map((f) => `${f.kind}: ${f.errorMessage ?? ''}`);
}

describe('deleting a subtree bottom-up', () => {
  it("sends a subtask's waiting tag before the parent's delete takes the subtask along", async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const { parent, child } = await parentWithChild(e, 'tagged');
    const throttled = suite.proxy.stats().injected.tooMany;
    suite.proxy.set({ tooMany: { next: 1, match: new RegExp(`POST /2.0/task/${child}/tag/`) } });
    await e.call('tasks.addTag', { taskId: child, tagId: SEED_IDS.tags.urgent });
    await e.call('tasks.delete', { taskId: child });
    await e.call('tasks.delete', { taskId: parent });
    expect(await failedKinds(e)).toEqual([]);
    expect(suite.proxy.stats().injected.tooMany).toBe(throttled + 1);
  });

  it("sends a subtask's waiting comment before the parent's delete, with both made offline", async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    await e.outbox.stop();
    const { id: parent } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'offline parent',
    });
    const { id: child } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'offline child',
      parentTaskId: parent,
    });
    const throttled = suite.proxy.stats().injected.tooMany;
    suite.proxy.set({ tooMany: { next: 1, match: /POST \/2.0\/task\/[^/]+\/comment$/ } });
    await e.call('tasks.comment', { taskId: child, message: 'on the child' });
    await e.call('tasks.delete', { taskId: child });
    await e.call('tasks.delete', { taskId: parent });
    e.outbox.start();
    expect(await failedKinds(e)).toEqual([]);
    expect(suite.proxy.stats().injected.tooMany).toBe(throttled + 1);
    await e.sync.now();
    const list = await e.call('tasks.list', { projectId: SEED_IDS.workspace, filter: { closed: 'all' } });
    expect(list.rows.map((r) => r.name).filter((n) => n.startsWith('offline '))).toEqual([]);
  });

  // Campaign seed 8026: a subtask's create answered nothing (the service had made it), a pull
  // brought the service's copy before the look-up, and the parent's delete named both the local
  // subtask and that copy. When the look-up matched them, the delete held both keys of one task
  // and the acknowledgement failed on every attempt: the outbox never drained.
  it("acknowledges a subtask's create when a waiting delete names both its local id and the service's copy", async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const { id: parentLocal } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'twin parent',
    });
    await e.drained();
    const parent = e.outbox.realIdOf(parentLocal);
    const lost = suite.proxy.stats().injected.dropAfter;
    suite.proxy.set({ dropAfter: { next: 1, match: /POST \/2.0\/tasks$/ } });
    const { id: child } = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'twin child',
      parentTaskId: parent,
    });
    for (let i = 0; i < 200 && suite.proxy.stats().injected.dropAfter === lost; i++)
      await new Promise((r) => setTimeout(r, 10));
    // The look-up waits two request timeouts; the pull runs before it and stores the copy.
    await e.sync.now();
    const twins = e.cache.tasks
      .idsInProjects([SEED_IDS.workspace])
      .filter((id) => e.cache.tasks.get(id)?.name === 'twin child');
    expect(twins).toHaveLength(2);
    await e.call('tasks.delete', { taskId: parent });
    expect(await failedKinds(e)).toEqual([]);
    expect(e.outbox.realIdOf(child)).not.toBe(child);
    await e.sync.now();
    const list = await e.call('tasks.list', { projectId: SEED_IDS.workspace, filter: { closed: 'all' } });
    expect(list.rows.map((r) => r.name).filter((n) => n.startsWith('twin '))).toEqual([]);
  });
});
