// Events and dependencies through the outbox, including ones between items created offline,
// with the answers of their creates lost after the service committed (look-up, no duplicate).
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { writesSuite, type TestEngine } from './support';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';
import { eventEndpoints } from '../../../src/shared/api/events';
import { taskEndpoints } from '../../../src/shared/api/tasks';

const suite = writesSuite();

/** Two tasks created through the outbox and acknowledged: their real ids. */
async function syncedTasks(e: TestEngine, ...titles: [string, string]): Promise<[string, string]> {
  const ids: string[] = [];
  for (const title of titles) {
    const { id } = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
    await e.drained();
    ids.push(e.outbox.realIdOf(id));
  }
  return ids as [string, string];
}

describe('events and dependencies through the outbox', () => {
  it('links offline-created tasks and an event, once each, despite lost answers; deletes follow', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    suite.proxy.set({ dropAfter: { next: 3, match: /^POST \/2\.0\/(dependencies|events)/ } });
    const a = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Design' });
    const b = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Build' });
    const milestone = await e.call('events.create', {
      eventType: 'project-milestone',
      name: 'Beta',
      startDate: '2026-12-15',
      projectId: SEED_IDS.workspace,
    });
    const dep = await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: a.id },
      successor: { kind: 'task', id: b.id },
    });
    const dep2 = await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: b.id },
      successor: { kind: 'event', id: milestone.id },
    });
    expect(
      e.cache.dependencies
        .listFor(b.id)
        .map((d) => d.id)
        .sort(),
    ).toEqual([dep.id, dep2.id].sort());
    await e.drained();
    expect(suite.proxy.stats().injected.dropAfter).toBe(3);
    const [ra, rb, rm, rd] = [a.id, b.id, milestone.id, dep.id].map((x) => e.outbox.realIdOf(x));
    const deps = await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: rb! });
    expect(deps.predecessors.map((d) => [d.id, d.predecessorTaskId])).toEqual([[rd, ra]]);
    expect(deps.successors.map((d) => d.successorEventId)).toEqual([rm]);
    const events = await suite.api.call(eventEndpoints.events, {
      query: { startDate: '2026-12-01', endDate: '2026-12-31' },
    });
    expect(events.filter((x) => x.name === 'Beta').map((x) => x.id)).toEqual([rm]);
    expect(
      e.cache.dependencies
        .listFor(rb!)
        .map((d) => d.id)
        .sort(),
    ).toEqual([rd, e.outbox.realIdOf(dep2.id)].sort());

    suite.proxy.set({ dropAfter: { next: 2, match: /^DELETE / } });
    await e.call('dependencies.delete', { dependencyId: rd! });
    await e.call('events.delete', { eventId: rm! });
    expect(e.cache.dependencies.listFor(ra!)).toEqual([]);
    await e.drained();
    expect(
      (await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: ra! })).successors,
    ).toEqual([]);
    await expect(suite.api.call(eventEndpoints.event, { id: rm! })).rejects.toMatchObject({ status: 404 });
    expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('a dependency create between synced tasks is sent before a later delete of its successor', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const [from, to] = await syncedTasks(e, 'dep from', 'dep to');
    // The create's first attempt is refused: it must still go before the delete of its task.
    const refused = suite.proxy.stats().injected.tooMany;
    suite.proxy.set({ tooMany: { next: 1, match: /^POST \/2\.0\/dependencies$/ } });
    await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: from },
      successor: { kind: 'task', id: to },
    });
    await e.call('tasks.delete', { taskId: to });
    await e.drained();
    expect(suite.proxy.stats().injected.tooMany - refused).toBe(1);
    expect(e.outbox.entries('failed')).toEqual([]);
    expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
    expect(
      (await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: from })).successors,
    ).toEqual([]);
    await expect(suite.api.call(taskEndpoints.task, { id: to })).rejects.toMatchObject({ status: 404 });
  });

  it('a dependency delete overtaken by the delete of its task counts as done', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const [from, to] = await syncedTasks(e, 'undep from', 'undep to');
    const dep = await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: from },
      successor: { kind: 'task', id: to },
    });
    await e.drained();
    const depId = e.outbox.realIdOf(dep.id);
    // The dependency's delete is refused once; the task's delete (a chain of its own) goes
    // first and takes the dependency along: the retry is answered 404.
    const refused = suite.proxy.stats().injected.tooMany;
    suite.proxy.set({ tooMany: { next: 1, match: /^DELETE \/2\.0\/dependency\// } });
    await e.call('dependencies.delete', { dependencyId: depId });
    await e.call('tasks.delete', { taskId: to });
    await e.drained();
    expect(suite.proxy.stats().injected.tooMany - refused).toBe(1);
    expect(e.outbox.entries('failed')).toEqual([]);
    expect(
      (await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: from })).successors,
    ).toEqual([]);
    await expect(suite.api.call(taskEndpoints.task, { id: to })).rejects.toMatchObject({ status: 404 });
  });
});
