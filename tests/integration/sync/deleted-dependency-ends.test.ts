// A dependency answer fetched while an item's delete waits in the outbox, or answered before that
// delete was acknowledged, still lists the dependencies the delete took along. Whatever the kind
// of the deleted end (a task, an event, a subtask its parent's delete took along), they must not
// come back through any item's answer (a task's, an event's, a project's), and the deleted item's
// own answer stores nothing.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { gatedFetch, writesSuite, type TestEngine } from '../outbox/support';
import { dependencyReads } from '../../../src/main/core/entities/calendar';
import { taskReads } from '../../../src/main/core/entities/tasks';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';

const suite = writesSuite();
const ws = SEED_IDS.workspace;

/**
 * A synced task and milestone event of the workspace, with acknowledged dependencies task ->
 * event and workspace project -> event, all fetched into the cache.
 */
async function linkedEvent(e: TestEngine, name: string) {
  const task = await e.call('tasks.create', { projectId: ws, title: `${name} task` });
  const event = await e.call('events.create', {
    eventType: 'project-milestone',
    name: `${name} milestone`,
    startDate: '2026-12-15',
    projectId: ws,
  });
  await e.call('dependencies.create', {
    type: 5,
    predecessor: { kind: 'task', id: task.id },
    successor: { kind: 'event', id: event.id },
  });
  await e.call('dependencies.create', {
    type: 6,
    predecessor: { kind: 'project', id: ws },
    successor: { kind: 'event', id: event.id },
  });
  await e.drained();
  const taskId = e.outbox.realIdOf(task.id);
  const eventId = e.outbox.realIdOf(event.id);
  await e.sync.onDemand.run(taskReads.task(taskId));
  await e.sync.onDemand.run(dependencyReads.ofProject(ws));
  expect(e.cache.dependencies.touching([eventId])).toHaveLength(2);
  return { taskId, eventId };
}

/** The cached dependencies naming the event, and what the service still lists for it. */
async function dependenciesOf(e: TestEngine, eventId: string) {
  const onService = await suite.api
    .call(dependencyEndpoints.dependencies, { kind: 'event', id: eventId })
    .catch(() => null);
  return { cached: e.cache.dependencies.touching([eventId]), onService };
}

describe('dependency answers and an event deleted here', () => {
  it("a task's and a project's answers fetched while the event's delete waits do not bring its dependencies back", async () => {
    const e = await suite.engine();
    const { taskId, eventId } = await linkedEvent(e, 'waiting');
    await e.outbox.stop();
    await e.call('events.delete', { eventId });
    // The local delete takes them along, as the service will.
    expect(e.cache.dependencies.touching([eventId])).toEqual([]);
    await e.sync.onDemand.run(taskReads.task(taskId));
    await e.sync.onDemand.run(dependencyReads.ofProject(ws));
    expect(e.cache.dependencies.touching([eventId])).toEqual([]);
    e.outbox.start();
    await e.drained();
    await e.sync.now();
    expect(await dependenciesOf(e, eventId)).toEqual({ cached: [], onService: null });
    expect((await e.call('tasks.detail', { taskId })).dependencies).toEqual([]);
  });

  it("the event's own answer fetched while its delete waits stores nothing", async () => {
    const e = await suite.engine();
    const { taskId, eventId } = await linkedEvent(e, 'own answer');
    await e.outbox.stop();
    await e.call('events.delete', { eventId });
    expect(await e.sync.onDemand.run(dependencyReads.ofEvent(eventId))).toBe('ok');
    expect(e.cache.dependencies.touching([eventId])).toEqual([]);
    expect(e.cache.dependencies.listFor(taskId)).toEqual([]);
    e.outbox.start();
    await e.drained();
    expect(await dependenciesOf(e, eventId)).toEqual({ cached: [], onService: null });
  });

  // The answer is read from the service before the delete reaches it and held until the delete
  // was acknowledged: nothing waits in the outbox any more when it is stored.
  it.each([
    [
      'task',
      (e: TestEngine, taskId: string) => e.sync.onDemand.run(taskReads.task(taskId)),
      '/task/{task}/dependencies',
    ],
    [
      'project',
      (e: TestEngine) => e.sync.onDemand.run(dependencyReads.ofProject(ws)),
      `/project/${ws}/dependencies`,
    ],
  ] as const)(
    "a %s's answer that predates the event delete's acknowledgement does not bring its dependencies back",
    async (_kind, fetchAnswer, path) => {
      const gate = gatedFetch();
      const e = await suite.engine({ fetch: gate.fetch });
      const { taskId, eventId } = await linkedEvent(e, `acknowledged ${_kind}`);
      const held = gate.arm(new RegExp(`^GET /2\\.0${path.replace('{task}', taskId)}$`));
      const fetching = fetchAnswer(e, taskId);
      await held.answered;
      await e.call('events.delete', { eventId });
      await e.drained();
      held.release();
      await fetching;
      expect(await dependenciesOf(e, eventId)).toEqual({ cached: [], onService: null });
    },
  );
});

describe('dependency answers and a subtask its parent deleted here took along', () => {
  /** A synced parent task with a subtask, and an acknowledged dependency subtask -> other task. */
  async function linkedSubtask(e: TestEngine, name: string) {
    const parent = await e.call('tasks.create', { projectId: ws, title: `${name} parent` });
    const sub = await e.call('tasks.create', {
      projectId: ws,
      title: `${name} subtask`,
      parentTaskId: parent.id,
    });
    const other = await e.call('tasks.create', { projectId: ws, title: `${name} other` });
    await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: sub.id },
      successor: { kind: 'task', id: other.id },
    });
    await e.drained();
    const [parentId, subId, otherId] = [parent.id, sub.id, other.id].map((id) => e.outbox.realIdOf(id));
    await e.sync.now();
    await e.sync.onDemand.run(taskReads.task(otherId!));
    expect(e.cache.dependencies.listFor(otherId!)).toHaveLength(1);
    return { parentId: parentId!, subId: subId!, otherId: otherId! };
  }

  it('neither a fetch nor a pull while the parent delete waits brings the subtask or its dependency back', async () => {
    const e = await suite.engine();
    const { parentId, subId, otherId } = await linkedSubtask(e, 'waiting parent delete');
    await e.outbox.stop();
    await e.call('tasks.delete', { taskId: parentId });
    await e.sync.onDemand.run(taskReads.task(otherId));
    expect(e.cache.dependencies.listFor(otherId)).toEqual([]);
    await e.sync.now();
    expect(e.cache.tasks.get(subId)).toBeNull();
    e.outbox.start();
    await e.drained();
    await e.sync.now();
    expect((await e.call('tasks.detail', { taskId: otherId })).dependencies).toEqual([]);
    expect(
      (await suite.api.call(dependencyEndpoints.dependencies, { kind: 'task', id: otherId })).predecessors,
    ).toEqual([]);
  });

  it("the other task's answer that predates the parent delete's acknowledgement does not bring it back", async () => {
    const gate = gatedFetch();
    const e = await suite.engine({ fetch: gate.fetch });
    const { parentId, otherId } = await linkedSubtask(e, 'acknowledged parent delete');
    const held = gate.arm(new RegExp(`^GET /2\\.0/task/${otherId}/dependencies$`));
    const fetching = e.sync.onDemand.run(taskReads.task(otherId));
    await held.answered;
    await e.call('tasks.delete', { taskId: parentId });
    await e.drained();
    held.release();
    await fetching;
    expect(e.cache.dependencies.listFor(otherId)).toEqual([]);
  });
});
