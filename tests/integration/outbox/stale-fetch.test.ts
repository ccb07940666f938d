// Campaign bug 4: a fetch that began before an entry was acknowledged and is stored after it
// must not overwrite the acknowledged value, nor drop a comment's draft without the service's
// message, nor mark the task's messages fetched. The fetch is held deterministically: a gated
// fetch lets the service answer (before the write reaches it), then holds that answer until the
// write is acknowledged.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { LOCAL_ROW_PREFIX } from '../../../src/main/core/local-ids';
import { gatedFetch, testEngine, type TestEngine } from './support';
import { taskReads } from '../../../src/main/core/entities/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';

let svc: RunningService;
let e: TestEngine | undefined;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
});
afterEach(async () => {
  await e?.close();
  e = undefined;
});
afterAll(async () => {
  await svc?.close();
});

async function engineWithTask(title: string) {
  const gate = gatedFetch();
  e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch: gate.fetch });
  const engine = e;
  await engine.sync.now();
  const { id } = await engine.call('tasks.create', { projectId: SEED_IDS.workspace, title });
  await engine.drained();
  const taskId = engine.outbox.realIdOf(id);
  // Fetched once, so the detail is part of every later fetch of the task.
  await engine.sync.onDemand.run(taskReads.task(taskId));
  return { engine, gate, taskId };
}

describe('a fetch that began before an acknowledgement (campaign bug 4)', () => {
  it('keeps the acknowledged field value instead of the older fetched one', async () => {
    const { engine, gate, taskId } = await engineWithTask('stale field');
    const held = gate.arm(new RegExp(`^GET /2.0/task/${taskId}$`));
    const fetching = engine.sync.onDemand.run(taskReads.task(taskId));
    await held.answered;
    await engine.call('tasks.update', { taskId, changes: { priority: 7 } });
    await engine.drained();
    expect(engine.outbox.status().pending).toBe(0);
    held.release();
    await fetching;
    expect(engine.cache.tasks.get(taskId)?.priority).toBe(7);
  });

  it('keeps an acknowledged tag the older fetch lacks', async () => {
    const { engine, gate, taskId } = await engineWithTask('stale tag');
    const held = gate.arm(new RegExp(`^GET /2.0/task/${taskId}$`));
    const fetching = engine.sync.onDemand.run(taskReads.task(taskId));
    await held.answered;
    await engine.call('tasks.addTag', { taskId, tagId: SEED_IDS.tags.urgent });
    await engine.drained();
    held.release();
    await fetching;
    expect(engine.cache.org.tagsOfTask(taskId).map((t) => t.id)).toContain(SEED_IDS.tags.urgent);
  });

  it('keeps a comment the older fetch lacks, and the next pull shows it once', async () => {
    const { engine, gate, taskId } = await engineWithTask('stale comment');
    const held = gate.arm(new RegExp(`^GET /2.0/task/${taskId}/messages$`));
    const fetching = engine.sync.onDemand.run(taskReads.task(taskId));
    await held.answered;
    await engine.call('tasks.comment', { taskId, message: 'after the fetch began' });
    await engine.drained();
    held.release();
    await fetching;
    const texts = () => engine.cache.messages.listForTask(taskId).map((m) => m.message);
    expect(texts()).toContain('after the fetch began');
    // Not marked fetched from the stale answer: the next pull asks again and ends with exactly
    // the service's message.
    expect(engine.cache.tasks.fetchStateOf(taskId)?.messagesActivityMoment).toBeNull();
    await engine.sync.now();
    expect(texts().filter((t) => t === 'after the fetch began')).toHaveLength(1);
    expect(engine.cache.messages.listForTask(taskId).every((m) => !m.id.startsWith(LOCAL_ROW_PREFIX))).toBe(
      true,
    );
  });

  it('does not bring back a task whose delete was acknowledged after the fetch began', async () => {
    const { engine, gate, taskId } = await engineWithTask('stale delete');
    const held = gate.arm(new RegExp(`^GET /2.0/project/${SEED_IDS.workspace}/tasks$`));
    const pulling = engine.sync.now();
    await held.answered;
    await engine.call('tasks.delete', { taskId });
    await engine.drained();
    // Checked at every cache change: a later step of the pull (its 404 on the task's messages)
    // would remove it again, hiding that the stale list had put it back.
    let reappeared = false;
    const off = engine.events.onAny(() => {
      if (engine.cache.tasks.get(taskId)) reappeared = true;
    });
    held.release();
    await pulling;
    off();
    expect(reappeared).toBe(false);
    expect(engine.cache.tasks.get(taskId)).toBeNull();
  });
});

// Campaign seed 1 (bounded vitest profile): a client's cache lacked another client's
// comment for good. A task's messages and detail are fetched at once; when the messages were
// answered before the comment and the detail after it, the store took the detail's newer
// activity moment and marked the messages fetched "as of" it, so no later pull fetched them
// again. The messages are now marked with the activity moment cached when their fetch began:
// an answer older than the task's activity leaves it stale, and the next pull fetches again.
describe('a task fetch whose messages answer predates its detail answer', () => {
  it("keeps another user's comment that the messages answer lacks", async () => {
    const gate = gatedFetch();
    // The detail request of the task can be held before it reaches the service.
    let detailHeld: Promise<void> | undefined;
    let detailPath = '';
    const fetch: FetchLike = async (input, init) => {
      if (detailHeld && new URL(input).pathname === detailPath) await detailHeld;
      return gate.fetch(input, init);
    };
    e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch });
    const engine = e;
    await engine.sync.now();
    const { id } = await engine.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'race' });
    await engine.drained();
    const taskId = engine.outbox.realIdOf(id);
    await engine.sync.now();
    await engine.sync.onDemand.run(taskReads.task(taskId));
    // Opening the task fetches its messages and detail at once: the messages are answered (and
    // held), the detail request waits until another user has commented.
    detailPath = `/2.0/task/${taskId}`;
    let sendDetail!: () => void;
    detailHeld = new Promise<void>((r) => (sendDetail = r));
    const held = gate.arm(new RegExp(`^GET /2.0/task/${taskId}/messages$`));
    const opening = engine.sync.onDemand.run(taskReads.task(taskId));
    await held.answered;
    const api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    await api.call(messageEndpoints.comment, {
      id: taskId,
      body: { userId: SEED_IDS.users.bob, message: 'from bob' },
    });
    detailHeld = undefined;
    sendDetail();
    held.release();
    await opening;
    // The detail brought the comment's activity moment; the messages answer predates it.
    await engine.sync.now();
    const detail = await engine.call('tasks.detail', { taskId });
    expect(detail.messages.map((m) => m.message)).toContain('from bob');
  });
});

describe('a messages fetch overtaken by a newer one (campaign seed 6349)', () => {
  // A pull's messages fetch answered, then a newer fetch of the task (opening it) stored a later
  // activity moment and message; the pull's older answer is stored last. It must not be marked as
  // fetched at that later moment, or no later pull asks again and the message stays missing.
  it('leaves the messages to be fetched again, and the next pull shows the newer message', async () => {
    const gate = gatedFetch();
    e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch: gate.fetch });
    const engine = e;
    await engine.sync.now();
    const { id } = await engine.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'overtaken' });
    await engine.drained();
    await engine.sync.now();
    const taskId = engine.outbox.realIdOf(id);
    const other = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    const say = (message: string) =>
      other.call(messageEndpoints.comment, { id: taskId, body: { userId: svc.users.actingUserId, message } });
    await say('first');
    // A task listed but never opened: the pull fetches its messages without its detail (whose
    // older activity moment, stored with the older messages, would hide the race).
    engine.cache.db.prepare('UPDATE tasks SET detail_fetched_at = NULL WHERE id = ?').run(taskId);
    const held = gate.arm(new RegExp(`^GET /2.0/task/${taskId}/messages$`));
    const pulling = engine.sync.now();
    await held.answered;
    await say('second');
    await engine.sync.onDemand.run(taskReads.task(taskId));
    held.release();
    await pulling;
    await engine.sync.now();
    expect(engine.cache.messages.listForTask(taskId).map((m) => m.message)).toEqual(['first', 'second']);
  });
});
