// The project list is stored a slice at a time, with the event loop given back between slices:
// a local change made between two slices is kept (rule 7), and a read between them sees every
// project whole, as it was or as stored.
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject } from '../cache/fixtures';
import { createSync, type Sync } from './sync';
import { slicedPendingPort, SYNC_TEST_DEFAULTS } from './testing';
import { accountCache, PULL_PARTS } from '../handlers/index';

const COUNT = 200;
const ids = Array.from({ length: COUNT }, (_, i) => `p${i}`);
/** One root with the rest under it: one task list to answer. */
const listed = (name: (id: string) => string) =>
  ids.map((id, i) => aProject({ id, name: name(id), parentProjectId: i === 0 ? null : 'p0' }));

const service: FetchLike = async (url) => {
  const u = new URL(url);
  const path = u.pathname.replace('/2.0', '');
  const body =
    path === '/projects'
      ? u.searchParams.get('archived') === 'true'
        ? []
        : listed((id) => `Service ${id}`)
      : [];
  return new Response(JSON.stringify(body), { status: 200 });
};

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

// The list is stored a slice at a time, the loop given back between slices: 1.7 s in a run of
// the sync and entities tests on a loaded two-core machine, against the default limit of 5 s.
// What is tested is the order of the slices and the change, never the time.
describe('the project list stored in slices', { timeout: 30_000 }, () => {
  it('keeps a local change made between two slices, and a read between them sees whole projects', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.transaction(() => cache.projects.upsertMany(listed(() => 'Old')));
    let between: {
      first: string | undefined;
      last: string | undefined;
      changedName: string | undefined;
    } | null = null;
    const { pending, claimed, noted, structuralAsked } = slicedPendingPort('project', () => {
      between = {
        first: cache.projects.get('p0')?.name,
        last: cache.projects.get(`p${COUNT - 1}`)?.name,
        changedName: cache.projects.get('p150')?.name,
      };
      // What the outbox does on a local rename: the field claimed, the row changed at once.
      claimed.set('p150', ['name']);
      const row = cache.projects.get('p150');
      if (row) cache.transaction(() => cache.projects.upsertMany([{ ...row, name: 'Mine' }]));
    });
    const sync = createSync({
      cache,
      pullParts: PULL_PARTS,
      client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch: service }),
      ...SYNC_TEST_DEFAULTS,
      pending,
    });
    syncs.push(sync);
    const status = await sync.now();
    expect(status.lastError).toBeNull();
    // The change ran after the first slice was stored and before the last: each project read was
    // whole, either the service's or the cached one.
    expect(between).toEqual({ first: 'Service p0', last: 'Old', changedName: 'Old' });
    expect(cache.projects.get('p150')?.name).toBe('Mine');
    expect(noted).toEqual([['p150', { name: 'Service p150' }]]);
    expect(cache.projects.get('p149')?.name).toBe('Service p149');
    expect(cache.projects.get(`p${COUNT - 1}`)?.name).toBe(`Service p${COUNT - 1}`);
    // The outbox was asked once per chunk of the list, not once per project.
    expect(structuralAsked.reduce((a, b) => a + b, 0)).toBe(COUNT);
    expect(structuralAsked.length).toBeLessThan(COUNT / 10);
  });
});
