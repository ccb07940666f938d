// The tasks whose messages are stale are read a page at a time (`STALE_PAGE` of them), yet
// their messages are fetched most recently active first across every page, each task once.
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { noPending, type PendingFields } from './pending';
import { STALE_PAGE } from './stale-tasks';
import { accountCache, PULL_PARTS } from '../handlers/index';

/** More than two pages; ids in one order, activity in another. */
const COUNT = 2_500;
const moment = (i: number) => `2026-01-01T00:00:00.${String((i * 7919) % COUNT).padStart(6, '0')}`;
const all = Array.from({ length: COUNT }, (_, i) =>
  aTask({ id: `t${String(i).padStart(5, '0')}`, projectId: 'P', recentActivityMoment: moment(i) }),
);

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

// A first pull of 2,500 tasks with their messages: about a second alone, several seconds on a
// loaded two-core machine (it timed out at the default 5 s there).
describe("a first pull's stale messages", { timeout: 60_000 }, () => {
  it('are fetched most recently active first across the pages read, each task once', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const asked: string[] = [];
    const service: FetchLike = async (url) => {
      const u = new URL(url);
      const path = u.pathname.replace('/2.0', '');
      const messages = /^\/task\/([^/]+)\/messages$/.exec(path);
      if (messages) asked.push(messages[1]!);
      const body =
        path === '/projects' && u.searchParams.get('archived') !== 'true'
          ? [aProject({ id: 'P' })]
          : path === '/project/P/tasks'
            ? all
            : [];
      return new Response(JSON.stringify(body), { status: 200 });
    };
    const sync = createSync({
      cache,
      pullParts: PULL_PARTS,
      client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch: service }),
      ...SYNC_TEST_DEFAULTS,
    });
    syncs.push(sync);
    const status = await sync.now();
    expect(status.lastError).toBeNull();
    const byActivity = [...all]
      .sort((a, b) => (a.recentActivityMoment < b.recentActivityMoment ? 1 : -1))
      .map((t) => t.id);
    expect(asked).toHaveLength(COUNT);
    // Asked in the queue's order, a few at once: each within the pool's reach of its place.
    const place = new Map(byActivity.map((id, i) => [id, i]));
    const furthest = Math.max(...asked.map((id, i) => Math.abs(place.get(id)! - i)));
    expect(furthest).toBeLessThan(20);
    expect(new Set(asked).size).toBe(COUNT);
  });

  it('ask the outbox about the stale tasks at most once per page read, each task once', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const service: FetchLike = async (url) => {
      const u = new URL(url);
      const path = u.pathname.replace('/2.0', '');
      const body =
        path === '/projects' && u.searchParams.get('archived') !== 'true'
          ? [aProject({ id: 'P' })]
          : path === '/project/P/tasks'
            ? all
            : [];
      return new Response(JSON.stringify(body), { status: 200 });
    };
    // How many tasks each question to the outbox named (the list's chunks and the stale pages).
    const asked: number[] = [];
    const pending: PendingFields = {
      ...noPending,
      pendingStructuralAmong: (entity, ids) => {
        if (entity === 'task') asked.push(ids.length);
        return new Set();
      },
    };
    const sync = createSync({
      cache,
      pullParts: PULL_PARTS,
      client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch: service }),
      ...SYNC_TEST_DEFAULTS,
      pending,
    });
    syncs.push(sync);
    expect((await sync.now()).lastError).toBeNull();
    // The stale tasks are read a page at a time (`STALE_PAGE`) and asked about once per turn,
    // over the pages read in it (how many pages fit in a turn is the machine's: see
    // stale-tasks.test.ts), each task in one question.
    const stalePages = asked.filter((n) => n > 32);
    expect(stalePages.length).toBeLessThanOrEqual(Math.ceil(COUNT / STALE_PAGE));
    expect(stalePages.reduce((sum, n) => sum + n, 0)).toBe(COUNT);
  });
});
