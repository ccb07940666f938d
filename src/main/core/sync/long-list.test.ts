import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { fingerprintOf } from '../api/list-elements';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { noPending } from './pending';
import { createSync, type Sync } from './sync';
import { accountCache, PULL_PARTS } from '../handlers/index';

/** One root project P whose task list holds `count` tasks, answered in chunks of 500 bytes. */
const COUNT = 1_200;
const listText = `[${Array.from({ length: COUNT }, (_, i) => JSON.stringify(aTask({ id: `t${i}`, projectId: 'P' }))).join(',')}]`;

/** The service: its task list streamed, cut off `cutOff` bytes before its end when asked. */
function service(options: { cutOff: number }): FetchLike {
  return async (url) => {
    const path = new URL(url).pathname.replace('/2.0', '');
    const archived = new URL(url).searchParams.get('archived') === 'true';
    if (path === '/projects')
      return new Response(JSON.stringify(archived ? [] : [aProject({ id: 'P' })]), { status: 200 });
    if (path !== '/project/P/tasks') return new Response('[]', { status: 200 });
    const bytes = new TextEncoder().encode(listText);
    const end = bytes.length - options.cutOff;
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= end) {
            if (options.cutOff) controller.error(new Error('socket hang up'));
            else controller.close();
            return;
          }
          const next = Math.min(end, sent + 500);
          controller.enqueue(bytes.slice(sent, next));
          sent = next;
        },
      }),
      { status: 200 },
    );
  };
}

const syncs: Sync[] = [];
afterEach(async () => {
  await Promise.all(syncs.splice(0).map((s) => s.stop()));
});

function setup(options: { cutOff: number }) {
  const cache = accountCache(openCacheDb(':memory:'));
  const sync = createSync({
    cache,
    pullParts: PULL_PARTS,
    client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch: service(options) }),
    pending: noPending,
    userId: 'me',
    clock: () => new Date(2026, 0, 15, 9),
    log: () => {},
    emitChange: () => {},
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  syncs.push(sync);
  return { cache, sync };
}

describe('a long task list read as it arrives', () => {
  it('stores every task of it, each as sent, and knows the next same answer whole', async () => {
    const { cache, sync } = setup({ cutOff: 0 });
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.countInProjects(['P'])).toBe(COUNT);
    expect(
      cache.taskFingerprints.idOf(fingerprintOf(JSON.stringify(aTask({ id: 't7', projectId: 'P' })))),
    ).toBe('t7');
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(listText))).toHaveLength(COUNT);
  });

  it('cut off part-way: keeps the tasks stored before the cut, removes nothing, records no whole answer', async () => {
    const { cache, sync } = setup({ cutOff: 2_000 });
    // A task cached before, which the cut answer never reaches: not taken as gone.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'zz-old', projectId: 'P' }))]);
    const end = await sync.now();
    expect(end.lastError).toMatch(/response cut off/);
    const stored = cache.tasks.countInProjects(['P']);
    expect(stored).toBeGreaterThan(1);
    expect(stored).toBeLessThan(COUNT);
    expect(cache.tasks.getFlat('zz-old')).toBeDefined();
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(listText))).toBeUndefined();
  });
});
