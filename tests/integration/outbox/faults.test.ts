// The outbox through the fault proxy: whatever happens to a request (dropped before the
// service, dropped after it committed, 5xx, 429, hung, 401), once the network heals and the
// queue drains, the service holds every change exactly once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import { prng } from '../../../src/server/seed/generate';
import { startFaultProxy, type FaultProxy, type Faults } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;
let engine: TestEngine | undefined;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  proxy = await startFaultProxy({ target: svc.baseUrl, random: prng(11) });
});
afterEach(async () => {
  proxy.reset();
  await engine?.close();
  engine = undefined;
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

const WRITES = /^(POST|PUT|DELETE) /;

/** A burst of writes of every kind, some on items created in the same burst. */
async function writeBurst(e: TestEngine, tag: string): Promise<{ parent: string; child: string }> {
  const parent = await e.call('tasks.create', {
    projectId: SEED_IDS.workspace,
    title: `${tag} parent`,
    message: `${tag} note`,
  });
  const child = await e.call('tasks.create', {
    projectId: SEED_IDS.workspace,
    title: `${tag} child`,
    parentTaskId: parent.id,
  });
  await e.call('tasks.comment', { taskId: parent.id, message: `${tag} comment` });
  await e.call('tasks.update', { taskId: child.id, changes: { priority: 7, estimate: 90 } });
  await e.call('tasks.setStatus', {
    taskId: parent.id,
    statusId: SEED_IDS.statuses.inProgress,
    message: `${tag} started`,
  });
  await e.call('tasks.reply', {
    taskId: child.id,
    actionRequiredUserId: svc.users.bob,
    message: `${tag} yours`,
  });
  await e.call('tasks.addTag', { taskId: parent.id, tagId: SEED_IDS.tags.backend });
  return { parent: parent.id, child: child.id };
}

/** What the service holds for a burst, checked for exactly-once. */
async function expectAppliedOnce(
  e: TestEngine,
  tag: string,
  ids: { parent: string; child: string },
): Promise<void> {
  const all = await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } });
  const mine = all.filter((t) => t.name.startsWith(`${tag} `));
  expect(mine.map((t) => t.name).sort()).toEqual([`${tag} child`, `${tag} parent`]);
  const parent = e.outbox.realIdOf(ids.parent);
  const child = e.outbox.realIdOf(ids.child);
  const p = await api.call(taskEndpoints.task, { id: parent });
  expect(p).toMatchObject({ status: { id: SEED_IDS.statuses.inProgress }, tags: [SEED_IDS.tags.backend] });
  expect(p.subtasks.map((s) => s.id)).toEqual([child]);
  expect(p.subtasks[0]).toMatchObject({ priority: 7, estimate: 90, actionRequiredUserId: svc.users.bob });
  expect((await api.call(messageEndpoints.taskMessages, { id: parent })).map((m) => m.message)).toEqual([
    `${tag} note`,
    `${tag} comment`,
    `${tag} started`,
  ]);
  expect((await api.call(messageEndpoints.taskMessages, { id: child })).map((m) => m.message)).toEqual([
    `${tag} yours`,
  ]);
  expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
}

const cases: [string, Partial<Faults>][] = [
  ['connection dropped before the service', { dropBefore: { next: 4, match: WRITES } }],
  ['connection dropped after the service committed', { dropAfter: { next: 4, match: WRITES } }],
  ['5xx', { serverError: { next: 4, match: WRITES } }],
  ['429', { tooMany: { next: 4, match: WRITES, retryAfterSeconds: 0 } }],
  ['hung responses', { hang: { next: 2, match: WRITES } }],
  [
    'random mix of every fault on reads and writes',
    {
      dropBefore: { rate: 0.1 },
      dropAfter: { rate: 0.15 },
      serverError: { rate: 0.1 },
      tooMany: { rate: 0.05 },
    },
  ],
];

describe('outbox through the fault proxy', () => {
  it.each(cases)('%s: every change reaches the service exactly once', async (name, faults) => {
    engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { timeoutMs: 400 });
    await engine.sync.now();
    const tag = `F${cases.findIndex(([n]) => n === name)}`;
    proxy.set(faults);
    const ids = await writeBurst(engine, tag);
    await engine.drained(30_000);
    proxy.reset();
    expect(Object.values(proxy.stats().injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    await expectAppliedOnce(engine, tag, ids);
  });

  it('401 pauses the queue with "token needed" until resumed, then sends everything once', async () => {
    engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { timeoutMs: 400 });
    await engine.sync.now();
    const statuses: (string | null)[] = [];
    const off = engine.events.onAny((name, payload) => {
      if (name === 'outbox.onDidChange') statuses.push((payload as { paused: string | null }).paused);
    });
    proxy.set({ unauthorized: { next: 1000, match: WRITES } });
    const ids = await writeBurst(engine, 'U');
    await queueOf(engine.outbox).idle();
    await new Promise((r) => setTimeout(r, 100));
    expect(await engine.call('outbox.status', {})).toMatchObject({ paused: 'token-needed', pending: 7 });
    expect(statuses).toContain('token-needed');
    const refused = proxy.stats().injected.unauthorized;
    await new Promise((r) => setTimeout(r, 200));
    // Paused means paused: no request was made meanwhile.
    expect(proxy.stats().injected.unauthorized).toBe(refused);
    proxy.reset();
    queueOf(engine.outbox).resume();
    await engine.drained();
    off();
    await expectAppliedOnce(engine, 'U', ids);
  });
});
