import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { describeInitialSync, InitialSyncProgress, SyncStatus, syncPercent } from '../../../shared/ipc/sync';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { accountCache, PULL_PARTS } from '../handlers/index';

/**
 * A folder F holding projects A and B, and a root project C: two roots, four projects. My own
 * lists hold task a1 of A; `userLists` answers them or 404s.
 */
function service(options: {
  userLists: boolean;
  calls: string[];
  projectListsWait?: Promise<void>;
}): FetchLike {
  return async (url) => {
    const path = new URL(url).pathname.replace('/2.0', '');
    options.calls.push(path);
    const archived = new URL(url).searchParams.get('archived') === 'true';
    const lists: Record<string, unknown[]> = {
      '/projects': archived
        ? []
        : [
            aProject({ id: 'F', isFolder: true }),
            aProject({ id: 'A', parentProjectId: 'F' }),
            aProject({ id: 'B', parentProjectId: 'F' }),
            aProject({ id: 'C' }),
          ],
      '/project/F/tasks': [aTask({ id: 'a1', projectId: 'A' }), aTask({ id: 'b1', projectId: 'B' })],
      '/project/C/tasks': [aTask({ id: 'c1', projectId: 'C' })],
    };
    if (/^\/user\/me\/(action-required|assigned)-tasks$/.test(path))
      return options.userLists
        ? new Response(JSON.stringify([aTask({ id: 'a1', projectId: 'A' })]), { status: 200 })
        : new Response(JSON.stringify({ errorMessage: 'no such path' }), { status: 404 });
    // The project task lists may be held back (a service slower with its largest lists), so the
    // order the progress is said in does not hang on which answer the loop takes first.
    if (/^\/project\/\w+\/tasks$/.test(path)) await options.projectListsWait;
    return new Response(JSON.stringify(lists[path] ?? []), { status: 200 });
  };
}

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

/**
 * `userLists`: the service answers the user's own lists (else 404). With them, the project task
 * lists are answered only once the progress has said My Work is ready: a sync that waited for a
 * project list before saying so would never end.
 */
function setup(userLists: boolean) {
  const calls: string[] = [];
  const cache = accountCache(openCacheDb(':memory:'));
  let myWorkSaid = (): void => undefined;
  const projectListsWait = userLists ? new Promise<void>((resolve) => (myWorkSaid = resolve)) : undefined;
  const client = createServiceClient({
    baseUrl: 'http://svc.test/2.0',
    token: 't',
    fetch: service({ userLists, calls, ...(projectListsWait ? { projectListsWait } : {}) }),
  });
  const logged: string[] = [];
  const sync = createSync({
    cache,
    pullParts: PULL_PARTS,
    client,
    ...SYNC_TEST_DEFAULTS,
    log: (m) => logged.push(m),
  });
  syncs.push(sync);
  const statuses: SyncStatus[] = [];
  sync.onStatus((s) => {
    statuses.push(SyncStatus.parse(s));
    if (s.initialSync?.myWorkReady) myWorkSaid();
  });
  return { cache, sync, statuses, calls, logged };
}

describe('the progress of a first sync', () => {
  it('says the tree, then My Work, then each root’s projects are ready, and is gone once the run ends', async () => {
    const { sync, statuses, calls } = setup(true);
    const end = await sync.now();
    expect(end.lastError).toBeNull();
    expect(end.initialSync).toBeUndefined();

    const seen = statuses.flatMap((s) => (s.initialSync ? [s.initialSync] : []));
    expect(seen[0]).toEqual({ treeReady: false, myWorkReady: false, projectsDone: 0, projectsTotal: 0 });
    // Never backwards: each flag, once set, stays; the count only grows.
    for (const [i, p] of seen.entries()) {
      const before = seen[i - 1];
      if (!before) continue;
      expect(p.treeReady || !before.treeReady).toBe(true);
      expect(p.myWorkReady || !before.myWorkReady).toBe(true);
      expect(p.projectsDone).toBeGreaterThanOrEqual(before.projectsDone);
    }
    // The folder's list covers F, A and B; C's covers C: 3 then 4 of 4, in either order.
    const counts = [...new Set(seen.filter((p) => p.projectsTotal).map((p) => p.projectsDone))];
    expect(counts[0]).toBe(0);
    expect(counts.at(-1)).toBe(4);
    expect(seen.at(-1)).toEqual({
      treeReady: true,
      myWorkReady: true,
      projectsDone: 4,
      projectsTotal: 4,
      projectListsAsked: true,
    });
    // My Work was ready before any project list was counted.
    const myWorkAt = seen.findIndex((p) => p.myWorkReady);
    const firstListAt = seen.findIndex((p) => p.projectsDone > 0);
    expect(myWorkAt).toBeGreaterThan(-1);
    expect(myWorkAt).toBeLessThan(firstListAt);
    // The user's lists were asked for ahead of the project lists.
    const userAt = calls.findIndex((c) => c.startsWith('/user/me/'));
    expect(userAt).toBeLessThan(calls.findIndex((c) => /^\/project\/\w+\/tasks$/.test(c)));

    // A later pull is no first sync: no progress of one, and my lists are not asked for again.
    const before = statuses.length;
    const callsBefore = calls.length;
    expect((await sync.now()).lastError).toBeNull();
    expect(statuses.slice(before).every((s) => s.initialSync === undefined)).toBe(true);
    expect(calls.slice(callsBefore).filter((c) => c.startsWith('/user/me/') && c.endsWith('-tasks'))).toEqual(
      [],
    );
  });

  it('a service without my lists: the sync ends clean, My Work from the project lists, never said ready early', async () => {
    const { sync, statuses, cache, logged } = setup(false);
    const end = await sync.now();
    expect(end.lastError).toBeNull();
    expect(end.readProblems).toEqual([]);
    expect(statuses.some((s) => s.initialSync?.myWorkReady)).toBe(false);
    expect(statuses.some((s) => s.initialSync?.projectsDone === 4)).toBe(true);
    expect(cache.tasks.get('a1')).not.toBeNull();
    expect(logged.some((m) => m.includes('action-required-tasks could not be read'))).toBe(true);
  });
});

describe('the first sync progress schema and words', () => {
  it('rejects a count past the total, naming the field', () => {
    const result = InitialSyncProgress.safeParse({
      treeReady: true,
      myWorkReady: false,
      projectsDone: 5,
      projectsTotal: 4,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['projectsDone']);
  });

  it('names what is usable already', () => {
    const p = { treeReady: false, myWorkReady: false, projectsDone: 0, projectsTotal: 0 };
    expect(describeInitialSync(p)).toBe('Syncing: reading the folder tree');
    expect(describeInitialSync({ ...p, treeReady: true, projectsTotal: 1200, projectsDone: 40 })).toBe(
      'Syncing: 40 of 1,200 projects',
    );
    expect(
      describeInitialSync({ ...p, treeReady: true, myWorkReady: true, projectsTotal: 200, projectsDone: 40 }),
    ).toBe('Syncing: 40 of 200 projects — My Work ready');
    expect(
      describeInitialSync({ ...p, treeReady: true, myWorkReady: true, projectsTotal: 4, projectsDone: 4 }),
    ).toBe('Syncing: messages — every project ready');
  });

  it('fills the bar as the words say: the tree, then projects stored, then messages', () => {
    const p = { treeReady: false, myWorkReady: false, projectsDone: 0, projectsTotal: 15 };
    // Requests far ahead of the projects (held lists) do not fill the bar past the words.
    expect(syncPercent({ done: 18, total: 20, initialSync: p })).toBe(0);
    expect(syncPercent({ done: 18, total: 20, initialSync: { ...p, treeReady: true } })).toBe(10);
    expect(
      syncPercent({ done: 18, total: 20, initialSync: { ...p, treeReady: true, projectsDone: 6 } }),
    ).toBe(38);
    const allProjects = { ...p, treeReady: true, projectsDone: 15 };
    expect(syncPercent({ done: 10, total: 40, initialSync: allProjects })).toBe(85);
    expect(syncPercent({ done: 40, total: 40, initialSync: allProjects })).toBe(100);
    // A later sync: requests done of those known; none known yet is an empty bar.
    expect(syncPercent({ done: 3, total: 4 })).toBe(75);
    expect(syncPercent({ done: 0, total: 0 })).toBe(0);
  });
});
