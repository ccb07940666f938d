// A new account's first sync, on both profiles: the acting user's own lists
// (`/user/{me}/action-required-tasks`, `/assigned-tasks`) fill My Work before any project's task
// list is stored, a change typed meanwhile survives the project lists, nothing is removed for
// missing from a per-user list, messages come most recently active first, and a task opened
// before its messages came fetches them at once. The project lists and messages are held back by
// the engine's fetch until the test lets them through, so "before" is certain, not a race.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import type { SyncStatus } from '../../../src/shared/ipc/sync';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from '../outbox/support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { messageEndpoints } from '../../../src/shared/api/messages';

/** A fetch that holds the requests `match` picks (as `METHOD /path`) until `release`. */
function holding(match: RegExp, pass: (key: string) => boolean = () => false) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  const asked: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const key = `${init.method ?? 'GET'} ${new URL(input).pathname}`;
    asked.push(key);
    if (match.test(key) && !pass(key)) {
      held.push(key);
      const signal = init.signal;
      // Given up when the engine closes (its requests are aborted), so a failed test still ends.
      await new Promise<void>((resolve, reject) => {
        void released.then(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    return globalThis.fetch(input, init);
  };
  return { fetch, release, held, asked };
}

async function until<T>(what: string, read: () => T | Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const PROJECT_LIST = /^GET \/.*\/project\/[^/]+\/tasks$/;
const USER_LISTS = /\/user\/[^/]+\/(action-required|assigned)-tasks$/;
const MESSAGES = /^GET \/.*\/task\/[^/]+\/messages$/;

describe.each(SERVICE_PROFILES)('a first sync on the %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  const open: TestEngine[] = [];
  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  });
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
  });
  afterAll(async () => {
    await svc?.close();
  });
  const engine = async (fetch: FetchLike): Promise<TestEngine> => {
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch });
    open.push(e);
    return e;
  };
  const me = () => svc.users.actingUserId;

  it('fills My Work from my own lists before any project list is stored; a change typed then survives', async () => {
    // Project lists and every write are held; the rest goes through.
    const lists = holding(PROJECT_LIST);
    const writes = holding(/^(POST|PUT|DELETE) /);
    const e = await engine((input, init) =>
      (init.method ?? 'GET') === 'GET' ? lists.fetch(input, init) : writes.fetch(input, init),
    );
    const statuses: SyncStatus[] = [];
    e.sync.onStatus((s) => statuses.push(s));
    const run = e.sync.now();

    const actionRequired = (await api.call(taskEndpoints.actionRequiredTasks, { id: me() }))
      .map((t) => t.id)
      .sort();
    const assigned = (await api.call(taskEndpoints.assignedTasks, { id: me() })).map((t) => t.id).sort();
    expect(actionRequired.length).toBeGreaterThan(0);
    expect(assigned.length).toBeGreaterThan(0);
    const mine = async (kind: 'actionRequired' | 'assigned') =>
      (await e.call('tasks.myWork', { kind, limit: 1000 })).rows.map((t) => t.id).sort();
    // Once the status says My Work is usable, its rows are all there (they are stored as the
    // lists' answers arrive; the status turns when both answers have ended).
    await until(
      'My Work ready',
      () => e.sync.status().initialSync?.myWorkReady,
      (ready) => ready === true,
    );
    expect(await mine('actionRequired')).toEqual(actionRequired);
    expect(await mine('assigned')).toEqual(assigned);
    // Every project list is asked for (once my lists are stored) and none has come back: all My
    // Work has is from my lists.
    await until(
      'a project list asked',
      () => lists.held.length,
      (n) => n > 0,
    );
    const cached = e.db.prepare('SELECT id FROM tasks').pluck().all() as string[];
    expect(cached.sort()).toEqual([...new Set([...actionRequired, ...assigned])].sort());
    // The status says what is usable already: the tree, My Work, no project's tasks yet.
    const progress = e.sync.status().initialSync;
    expect(progress).toMatchObject({ treeReady: true, myWorkReady: true, projectsDone: 0 });
    expect(progress?.projectsTotal).toBe(e.cache.projects.ids().length);
    expect(e.sync.status().running).toBe(true);

    // A title typed now, before the project lists come: the lists must not overwrite it (rule 7).
    const taskId = actionRequired[0] ?? '';
    await e.call('tasks.update', { taskId, changes: { title: 'Typed during the first sync' } });
    lists.release();
    const status = await run;
    expect(status.lastError).toBeNull();
    expect(e.cache.tasks.get(taskId)?.name).toBe('Typed during the first sync');
    // The progress went through every project, then is gone once the run ended.
    expect(
      statuses.some((s) => s.initialSync && s.initialSync.projectsDone === s.initialSync.projectsTotal),
    ).toBe(true);
    expect(status.initialSync).toBeUndefined();
    // The per-user lists were asked for once, before the first project list.
    const firstList = lists.asked.findIndex((k) => PROJECT_LIST.test(k));
    const userLists = lists.asked.flatMap((k, i) =>
      /\/user\/[^/]+\/(action-required|assigned)-tasks$/.test(k) ? [i] : [],
    );
    expect(userLists).toHaveLength(2);
    expect(Math.max(...userLists)).toBeLessThan(firstList);

    writes.release();
    await e.drained();
    expect((await api.call(taskEndpoints.task, { id: taskId })).name).toBe('Typed during the first sync');
  });

  it('asks for my lists in the first round trip, before the tree is in, and stores their tasks once it is', async () => {
    // The tree's lists are held; my lists' answers are noted as they come and as they are read.
    const tree = holding(/^GET \/.*\/projects$/);
    const answered = new Set<string>();
    const ended = new Set<string>();
    const e = await engine(async (input, init) => {
      const res = await tree.fetch(input, init);
      const key = `${init.method ?? 'GET'} ${new URL(input).pathname}`;
      if (!USER_LISTS.test(key) || !res.body) return res;
      answered.add(key);
      const body = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({ flush: () => void ended.add(key) }),
      );
      return new Response(body, { status: res.status, headers: res.headers });
    });
    const run = e.sync.now();
    await until(
      'the tree asked for',
      () => tree.held.length,
      (n) => n >= 2,
    );
    // My lists and the tree's are in the first six requests asked (the gate's first round),
    // ahead of most organization lists.
    const first = tree.asked.slice(0, 6);
    expect(first.filter((k) => USER_LISTS.test(k))).toHaveLength(2);
    expect(first.filter((k) => /^GET \/.*\/projects$/.test(k))).toHaveLength(2);
    // Both of my lists answered and the first read to its end (the second waits for the first to
    // be stored) while the tree is still held: none of their tasks is stored before the tree (a
    // task outside it is never stored from them).
    await until(
      'my lists answered, one read to its end',
      () => [answered.size, ended.size],
      ([asked, read]) => asked === 2 && read! >= 1,
    );
    expect(e.db.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(0);
    expect(e.sync.status().initialSync?.myWorkReady).toBe(false);
    tree.release();
    const status = await run;
    expect(status.lastError).toBeNull();
    const ids = async (kind: 'actionRequired' | 'assigned') =>
      (await e.call('tasks.myWork', { kind, limit: 1000 })).rows.map((t) => t.id).sort();
    expect(await ids('actionRequired')).toEqual(
      (await api.call(taskEndpoints.actionRequiredTasks, { id: me() })).map((t) => t.id).sort(),
    );
    expect(await ids('assigned')).toEqual(
      (await api.call(taskEndpoints.assignedTasks, { id: me() })).map((t) => t.id).sort(),
    );
  });

  it('reads and stores a task in both of my lists once, and a later pull shows My Work the same', async () => {
    const lists = holding(PROJECT_LIST);
    const e = await engine(lists.fetch);
    // Every write of a task's row, by task, while only my lists are read (the project lists held).
    const writes = new Map<string, number>();
    const { codec } = e.cache.tasks;
    const upsert = codec.upsert.bind(codec);
    codec.upsert = (task) => {
      writes.set(task.id, (writes.get(task.id) ?? 0) + 1);
      upsert(task);
    };
    const run = e.sync.now();
    const actionRequired = await api.call(taskEndpoints.actionRequiredTasks, { id: me() });
    const assigned = await api.call(taskEndpoints.assignedTasks, { id: me() });
    const inBoth = actionRequired.filter((t) => assigned.some((a) => a.id === t.id)).map((t) => t.id);
    expect(inBoth.length).toBeGreaterThan(0);
    await until(
      'My Work ready',
      () => e.sync.status().initialSync?.myWorkReady,
      (ready) => ready === true,
    );
    // Each task of my lists written once, those in both too (the second list took them as held).
    const mine = new Set([...actionRequired, ...assigned].map((t) => t.id));
    expect([...writes.keys()].sort()).toEqual([...mine].sort());
    expect(inBoth.map((id) => writes.get(id))).toEqual(inBoth.map(() => 1));
    codec.upsert = upsert;
    const rows = async () =>
      Promise.all(
        (['actionRequired', 'assigned'] as const).map(async (kind) =>
          (await e.call('tasks.myWork', { kind, limit: 1000 })).rows.map((t) => [t.id, t.name, t.statusId]),
        ),
      );
    const byMyLists = await rows();
    expect(byMyLists[0]?.map(([id]) => id).sort()).toEqual(actionRequired.map((t) => t.id).sort());
    expect(byMyLists[1]?.map(([id]) => id).sort()).toEqual(assigned.map((t) => t.id).sort());
    lists.release();
    expect((await run).lastError).toBeNull();
    // The project lists, then a later pull, show My Work as my lists did.
    expect(await rows()).toEqual(byMyLists);
    expect((await e.sync.now()).lastError).toBeNull();
    expect(await rows()).toEqual(byMyLists);
  });

  it("shows one of my lists' tasks as soon as they are stored, while the other has not answered", async () => {
    // My other list and the project lists (which hold every task) are held unanswered.
    const assigned = holding(/\/user\/[^/]+\/assigned-tasks$|^GET \/.*\/project\/[^/]+\/tasks$/);
    const e = await engine(assigned.fetch);
    // What a view showing Action required reads on each change of the tasks.
    const seen: string[][] = [];
    e.events.onAny((name, payload) => {
      if (name !== 'cache.onDidChange' || !(payload as { entities: string[] }).entities.includes('tasks'))
        return;
      void e
        .call('tasks.myWork', { kind: 'actionRequired', limit: 1000 })
        .then((page) => seen.push(page.rows.map((t) => t.id).sort()));
    });
    const run = e.sync.now();
    const actionRequired = (await api.call(taskEndpoints.actionRequiredTasks, { id: me() }))
      .map((t) => t.id)
      .sort();
    expect(actionRequired.length).toBeGreaterThan(0);
    // The view has every row of Action required though my other list is held unanswered.
    await until(
      'Action required shown whole',
      () => seen.at(-1),
      (rows) => JSON.stringify(rows) === JSON.stringify(actionRequired),
    );
    expect(assigned.held.some((k) => /assigned-tasks$/.test(k))).toBe(true);
    expect(e.sync.status().initialSync?.myWorkReady).toBe(false);
    assigned.release();
    const status = await run;
    expect(status.lastError).toBeNull();
    expect(
      (await e.call('tasks.myWork', { kind: 'assigned', limit: 1000 })).rows.map((t) => t.id).sort(),
    ).toEqual((await api.call(taskEndpoints.assignedTasks, { id: me() })).map((t) => t.id).sort());
  });

  it('ends with a gate of two requests at once, my lists read while the tree is asked for', async () => {
    const e = await testEngine(svc.baseUrl, svc.token, me(), {
      sync: { concurrency: 2, retry: { attempts: 10, baseDelayMs: 5, maxDelayMs: 50 }, probeIntervalMs: 50 },
    });
    open.push(e);
    expect((await e.sync.now()).lastError).toBeNull();
    const ids = async (kind: 'actionRequired' | 'assigned') =>
      (await e.call('tasks.myWork', { kind, limit: 1000 })).rows.map((t) => t.id).sort();
    expect(await ids('actionRequired')).toEqual(
      (await api.call(taskEndpoints.actionRequiredTasks, { id: me() })).map((t) => t.id).sort(),
    );
    expect(await ids('assigned')).toEqual(
      (await api.call(taskEndpoints.assignedTasks, { id: me() })).map((t) => t.id).sort(),
    );
  });

  it('at a gate of one request, the second of my lists does not wait at the gate for the first, which waits for the tree', async () => {
    const logged: string[] = [];
    const e = await testEngine(svc.baseUrl, svc.token, me(), {
      sync: { concurrency: 1, retry: { attempts: 10, baseDelayMs: 5, maxDelayMs: 50 }, probeIntervalMs: 50 },
      log: (m) => logged.push(m),
    });
    open.push(e);
    // Each write of a task's row, by task, until My Work is ready.
    const writes = new Map<string, number>();
    const { codec } = e.cache.tasks;
    const upsert = codec.upsert.bind(codec);
    codec.upsert = (task) => {
      if (!e.sync.status().initialSync?.myWorkReady) writes.set(task.id, (writes.get(task.id) ?? 0) + 1);
      upsert(task);
    };
    expect((await e.sync.now()).lastError).toBeNull();
    // Read without waiting for the other list: nothing to give up on.
    expect(logged.filter((line) => line.includes('without waiting longer for my other list'))).toEqual([]);
    const actionRequired = await api.call(taskEndpoints.actionRequiredTasks, { id: me() });
    const assigned = await api.call(taskEndpoints.assignedTasks, { id: me() });
    const ids = async (kind: 'actionRequired' | 'assigned') =>
      (await e.call('tasks.myWork', { kind, limit: 1000 })).rows.map((t) => t.id).sort();
    expect(await ids('actionRequired')).toEqual(actionRequired.map((t) => t.id).sort());
    expect(await ids('assigned')).toEqual(assigned.map((t) => t.id).sort());
    // Both lists read before the tree: a task in both (the same text) is still written once.
    const mine = new Set([...actionRequired, ...assigned].map((t) => t.id));
    expect([...writes.keys()].sort()).toEqual([...mine].sort());
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
  });

  it('reads the second of my lists without the first once it waited SECOND_LIST_WAIT_MS, the tree stored', async () => {
    // My lists are held until the tree is stored; then the first answers half its body and stalls.
    let releaseMine!: () => void;
    const mineReleased = new Promise<void>((resolve) => (releaseMine = resolve));
    let unstall!: () => void;
    const stalled = new Promise<void>((resolve) => (unstall = resolve));
    let releaseSecond!: () => void;
    const secondReleased = new Promise<void>((resolve) => (releaseSecond = resolve));
    let firstBegun = false;
    const logged: string[] = [];
    const e = await testEngine(svc.baseUrl, svc.token, me(), {
      timeoutMs: 60_000,
      log: (m) => logged.push(m),
      fetch: async (input, init) => {
        const path = new URL(input).pathname;
        if (!USER_LISTS.test(`GET ${path}`)) return globalThis.fetch(input, init);
        await mineReleased;
        if (path.endsWith('/assigned-tasks')) {
          await secondReleased;
          return globalThis.fetch(input, init);
        }
        const res = await globalThis.fetch(input, init);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const half = Math.floor(bytes.length / 2);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes.subarray(0, half));
          },
          async pull(controller) {
            firstBegun = true;
            await stalled;
            controller.enqueue(bytes.subarray(half));
            controller.close();
          },
        });
        return new Response(body, { status: res.status, headers: res.headers });
      },
    });
    open.push(e);
    const run = e.sync.now();
    // The task lists' part has begun (the tree is stored): it counts the projects.
    await until(
      'the tree stored',
      () => e.sync.status().initialSync?.projectsTotal ?? 0,
      (n) => n > 0,
    );
    releaseMine();
    await until(
      'the first of my lists begun',
      () => firstBegun,
      (begun) => begun,
    );
    releaseSecond();
    const gaveUp = (line: string) => line.includes('without waiting longer for my other list');
    await until(
      'the second given up waiting',
      () => logged.filter(gaveUp),
      (lines) => lines.length > 0,
    );
    expect(logged.filter(gaveUp)[0]).toMatch(/assigned-tasks: read without waiting longer/);
    unstall();
    expect((await run).lastError).toBeNull();
    const ids = async (kind: 'actionRequired' | 'assigned') =>
      (await e.call('tasks.myWork', { kind, limit: 1000 })).rows.map((t) => t.id).sort();
    expect(await ids('actionRequired')).toEqual(
      (await api.call(taskEndpoints.actionRequiredTasks, { id: me() })).map((t) => t.id).sort(),
    );
    expect(await ids('assigned')).toEqual(
      (await api.call(taskEndpoints.assignedTasks, { id: me() })).map((t) => t.id).sort(),
    );
  });

  it('says My Work is not ready when the tree could not be read, and logs the tasks left unstored', async () => {
    const logged: string[] = [];
    const e = await testEngine(svc.baseUrl, svc.token, me(), {
      fetch: (input, init) =>
        /\/projects$/.test(new URL(input).pathname)
          ? Promise.resolve(new Response('{"error":"down"}', { status: 500 }))
          : globalThis.fetch(input, init),
      log: (m) => logged.push(m),
    });
    open.push(e);
    const statuses: SyncStatus[] = [];
    e.sync.onStatus((s) => statuses.push(s));
    const status = await e.sync.now();
    // The run failed and the next pull is a first pull again.
    expect(status.lastError).not.toBeNull();
    expect(e.cache.syncState.get('pull')).toBeFalsy();
    expect(statuses.some((s) => s.initialSync?.myWorkReady)).toBe(false);
    expect(e.db.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(0);
    const mine = new Set(
      [
        ...(await api.call(taskEndpoints.actionRequiredTasks, { id: me() })),
        ...(await api.call(taskEndpoints.assignedTasks, { id: me() })),
      ].map((t) => t.id),
    );
    const line = logged.find((l) => l.includes('not stored, the project list could not be read'));
    expect(line).toBeDefined();
    const count = Number(/(\d+) tasks not stored/.exec(line ?? '')?.[1]);
    // Each list's tasks counted (a task in both, read before any tree, counted in each).
    expect(count).toBeGreaterThanOrEqual(mine.size);
  });

  it('stores no more of my lists once cancelled while they are stored after the tree', async () => {
    const lists = holding(PROJECT_LIST);
    const e = await engine(lists.fetch);
    const { codec } = e.cache.tasks;
    const upsert = codec.upsert.bind(codec);
    let afterCancel = 0;
    let cancelled = false;
    codec.upsert = (task) => {
      if (cancelled) afterCancel += 1;
      else {
        // The first task of my lists written: the tree is stored, the run is cancelled now.
        cancelled = true;
        e.sync.cancel();
      }
      upsert(task);
    };
    const mine = new Set(
      [
        ...(await api.call(taskEndpoints.actionRequiredTasks, { id: me() })),
        ...(await api.call(taskEndpoints.assignedTasks, { id: me() })),
      ].map((t) => t.id),
    );
    // More than a chunk of tasks to store (STORE_CHUNK, 16): the rest must not be written.
    expect(mine.size).toBeGreaterThan(32);
    const status = await e.sync.now();
    expect(status.lastError).toContain('cancelled');
    expect(cancelled).toBe(true);
    // At most the rest of the chunk being written when cancelled.
    expect(afterCancel).toBeLessThan(16);
    expect(lists.asked.filter((k) => PROJECT_LIST.test(k))).toEqual([]);
  });

  it('asks for no project list until my lists are stored', async () => {
    // What the cache holds when the first project list is asked for, read in the request itself.
    let atFirstList: { myWorkReady: boolean | undefined; cached: string[] } | undefined;
    const ref: { e?: TestEngine } = {};
    const watch: FetchLike = (input, init) => {
      const key = `${init.method ?? 'GET'} ${new URL(input).pathname}`;
      const e = ref.e;
      if (PROJECT_LIST.test(key) && !atFirstList && e)
        atFirstList = {
          myWorkReady: e.sync.status().initialSync?.myWorkReady,
          cached: e.db.prepare('SELECT id FROM tasks').pluck().all() as string[],
        };
      return globalThis.fetch(input, init);
    };
    const e = (ref.e = await engine(watch));
    expect((await e.sync.now()).lastError).toBeNull();
    const mine = [
      ...(await api.call(taskEndpoints.actionRequiredTasks, { id: me() })),
      ...(await api.call(taskEndpoints.assignedTasks, { id: me() })),
    ].map((t) => t.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(atFirstList?.myWorkReady).toBe(true);
    expect(new Set(atFirstList?.cached)).toEqual(new Set(mine));
  });

  it('asks for the project lists anyway when my lists take long, and the run ends once they come', async () => {
    const mineHeld = holding(USER_LISTS);
    const e = await engine(mineHeld.fetch);
    const run = e.sync.now();
    // Well past the head start my lists are given: the project lists are asked for meanwhile.
    await until(
      'a project list asked while my lists are held',
      () => mineHeld.asked.filter((k) => PROJECT_LIST.test(k)).length,
      (n) => n > 0,
    );
    // Neither of my lists has answered yet (each may have been asked again after a time-out).
    expect(new Set(mineHeld.held).size).toBe(2);
    mineHeld.release();
    const status = await run;
    expect(status.lastError).toBeNull();
    const assigned = await api.call(taskEndpoints.assignedTasks, { id: me() });
    expect(assigned.every((t) => e.cache.tasks.get(t.id))).toBe(true);
  });

  it('tells a cache that could not store my lists apart from a list not read: logged as such, and the run ends with it', async () => {
    const lists = holding(PROJECT_LIST);
    const logged: string[] = [];
    const e = await testEngine(svc.baseUrl, svc.token, me(), {
      fetch: lists.fetch,
      log: (m) => logged.push(m),
    });
    open.push(e);
    // The disk fills while my lists are stored (the project lists are held until it is freed).
    const { codec } = e.cache.tasks;
    const upsert = codec.upsert;
    codec.upsert = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    const run = e.sync.now();
    const told = (line: string) => USER_LISTS.test(`GET ${line.split(/:? /)[0] ?? ''}`);
    await until(
      'my lists answered',
      () => logged.filter(told),
      (lines) => lines.length > 0,
    );
    codec.upsert = upsert;
    lists.release();
    const status = await run;
    const mine = logged.filter(told);
    expect(mine.filter((line) => line.includes('could not be read'))).toEqual([]);
    expect(mine[0]).toContain('its tasks could not be stored in the cache: Error: database or disk is full');
    // The user is told as of any pull whose store failed: the run ends with the failure, and
    // no project list is asked for (it could not be stored either).
    expect(status.lastError).toContain('database or disk is full');
    expect(lists.asked.filter((k) => PROJECT_LIST.test(k))).toEqual([]);
  });

  it('reports the cache failing to store a slice handed over by a list whose read then failed', async () => {
    // A task of my assigned list under an id of its own: the cache fails to store that one alone.
    const broken = 'not-storable-task';
    const lists = holding(PROJECT_LIST);
    // The tree is held until my assigned list's read failed: its slice waits for the tree.
    const tree = holding(/^GET \/.*\/projects$/);
    let broke = false;
    const logged: string[] = [];
    const e = await testEngine(svc.baseUrl, svc.token, me(), {
      log: (m) => logged.push(m),
      sync: { retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 50 }, probeIntervalMs: 50 },
      // My assigned list answers more than a slice's elements (the reader's 250), all that one
      // task, then its connection breaks: a slice is handed over before the read fails.
      fetch: async (input, init) => {
        const path = new URL(input).pathname;
        if (/\/projects$/.test(path)) return tree.fetch(input, init);
        if (!path.endsWith('/assigned-tasks')) return lists.fetch(input, init);
        const res = await globalThis.fetch(input, init);
        const [first] = (await res.json()) as { id: string }[];
        const one = JSON.stringify({ ...first, id: broken });
        const text = `[${Array.from({ length: 300 }, () => one).join(',')},`;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
          },
          pull(controller) {
            broke = true;
            controller.error(new TypeError('terminated'));
          },
        });
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    open.push(e);
    // The disk is full for that task's row alone.
    const { codec } = e.cache.tasks;
    const upsert = codec.upsert.bind(codec);
    codec.upsert = (task) => {
      if (task.id === broken)
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      upsert(task);
    };
    const run = e.sync.now();
    await until(
      'my assigned list broken',
      () => broke,
      (b) => b,
    );
    tree.release();
    // Either the run ends with the failure or, as before, a project list is asked for.
    const ended = run.then(() => true);
    await until(
      'the run ended or a project list asked',
      async () => (await Promise.race([ended, Promise.resolve(false)])) || lists.held.length > 0,
      (done) => done,
    );
    lists.release();
    const status = await run;
    expect(
      logged.some((line) => line.includes('assigned-tasks: its tasks could not be stored in the cache')),
    ).toBe(true);
    expect(status.lastError).toContain('database or disk is full');
    expect(lists.asked.filter((k) => PROJECT_LIST.test(k))).toEqual([]);
  });

  it('removes nothing for missing from my lists, and asks for them on the first pull only', async () => {
    const lists = holding(/^$/);
    const e = await engine(lists.fetch);
    expect((await e.sync.now()).lastError).toBeNull();
    // Every task of every project is cached, mine or not.
    const everyTask = new Set<string>();
    const projects = [
      ...(await api.call(projectEndpoints.projects)),
      ...(await api.call(projectEndpoints.projects, { query: { archived: true } })),
    ];
    const projectIds = new Set(projects.map((p) => p.id));
    for (const root of projects.filter((p) => !p.parentProjectId || !projectIds.has(p.parentProjectId)))
      for (const t of await api.call(taskEndpoints.projectTasks, {
        id: root.id,
        query: { closed: true, subfolders: true },
      }))
        everyTask.add(t.id);
    const cached = new Set(e.db.prepare('SELECT id FROM tasks').pluck().all() as string[]);
    expect(cached).toEqual(everyTask);
    const mine = new Set(
      [
        ...(await api.call(taskEndpoints.assignedTasks, { id: me() })),
        ...(await api.call(taskEndpoints.actionRequiredTasks, { id: me() })),
      ].map((t) => t.id),
    );
    expect([...everyTask].filter((id) => !mine.has(id)).length).toBeGreaterThan(0);

    const before = lists.asked.length;
    expect((await e.sync.now()).lastError).toBeNull();
    expect(lists.asked.slice(before).filter((k) => USER_LISTS.test(k))).toEqual([]);
    expect(new Set(e.db.prepare('SELECT id FROM tasks').pluck().all() as string[])).toEqual(everyTask);
  });

  it('fetches messages most recently active first, and those of a task opened before its turn at once', async () => {
    const e0 = await engine(globalThis.fetch);
    // The tasks by recency, as a first pull sees them (a sync of another engine, same service).
    expect((await e0.sync.now()).lastError).toBeNull();
    const byRecency = (
      e0.db
        .prepare('SELECT id, recent_activity_moment AS at FROM tasks ORDER BY recent_activity_moment DESC')
        .all() as { id: string; at: string }[]
    ).filter((t) => e0.cache.messages.listForTask(t.id).length > 0);
    const last = byRecency[byRecency.length - 1];
    expect(last).toBeDefined();
    const lastId = last?.id ?? '';

    // Every messages request of the pull held, but those of the task opened below.
    const held = holding(MESSAGES, (key) => key.includes(`/task/${encodeURIComponent(lastId)}/`));
    const e = await engine(held.fetch);
    const run = e.sync.now();
    await until(
      'messages asked for',
      () => held.held.length,
      (n) => n >= 6,
    );
    // The first asked for are the most recently active tasks.
    const momentOf = (key: string) =>
      e.cache.tasks.get(decodeURIComponent(key.split('/').at(-2) ?? ''))?.recentActivityMoment ?? '';
    const firstAsked = held.held.slice(0, 6).map(momentOf);
    const newest = [...e.db.prepare('SELECT recent_activity_moment FROM tasks').pluck().all()]
      .map(String)
      .sort()
      .reverse()
      .slice(0, 6);
    expect(firstAsked.sort().reverse()).toEqual(newest);
    expect(e.cache.messages.listForTask(lastId)).toEqual([]);

    // The least recently active task, opened while the pull waits: its messages come at once.
    const detail = await e.call('tasks.detail', { taskId: lastId });
    expect(e.sync.status().running).toBe(true);
    const fromService = (await api.call(messageEndpoints.taskMessages, { id: lastId }))
      .map((m) => m.id)
      .sort();
    expect(fromService.length).toBeGreaterThan(0);
    expect(detail.messages.map((m) => m.id).sort()).toEqual(fromService);

    held.release();
    expect((await run).lastError).toBeNull();
  });
});
