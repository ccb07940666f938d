// Tasks moving between root projects: a steady pull's removal check keeps a task whose move
// waits in the outbox, and a folder moved into another root and back keeps its tasks cached.
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { createSync, type Sync } from './sync';
import { ACKED_ANY, noPending, type PendingFields } from './pending';
import { SYNC_TEST_DEFAULTS } from './testing';
import { accountCache, PULL_PARTS } from '../handlers/index';

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

/** Enough that the first half holds a slice of read elements (250), f3 among them. */
const COUNT = 800;
const encoder = new TextEncoder();

/**
 * Roots F (COUNT tasks f0…, named `f.name`) and R (task r1). With `f.cut`, F's answer goes on
 * after its first half with text that is not JSON, once `f.storedBefore()` says the slices sent
 * so far are stored; with `f.failAtOnce` it is that text alone.
 */
function twoRoots() {
  const f = { cut: false, failAtOnce: false, name: 'Task', storedBefore: () => true };
  const fText = () =>
    `[${Array.from({ length: COUNT }, (_, i) => JSON.stringify(aTask({ id: `f${i}`, projectId: 'F', name: `${f.name} f${i}` }))).join(',')}]`;
  const rText = JSON.stringify([aTask({ id: 'r1', projectId: 'R' })]);
  const fetch: FetchLike = async (url) => {
    const u = new URL(url);
    const path = u.pathname.replace('/2.0', '');
    if (path === '/projects')
      return Response.json(
        u.searchParams.get('archived') === 'true' ? [] : [aProject({ id: 'F' }), aProject({ id: 'R' })],
      );
    if (path === '/project/R/tasks') return new Response(rText, { status: 200 });
    if (path !== '/project/F/tasks') return Response.json([]);
    if (f.failAtOnce) return new Response('}}} not json', { status: 200 });
    const bytes = encoder.encode(fText());
    const end = f.cut ? Math.floor(bytes.length / 2) : bytes.length;
    let sent = 0;
    // Sent in pieces, so the slices before the fault are stored.
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= end) {
          if (f.cut) {
            while (!f.storedBefore()) await new Promise((resolve) => setImmediate(resolve));
            c.enqueue(encoder.encode('}}} not json'));
          }
          c.close();
          return;
        }
        const next = Math.min(end, sent + 16_384);
        c.enqueue(bytes.slice(sent, next));
        sent = next;
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    return new Response(body, { status: 200 });
  };
  return { fetch, f };
}

/** A sync of the two roots with `pending` as the outbox, after a first and a steady pull. */
async function pulledTwice(pending: PendingFields) {
  const { fetch, f } = twoRoots();
  const cache = accountCache(openCacheDb(':memory:'));
  const sync = createSync({
    ...SYNC_TEST_DEFAULTS,
    cache,
    pullParts: PULL_PARTS,
    pending,
    client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch }),
  });
  syncs.push(sync);
  expect((await sync.now()).lastError).toBeNull();
  expect((await sync.now()).lastError).toBeNull();
  expect(cache.tasks.get('f3')?.projectId).toBe('F');
  /** What the handler does on a local move of f3 to R: the row moved at once. */
  const moveF3 = () =>
    cache.transaction(() => cache.tasks.upsertMany([flattenTask(aTask({ id: 'f3', projectId: 'R' }))]));
  /** F's next answer names its tasks anew, and is cut off once f3's element is stored. */
  const cutAfterF3 = () => {
    f.cut = true;
    f.name = 'Service';
    f.storedBefore = () => cache.tasks.get('f3')?.name === 'Service f3';
  };
  return { cache, sync, f, moveF3, cutAfterF3 };
}

describe('tasks moving between root projects', { timeout: 30_000 }, () => {
  it("keeps a task whose move waits to be sent when its old root's list fails after storing it", async () => {
    let moved = false;
    const pending: PendingFields = {
      ...noPending,
      openCount: () => (moved ? 1 : 0),
      pendingFieldsFor: (entity, id) =>
        new Set(moved && entity === 'task' && id === 'f3' ? ['projectId'] : []),
    };
    const { cache, sync, moveF3, cutAfterF3 } = await pulledTwice(pending);
    moveF3();
    moved = true;
    cutAfterF3();
    // F's list stores f3 (its project kept: R) and fails; R's list does not name f3 yet.
    expect((await sync.now()).lastError).not.toBeNull();
    expect(cache.tasks.get('f3')).toMatchObject({ projectId: 'R', name: 'Service f3' });
  });

  it("keeps a task whose move waits to be sent when its old root's list fails before storing it", async () => {
    let moved = false;
    const pending: PendingFields = {
      ...noPending,
      openCount: () => (moved ? 1 : 0),
      pendingFieldsFor: (entity, id) =>
        new Set(moved && entity === 'task' && id === 'f3' ? ['projectId'] : []),
    };
    const { cache, sync, f, moveF3 } = await pulledTwice(pending);
    moveF3();
    moved = true;
    f.failAtOnce = true;
    expect((await sync.now()).lastError).not.toBeNull();
    expect(cache.tasks.get('f3')?.projectId).toBe('R');
  });

  it('counts the tasks a failed list stored as listed: a move acknowledged during the pull keeps its row', async () => {
    // The move is sent and acknowledged after the pull took its mark: the lists, read before,
    // hold f3 in F (its project kept as cached, R) and not in R.
    let acked = false;
    const pending: PendingFields = {
      ...noPending,
      openCount: () => (acked ? 1 : 0),
      ackMark: () => 1,
      ackedSince: (entity, id) =>
        new Set(acked && entity === 'task' && id === 'f3' ? ['projectId', ACKED_ANY] : []),
    };
    const { cache, sync, moveF3, cutAfterF3 } = await pulledTwice(pending);
    moveF3();
    acked = true;
    cutAfterF3();
    expect((await sync.now()).lastError).not.toBeNull();
    expect(cache.tasks.get('f3')).toMatchObject({ projectId: 'R', name: 'Service f3' });
  });

  it('a folder moved into another root and back keeps its tasks cached', async () => {
    const pTasks = ['p1', 'p2', 'p3'].map((id) => aTask({ id, projectId: 'P' }));
    let inside = false;
    const fetch: FetchLike = async (url) => {
      const u = new URL(url);
      const path = u.pathname.replace('/2.0', '');
      if (path === '/projects')
        return Response.json(
          u.searchParams.get('archived') === 'true'
            ? []
            : [aProject({ id: 'A' }), aProject({ id: 'P', ...(inside ? { parentProjectId: 'A' } : {}) })],
        );
      if (path === '/project/A/tasks')
        return Response.json([aTask({ id: 'a1', projectId: 'A' }), ...(inside ? pTasks : [])]);
      if (path === '/project/P/tasks') return Response.json(pTasks);
      return Response.json([]);
    };
    const cache = accountCache(openCacheDb(':memory:'));
    const sync = createSync({
      ...SYNC_TEST_DEFAULTS,
      cache,
      pullParts: PULL_PARTS,
      client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch }),
    });
    syncs.push(sync);
    const pulled = async () => {
      expect((await sync.now()).lastError).toBeNull();
      return cache.tasks.countInProjects(['P']);
    };
    expect(await pulled()).toBe(3);
    expect(await pulled()).toBe(3);
    inside = true;
    expect(await pulled()).toBe(3);
    inside = false;
    // P's answer is the one it had before the move: its tasks, taken by A's list meanwhile, are
    // stored again, not taken for held.
    expect([await pulled(), await pulled(), await pulled()]).toEqual([3, 3, 3]);
  });
});
