// The project list's two answers (open and archived) are read, each element parsed and checked
// against its schema, a slice at a time at the sync's start: with the turn spent, the loop is
// given back every few dozen projects, not once both answers are read whole.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject } from '../cache/fixtures';
import { resetTurns, turns } from '../loop-turns.testing';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { noPending, type PendingFields } from './pending';
import { accountCache, PULL_PARTS } from '../handlers/index';

vi.mock('../loop-turns', async (importOriginal) =>
  (await import('../loop-turns.testing')).loopTurnsDouble(await importOriginal()),
);

const COUNT = 400;
/** One root open, the rest under it; as many archived. */
const open = Array.from({ length: COUNT }, (_, i) =>
  aProject({ id: `p${i}`, parentProjectId: i === 0 ? null : 'p0' }),
);
const archived = Array.from({ length: COUNT }, (_, i) => aProject({ id: `a${i}`, parentProjectId: 'p0' }));

const syncs: Sync[] = [];
afterEach(async () => {
  resetTurns();
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

describe("the project list's read at the sync's start", () => {
  it('gives the loop back every few dozen projects parsed when the turn is spent, and stores every project', async () => {
    const cache = accountCache(openCacheDb(':memory:'));
    /** The loop given back this many times when both answers had come, and when the first was stored. */
    let answered: number | undefined;
    let storing: number | undefined;
    let projectAnswers = 0;
    const service: FetchLike = async (url) => {
      const u = new URL(url);
      const path = u.pathname.replace('/2.0', '');
      if (path === '/projects' && ++projectAnswers === 2) answered = turns.givenBack;
      const body = path === '/projects' ? (u.searchParams.get('archived') === 'true' ? archived : open) : [];
      return new Response(JSON.stringify(body), { status: 200 });
    };
    const pending: PendingFields = {
      ...noPending,
      pendingStructuralAmong: (entity) => {
        if (entity === 'project') storing ??= turns.givenBack;
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
    turns.spentAlways = true;
    turns.givenBack = 0;
    const status = await sync.now();
    expect(status.lastError).toBeNull();
    expect(cache.projects.ids()).toHaveLength(2 * COUNT);
    expect(cache.projects.get(`a${COUNT - 1}`)?.parentProjectId).toBe('p0');
    // 800 projects read before the first is stored: the loop given back at least every 32.
    expect(storing! - answered!).toBeGreaterThanOrEqual((2 * COUNT) / 32);
  });
});
