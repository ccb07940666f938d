// Damaged files with real files and real processes. Changes are queued, an engine in a child
// process starts replaying them and is killed with SIGKILL in the middle of its writes, then the
// account's cache file is truncated, overwritten with garbage or deleted (with its write-ahead
// log left behind), and the engine started again on the same folder: every change reaches the
// service exactly once, because the unsent changes live in the outbox's own file. A disk that
// fills up (`max_page_count` on the outbox file) refuses the next change with a clear error and
// loses nothing.
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../src/main/core/api/client';
import { createDispatch } from '../../src/main/core/dispatch';
import { SEED_IDS } from '../../src/server/seed/index';
import { prng } from '../../src/server/seed/generate';
import { startEngineProcess } from '../support/engine-process';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { SERVICE_PROFILES, startService, type RunningService } from '../support/service';
import { testEngine } from '../integration/outbox/support';
import { taskEndpoints } from '../../src/shared/api/tasks';
import { messageEndpoints } from '../../src/shared/api/messages';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;

/** task title -> the comments it must hold, in order, and its final priority */
type Expected = Map<string, { messages: string[]; priority: number }>;

/** Queues creates, comments and updates with the outbox stopped; answers what the service must hold. */
async function queueChanges(dataDir: string, prefix: string, seed: number): Promise<Expected> {
  const random = prng(seed);
  const e = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
  await e.sync.now();
  await e.outbox.stop();
  const expected: Expected = new Map();
  const ids = new Map<string, string>();
  for (let step = 0; step < 14; step++) {
    const titles = [...expected.keys()];
    const roll = random();
    if (titles.length < 3 || roll < 0.35) {
      const title = `${prefix}-T${step}`;
      ids.set(title, (await e.call('tasks.create', { projectId: SEED_IDS.workspace, title })).id);
      expected.set(title, { messages: [], priority: 1 });
    } else {
      const title = titles[Math.floor(random() * titles.length)]!;
      if (roll < 0.7) {
        const text = `${prefix}-C${step}`;
        await e.call('tasks.comment', { taskId: ids.get(title)!, message: text });
        expected.get(title)!.messages.push(text);
      } else {
        const priority = 2 + Math.floor(random() * 8);
        await e.call('tasks.update', { taskId: ids.get(title)!, changes: { priority } });
        expected.get(title)!.priority = priority;
      }
    }
  }
  await e.close();
  return expected;
}

async function expectServiceHolds(prefix: string, expected: Expected): Promise<void> {
  const all = (
    await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } })
  ).filter((t) => t.name.startsWith(`${prefix}-`));
  // Each task once: a doubled create would show its title twice.
  expect(all.map((t) => t.name).sort()).toEqual([...expected.keys()].sort());
  for (const task of all) {
    const want = expected.get(task.name)!;
    expect({ title: task.name, priority: task.priority }).toEqual({
      title: task.name,
      priority: want.priority,
    });
    const messages = (await api.call(messageEndpoints.taskMessages, { id: task.id })).map((m) => m.message);
    expect({ title: task.name, messages }).toEqual({ title: task.name, messages: want.messages });
  }
}

const cacheFileIn = (dir: string): string => {
  const name = readdirSync(dir).find((f) => /^cache-[0-9a-f]+\.sqlite$/.test(f));
  if (!name) throw new Error(`no cache file in ${dir}`);
  return join(dir, name);
};

const damages = {
  truncated: (file: string) => truncateSync(file, 4096),
  'overwritten with garbage': (file: string) => {
    const fd = openSync(file, 'r+');
    const garbage = Buffer.alloc(64 * 1024);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) & 0xff;
    writeSync(fd, garbage, 0, garbage.length, 0);
    closeSync(fd);
  },
  // Deleted as a person would, the write-ahead log of the killed process left behind.
  deleted: (file: string) => rmSync(file),
} as const;

describe.each(SERVICE_PROFILES)('on the %s profile', (profile) => {
  beforeAll(async () => {
    svc = await startService({ seed: 'empty', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    // Latency, so the kill lands while the child is sending and writing.
    proxy = await startFaultProxy({ target: svc.baseUrl, faults: { delayMs: 10 } });
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.close();
  });

  describe('the cache file damaged after a SIGKILL mid-write', () => {
    it.each(Object.keys(damages) as (keyof typeof damages)[])(
      '%s: every pending change reaches the service exactly once after restart',
      async (damage) => {
        const prefix = `D-${damage.replace(/ /g, '-')}`;
        const dataDir = mkdtempSync(join(tmpdir(), 'damaged-cache-'));
        try {
          const expected = await queueChanges(dataDir, prefix, prefix.length * 31);
          const args = { dataDir, baseUrl: proxy.baseUrl, token: svc.token, userId: svc.users.actingUserId };
          const random = prng(prefix.length);
          // Two rounds: killed while sending, the cache damaged, started again.
          let drained = false;
          for (let round = 0; round < 2 && !drained; round++) {
            const child = await startEngineProcess(args);
            await child.ready;
            await new Promise((r) => setTimeout(r, 20 + Math.floor(random() * 100)));
            child.kill();
            drained = (await child.exited).drained;
            damages[damage](cacheFileIn(dataDir));
          }
          const last = await startEngineProcess(args);
          expect(await last.exited).toEqual({ code: 0, drained: true });
          await expectServiceHolds(prefix, expected);
          if (damage !== 'deleted') {
            expect(readdirSync(dataDir).some((f) => /^cache-[0-9a-f]+\.sqlite\.corrupt-/.test(f))).toBe(true);
          }
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
      240_000,
    );
  });

  describe('a full disk', () => {
    it('refuses the next change with a clear error, keeps every change before it, and sends them once', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'disk-full-'));
      try {
        const e = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
        await e.sync.now();
        await e.outbox.stop();
        const dispatch = createDispatch(e.handlers);
        const pages = e.db.pragma('main.page_count', { simple: true }) as number;
        // The outbox file may grow by a few pages only: a long comment does not fit.
        e.db.pragma(`main.max_page_count = ${pages + 4}`);
        const saved: string[] = [];
        let refusal: unknown;
        for (let i = 0; i < 200 && refusal === undefined; i++) {
          const title = `FULL-T${i}`;
          const result = await dispatch('tasks.create', {
            projectId: SEED_IDS.workspace,
            title,
            message: 'x'.repeat(3000),
          });
          if (result.ok) saved.push(title);
          else refusal = result.error;
        }
        expect(refusal).toEqual({
          type: 'rejected',
          message: expect.stringMatching(/^The disk is full: this change was not saved/),
        });
        expect(saved.length).toBeGreaterThan(0);
        // The refused change left nothing: not in the outbox, not in the cache.
        const status = e.outbox.status();
        expect(status.pending).toBe(saved.length);
        const cached = e.db.prepare(`SELECT count(*) FROM tasks WHERE name LIKE 'FULL-%'`).pluck().get();
        expect(cached).toBe(saved.length);
        await e.close();

        // Space again (a new connection has no limit): everything saved goes out, once.
        const again = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
        await again.drained(60_000);
        await again.close();
        const onService = (
          await api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace, query: { closed: true } })
        )
          .map((t) => t.name)
          .filter((n) => n.startsWith('FULL-'))
          .sort();
        expect(onService).toEqual([...saved].sort());
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
