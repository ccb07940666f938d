// A new account's first pull asks for the project lists once the user's own lists are stored, or
// once their head start ends if they take longer: a list that hangs must not hold the whole sync.
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { accountCache, PULL_PARTS } from '../handlers/index';

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

/** A service whose assigned list answers only when let go; records when the project list is asked. */
function heldService() {
  let letGo!: () => void;
  const mine = new Promise<void>((resolve) => (letGo = resolve));
  const order: string[] = [];
  const service: FetchLike = async (url) => {
    const u = new URL(url);
    const path = u.pathname.replace('/2.0', '');
    let body: unknown[] = [];
    if (path === '/projects') body = u.searchParams.get('archived') === 'true' ? [] : [aProject({ id: 'P' })];
    else if (path === '/user/me/assigned-tasks') {
      await mine;
      order.push('assigned answered');
      body = [aTask({ id: 'a1', projectId: 'P' })];
    } else if (path === '/project/P/tasks') {
      order.push('project list asked');
      body = [aTask({ id: 'a1', projectId: 'P' }), aTask({ id: 't2', projectId: 'P' })];
    }
    return new Response(JSON.stringify(body), { status: 200 });
  };
  return { service, order, letGo };
}

function syncOf(service: FetchLike, myListsHeadStartMs: number) {
  const cache = accountCache(openCacheDb(':memory:'));
  const sync = createSync({
    cache,
    pullParts: PULL_PARTS,
    client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch: service }),
    ...SYNC_TEST_DEFAULTS,
    myListsHeadStartMs,
  });
  syncs.push(sync);
  return { cache, sync };
}

describe("a first pull's head start for the user's own lists", () => {
  it('asks for the project lists when the head start ends, while my list still hangs', async () => {
    const { service, order, letGo } = heldService();
    const { cache, sync } = syncOf(service, 20);
    const run = sync.now();
    // Let the hanging list go once the project list was asked for without it, or after 4 s: less
    // than the default head start (5 s), so a sync that ignored the one given fails here.
    const until = Date.now() + 4_000;
    while (!order.includes('project list asked') && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 5));
    letGo();
    expect((await run).lastError).toBeNull();
    expect(order).toEqual(['project list asked', 'assigned answered']);
    expect(cache.tasks.idsInProjects(['P']).sort()).toEqual(['a1', 't2']);
  });

  it('holds the project lists for as long as the head start, however slow the machine', async () => {
    const { service, order, letGo } = heldService();
    const { cache, sync } = syncOf(service, 60_000);
    const run = sync.now();
    // The order is asserted, with the list let go after a pause.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual([]);
    letGo();
    expect((await run).lastError).toBeNull();
    expect(order).toEqual(['assigned answered', 'project list asked']);
    expect(cache.tasks.idsInProjects(['P']).sort()).toEqual(['a1', 't2']);
  });
});
