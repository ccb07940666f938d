// Property: for random sequences of task writes (including writes on items created offline and
// on their children), interleaved with random offline periods and lost answers, the service
// the outbox drains into ends up equal to a fresh service the same sequence was applied to once,
// directly.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import { prng } from '../../../src/server/seed/generate';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';

let target: RunningService;
let reference: RunningService;
let targetApi: ServiceClient;
let referenceApi: ServiceClient;
let proxy: FaultProxy;
let engine: TestEngine;

beforeAll(async () => {
  [target, reference] = await Promise.all([startService({ seed: 'empty' }), startService({ seed: 'empty' })]);
  targetApi = createServiceClient({ baseUrl: target.baseUrl, token: target.token });
  referenceApi = createServiceClient({ baseUrl: reference.baseUrl, token: reference.token });
  proxy = await startFaultProxy({ target: target.baseUrl, random: prng(3) });
  engine = await testEngine(proxy.baseUrl, target.token, target.users.actingUserId, { timeoutMs: 500 });
  await engine.sync.now();
});
afterAll(async () => {
  await engine?.close();
  await proxy?.close();
  await Promise.all([target?.close(), reference?.close()]);
});

/** A poor network: answers lost after the service committed, 5xx, requests lost on the way. */
const LOSSY = { dropAfter: { rate: 0.25 }, serverError: { rate: 0.1 }, dropBefore: { rate: 0.1 } };
const STATUSES = [SEED_IDS.statuses.new, SEED_IDS.statuses.inProgress, SEED_IDS.statuses.done];
const TAGS = [SEED_IDS.tags.urgent, SEED_IDS.tags.backend];
const USERS = [SEED_IDS.users.bob, SEED_IDS.users.cleo];

type Op =
  | { op: 'create'; parent: number | null }
  | { op: 'comment'; pick: number }
  | { op: 'rename'; pick: number }
  | { op: 'priority'; pick: number; priority: number }
  | { op: 'status'; pick: number; status: number; withMessage: boolean }
  | { op: 'reply'; pick: number; user: number }
  | { op: 'tag'; pick: number; tag: number; add: boolean }
  | { op: 'delete'; pick: number }
  | { op: 'offline' }
  | { op: 'online' }
  | { op: 'lossy' };

const pick = fc.nat(1000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant('create' as const), parent: fc.option(pick, { nil: null }) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('comment' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('rename' as const), pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('priority' as const),
      pick,
      priority: fc.integer({ min: 1, max: 10 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('status' as const),
      pick,
      status: fc.nat(2),
      withMessage: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reply' as const), pick, user: fc.nat(1) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('tag' as const), pick, tag: fc.nat(1), add: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), pick }) },
  { weight: 2, arbitrary: fc.constant({ op: 'offline' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'online' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'lossy' as const }) },
);

/** A task as compared: by title, with its parent by title. */
interface Shape {
  parent: string | null;
  priority: number;
  status: string;
  actionRequired: string | null;
  tags: string[];
  messages: string[];
}

async function stateOf(api: ServiceClient, prefix: string): Promise<Record<string, Shape>> {
  const tasks = (
    await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } })
  ).filter((t) => t.name.startsWith(prefix));
  const names = new Map(tasks.map((t) => [t.id, t.name]));
  const out: Record<string, Shape> = {};
  for (const t of tasks) {
    const detail = await api.call(taskEndpoints.task, { id: t.id });
    out[t.name] = {
      parent: t.parentTaskId ? (names.get(t.parentTaskId) ?? '?') : null,
      priority: t.priority,
      status: t.status.id,
      actionRequired: t.actionRequiredUserId,
      tags: [...(detail.tags ?? [])].sort(),
      messages: (await api.call(messageEndpoints.taskMessages, { id: t.id })).map((m) => m.message),
    };
  }
  return out;
}

let run = 0;

describe('outbox property', () => {
  it('the drained service equals the sequence applied once to a fresh service', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 30 }), async (ops) => {
        const prefix = `P${run++}-`;
        // title -> id on each side; titles of live tasks in creation order; children by parent
        const mine = new Map<string, string>();
        const theirs = new Map<string, string>();
        const live: string[] = [];
        const parentOf = new Map<string, string | null>();
        let n = 0;
        proxy.set(LOSSY);
        const at = (i: number): string => live[i % live.length]!;
        for (const [step, o] of ops.entries()) {
          if (o.op === 'offline') {
            proxy.set({ dropBefore: { rate: 1 }, dropAfter: undefined });
            continue;
          }
          if (o.op === 'online' || o.op === 'lossy') {
            proxy.reset();
            if (o.op === 'lossy') proxy.set(LOSSY);
            engine.outbox.reconnected();
            continue;
          }
          if (o.op === 'create') {
            const title = `${prefix}${n++}`;
            // Subtasks one level deep, as the spec's create-subtask does.
            const parentTitle = o.parent !== null && live.length ? at(o.parent) : null;
            const parent = parentTitle && parentOf.get(parentTitle) === null ? parentTitle : null;
            const created = await engine.call('tasks.create', {
              projectId: SEED_IDS.workspace,
              title,
              ...(parent ? { parentTaskId: mine.get(parent)! } : {}),
            });
            mine.set(title, created.id);
            const ref = await referenceApi.call(taskEndpoints.createTask, {
              body: {
                projectId: SEED_IDS.workspace,
                title,
                fromUserId: reference.users.actingUserId,
                ...(parent ? { parentTaskId: theirs.get(parent)! } : {}),
              },
            });
            theirs.set(title, ref.id);
            live.push(title);
            parentOf.set(title, parent);
            continue;
          }
          if (!live.length) continue;
          const title = at(o.pick);
          const [m, t] = [mine.get(title)!, theirs.get(title)!];
          const me = reference.users.actingUserId;
          switch (o.op) {
            case 'comment': {
              const text = `${prefix}c${step}`;
              await engine.call('tasks.comment', { taskId: m, message: text });
              await referenceApi.call(messageEndpoints.comment, {
                id: t,
                body: { userId: me, message: text },
              });
              break;
            }
            case 'rename': {
              // Renames keep the prefix and stay unique, so titles still identify tasks.
              const renamed = `${title}r`;
              await engine.call('tasks.update', { taskId: m, changes: { title: renamed } });
              await referenceApi.call(taskEndpoints.updateTask, {
                id: t,
                body: { userId: me, title: renamed },
              });
              for (const map of [mine, theirs]) map.set(renamed, map.get(title)!);
              live[live.indexOf(title)] = renamed;
              parentOf.set(renamed, parentOf.get(title) ?? null);
              for (const [child, p] of parentOf) if (p === title) parentOf.set(child, renamed);
              break;
            }
            case 'priority':
              await engine.call('tasks.update', { taskId: m, changes: { priority: o.priority } });
              await referenceApi.call(taskEndpoints.updateTask, {
                id: t,
                body: { userId: me, priority: o.priority },
              });
              break;
            case 'status': {
              const message = o.withMessage ? `${prefix}s${step}` : undefined;
              const statusId = STATUSES[o.status]!;
              await engine.call('tasks.setStatus', { taskId: m, statusId, ...(message ? { message } : {}) });
              await referenceApi.call(taskEndpoints.updateTaskStatus, {
                id: t,
                body: {
                  userId: me,
                  statusId,
                  ...(message ? { message } : {}),
                },
              });
              break;
            }
            case 'reply': {
              const user = USERS[o.user]!;
              const text = `${prefix}r${step}`;
              await engine.call('tasks.reply', { taskId: m, actionRequiredUserId: user, message: text });
              await referenceApi.call(messageEndpoints.reply, {
                id: t,
                body: { userId: me, actionRequiredUsedId: user, message: text },
              });
              break;
            }
            case 'tag': {
              const tagId = TAGS[o.tag]!;
              if (o.add) {
                await engine.call('tasks.addTag', { taskId: m, tagId });
                await referenceApi.call(taskEndpoints.addTag, { id: t, tagId, body: { userId: me } });
              } else {
                await engine.call('tasks.removeTag', { taskId: m, tagId });
                await referenceApi.call(taskEndpoints.removeTag, { id: t, tagId, body: { userId: me } });
              }
              break;
            }
            case 'delete': {
              await engine.call('tasks.delete', { taskId: m });
              await referenceApi.call(taskEndpoints.deleteTask, { id: t });
              const gone = new Set([title, ...[...parentOf].filter(([, p]) => p === title).map(([c]) => c)]);
              for (let i = live.length - 1; i >= 0; i--) if (gone.has(live[i]!)) live.splice(i, 1);
              break;
            }
          }
        }
        proxy.reset();
        engine.outbox.reconnected();
        await engine.drained(30_000);
        expect(engine.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
        expect(await stateOf(targetApi, prefix)).toEqual(await stateOf(referenceApi, prefix));
      }),
      { numRuns: 30, seed: 20261121, endOnFailure: true },
    );
  });
});
