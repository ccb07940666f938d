// Crash tests: a burst of writes is queued, then the engine replays it in a child process that
// is killed with SIGKILL at random moments (10 per seed, 5 seeds) and restarted on the same
// files. Afterwards the service holds every change exactly once: nothing lost, nothing twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import { prng } from '../../../src/server/seed/generate';
import { startEngineProcess } from '../../support/engine-process';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { testEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  // A little latency so replay lasts long enough for kills to land inside it.
  proxy = await startFaultProxy({ target: svc.baseUrl, faults: { delayMs: 8 } });
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

interface Expected {
  /** task title -> the comments it must hold, in order, and its final priority */
  tasks: Map<string, { messages: string[]; priority: number; parent: string | null }>;
}

/** Queues a random burst of writes (engine's outbox stopped) and answers what it should make. */
async function queueBurst(dataDir: string, seed: number): Promise<Expected> {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const e = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
  await e.sync.now();
  await e.outbox.stop();
  const expected: Expected = { tasks: new Map() };
  const ids = new Map<string, string>();
  let n = 0;
  for (let step = 0; step < 16; step++) {
    const titles = [...expected.tasks.keys()];
    const roll = random();
    if (titles.length < 2 || roll < 0.3) {
      const title = `S${seed}-T${n++}`;
      const parentTitle = titles.length && random() < 0.4 ? pick(titles) : null;
      const parentEntry = parentTitle ? expected.tasks.get(parentTitle) : undefined;
      const parent = parentEntry && parentEntry.parent === null ? parentTitle : null;
      const { id } = await e.call('tasks.create', {
        projectId: SEED_IDS.workspace,
        title,
        ...(parent ? { parentTaskId: ids.get(parent)! } : {}),
      });
      ids.set(title, id);
      expected.tasks.set(title, { messages: [], priority: 1, parent });
    } else if (roll < 0.6) {
      const title = pick(titles);
      const text = `S${seed}-C${step}`;
      await e.call('tasks.comment', { taskId: ids.get(title)!, message: text });
      expected.tasks.get(title)!.messages.push(text);
    } else if (roll < 0.8) {
      const title = pick(titles);
      const priority = 1 + Math.floor(random() * 10);
      await e.call('tasks.update', { taskId: ids.get(title)!, changes: { priority } });
      expected.tasks.get(title)!.priority = priority;
    } else {
      const title = pick(titles);
      const text = `S${seed}-R${step}`;
      await e.call('tasks.reply', {
        taskId: ids.get(title)!,
        actionRequiredUserId: svc.users.cleo,
        message: text,
      });
      expected.tasks.get(title)!.messages.push(text);
    }
  }
  await e.close();
  return expected;
}

async function expectServiceHolds(seed: number, expected: Expected): Promise<void> {
  const all = (
    await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } })
  ).filter((t) => t.name.startsWith(`S${seed}-`));
  expect(all.map((t) => t.name).sort()).toEqual([...expected.tasks.keys()].sort());
  const byName = new Map(all.map((t) => [t.name, t]));
  for (const [title, want] of expected.tasks) {
    const task = byName.get(title)!;
    expect({ title, priority: task.priority }).toEqual({ title, priority: want.priority });
    expect(task.parentTaskId ? all.find((t) => t.id === task.parentTaskId)?.name : null).toBe(want.parent);
    const messages = (await api.call(messageEndpoints.taskMessages, { id: task.id })).map((m) => m.message);
    expect({ title, messages }).toEqual({ title, messages: want.messages });
  }
}

/** Eleven child starts per seed, each loading the engine anew: slow on a busy two-core machine. */
const CHILD_STARTS_BUDGET_MS = 300_000;

describe('crash during replay', () => {
  it.each([1, 2, 3, 4, 5])(
    'seed %i: SIGKILL at 10 random points, restarted on the same files',
    async (seed) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'outbox-crash-'));
      try {
        const expected = await queueBurst(dataDir, seed);
        const random = prng(seed * 7919);
        const args = { dataDir, baseUrl: proxy.baseUrl, token: svc.token, userId: svc.users.actingUserId };
        let kills = 0;
        let drained = false;
        while (!drained && kills < 10) {
          const child = await startEngineProcess(args);
          await child.ready;
          await new Promise((r) => setTimeout(r, Math.floor(random() * 120)));
          child.kill();
          const exit = await child.exited;
          drained = exit.drained;
          if (!drained) kills++;
        }
        if (!drained) {
          const last = await startEngineProcess(args);
          expect(await last.exited).toEqual({ code: 0, drained: true });
        }
        expect(kills).toBeGreaterThan(0);
        await expectServiceHolds(seed, expected);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    CHILD_STARTS_BUDGET_MS,
  );
});
