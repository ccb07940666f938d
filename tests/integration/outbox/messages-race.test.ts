// Campaign seed 1 (bounded vitest profile, session 3): a client's cache lacked another client's
// comment for good. A task's messages and detail are fetched at once; when the messages were
// answered before the comment and the detail after it, the store took the detail's newer
// activity moment and marked the messages fetched "as of" it, so no later pull fetched them
// again. The messages are now marked with the activity moment cached when their fetch began:
// an answer older than the task's activity leaves it stale, and the next pull fetches again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { gatedFetch, testEngine, type TestEngine } from './support';

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
    await engine.sync.onDemand.task(taskId);
    // Opening the task fetches its messages and detail at once: the messages are answered (and
    // held), the detail request waits until another user has commented.
    detailPath = `/2.0/task/${taskId}`;
    let sendDetail!: () => void;
    detailHeld = new Promise<void>((r) => (sendDetail = r));
    const held = gate.arm(new RegExp(`^GET /2.0/task/${taskId}/messages$`));
    const opening = engine.sync.onDemand.task(taskId);
    await held.answered;
    const api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    await api.comment(taskId, { userId: SEED_IDS.users.bob, message: 'from bob' });
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
