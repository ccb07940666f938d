// A new account's search during its first sync, on both profiles: the tasks a first sync stores
// are put in the full-text index after they are stored (cache migration 019), and never while My
// Work is being stored; a search finds them at every moment, and the index is sound once the
// background indexing has run.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { aTask } from '../../../src/main/core/cache/fixtures';
import { INDEX_BEFORE_SEARCH_MAX } from '../../../src/main/core/cache/repos/search';
import { flattenTask } from '../../../src/main/core/cache/repos/tasks';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from '../outbox/support';

/** The first word of a task's name long enough to be searched for alone (letters only). */
const wordOf = (name: string): string | undefined => name.match(/\p{L}{4,}/u)?.[0];

describe.each(SERVICE_PROFILES)('search during a first sync on the %s profile', (profile) => {
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

  it('finds a task my lists stored before any task was indexed; the index is sound once the sync is done', async () => {
    // My assigned tasks, and every project list, are held: My Work is not ready, so nothing may
    // be indexed yet, while the tasks awaiting my action are stored.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = /\/(user\/[^/]+\/assigned-tasks|project\/[^/]+\/tasks)$/;
    const fetch: FetchLike = async (input, init) => {
      const signal = init.signal;
      // Given up when the engine closes (its requests are aborted), so a failed test still ends.
      if (held.test(new URL(input).pathname))
        await new Promise<void>((resolve, reject) => {
          void released.then(resolve);
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      return globalThis.fetch(input, init);
    };
    // My lists are held for as long as the checks below take: the project lists' head start is
    // made longer than that, or a loaded machine could end it (and the index's hold) under them.
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, {
      fetch,
      sync: { myListsHeadStartMs: 120_000 },
    });
    open.push(e);
    const run = e.sync.now();

    const mine = await api.call(taskEndpoints.actionRequiredTasks, { id: svc.users.actingUserId });
    const task = mine.find((t) => wordOf(t.name));
    if (!task) throw new Error('the demo seed has no task awaiting my action with a word in its name');
    await vi.waitFor(() => expect(e.cache.tasks.get(task.id)).not.toBeNull(), {
      timeout: 15_000,
      interval: 10,
    });
    expect(e.sync.status().initialSync?.myWorkReady).toBe(false);
    // Stored, not indexed.
    expect(e.cache.search.pendingCount()).toBeGreaterThan(0);
    expect(
      e.db
        .prepare('SELECT count(*) FROM tasks_fts WHERE rowid = (SELECT rowid FROM tasks WHERE id = ?)')
        .pluck()
        .get(task.id),
    ).toBe(0);
    const { hits } = await e.call('search.query', { text: wordOf(task.name)!, kinds: ['task'], limit: 500 });
    expect(hits.map((h) => h.id)).toContain(task.id);
    // A first sync of a large account has thousands waiting, more than a search indexes itself:
    // with as many waiting here (tasks no word below finds), the search matches them directly.
    const others = Array.from({ length: INDEX_BEFORE_SEARCH_MAX + 1 }, (_, i) =>
      aTask({ id: `waiting-${i}`, projectId: task.projectId, name: `${i}` }),
    );
    others.push(aTask({ id: 'waiting-review', projectId: task.projectId, name: 'समीक्षा बैठक' }));
    e.cache.transaction(() => e.cache.tasks.upsertMany(others.map(flattenTask)));
    const waiting = e.cache.search.pendingCount();
    expect(waiting).toBeGreaterThan(INDEX_BEFORE_SEARCH_MAX);
    const direct = await e.call('search.query', { text: wordOf(task.name)!, kinds: ['task'], limit: 500 });
    expect(direct.hits.map((h) => h.id)).toContain(task.id);
    // A word whose vowel signs split it in the index, as they do here.
    const review = await e.call('search.query', { text: 'समीक्षा', kinds: ['task'], limit: 10 });
    expect(review.hits.map((h) => h.id)).toEqual(['waiting-review']);
    expect(e.cache.search.pendingCount()).toBe(waiting);

    release();
    expect((await run).lastError).toBeNull();
    // Indexed in the background once the sync let it: every task, the index sound.
    await vi.waitFor(() => expect(e.cache.search.pendingCount()).toBe(0), { timeout: 15_000, interval: 20 });
    expect(e.db.prepare('SELECT count(*) FROM tasks_fts').pluck().get()).toBe(
      e.db.prepare('SELECT count(*) FROM tasks').pluck().get(),
    );
    e.db.exec(`INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('integrity-check', 1)`);
    const again = await e.call('search.query', { text: wordOf(task.name)!, kinds: ['task'], limit: 500 });
    expect(again.hits.map((h) => h.id)).toContain(task.id);
  });

  it('indexes as soon as the project lists are asked for when my lists could not be read, before any is stored', async () => {
    // The tasks awaiting my action cannot be read (My Work never ready); the project lists are
    // held: the tasks assigned to me are stored, and must be indexed while the lists still wait.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const fetch: FetchLike = async (input, init) => {
      const path = new URL(input).pathname;
      if (/\/action-required-tasks$/.test(path))
        return new Response('{"error":"down"}', {
          status: 500,
          headers: { 'content-type': 'application/json' },
        });
      const signal = init.signal;
      if (/\/project\/[^/]+\/tasks$/.test(path))
        await new Promise<void>((resolve, reject) => {
          void released.then(resolve);
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      return globalThis.fetch(input, init);
    };
    const e = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { fetch });
    open.push(e);
    const run = e.sync.now();
    const assigned = await api.call(taskEndpoints.assignedTasks, { id: svc.users.actingUserId });
    expect(assigned.length).toBeGreaterThan(0);
    await vi.waitFor(
      () => {
        expect(e.cache.tasks.get(assigned[0]!.id)).not.toBeNull();
        expect(e.cache.search.pendingCount()).toBe(0);
      },
      { timeout: 15_000, interval: 20 },
    );
    const first = e.sync.status().initialSync;
    expect(first?.myWorkReady).toBe(false);
    expect(first?.projectsDone).toBe(0);
    release();
    await run;
  });
});
