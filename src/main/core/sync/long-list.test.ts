import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { fingerprintOf } from '../api/list-elements';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { accountCache, PULL_PARTS } from '../handlers/index';

/** One root project P whose task list holds `count` tasks, answered in chunks of 500 bytes. */
const COUNT = 1_200;
const textOf = (names: Record<string, string> = {}) =>
  `[${Array.from({ length: COUNT }, (_, i) => JSON.stringify(aTask({ id: `t${i}`, projectId: 'P', ...(names[`t${i}`] ? { name: names[`t${i}`] } : {}) }))).join(',')}]`;
const listText = textOf();

/**
 * The service: its task list (`text`, the list above unless given) streamed, cut off `cutOff` bytes
 * before its end when asked; `beforeLast`, when given, is waited for before the last chunk is sent.
 */
function service(options: {
  cutOff: number;
  text?: () => string;
  beforeLast?: () => Promise<void>;
}): FetchLike {
  return async (url) => {
    const path = new URL(url).pathname.replace('/2.0', '');
    const archived = new URL(url).searchParams.get('archived') === 'true';
    if (path === '/projects')
      return new Response(JSON.stringify(archived ? [] : [aProject({ id: 'P' })]), { status: 200 });
    if (path !== '/project/P/tasks') return new Response('[]', { status: 200 });
    const bytes = new TextEncoder().encode(options.text?.() ?? listText);
    const end = bytes.length - options.cutOff;
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent < end && sent + 500 >= end) await options.beforeLast?.();
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

function setup(options: Parameters<typeof service>[0]) {
  const cache = accountCache(openCacheDb(':memory:'));
  const sync = createSync({
    cache,
    pullParts: PULL_PARTS,
    client: createServiceClient({ baseUrl: 'http://svc.test/2.0', token: 't', fetch: service(options) }),
    ...SYNC_TEST_DEFAULTS,
  });
  syncs.push(sync);
  return { cache, sync };
}

// Each test syncs a list of 1,200 tasks up to three times: 2-3 s on a loaded two-core machine,
// near the default 5 s; the time is not what is tested.
describe('a long task list read as it arrives', { timeout: 30_000 }, () => {
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

describe('a long task list compared with the last one as it arrives', { timeout: 30_000 }, () => {
  /** Waits until `done` holds, or about a second has gone by; answers whether it held. */
  const within = async (done: () => boolean): Promise<boolean> => {
    for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
    return done();
  };

  it('reads a changed answer as it arrives from the part that differs: a slice is stored before its last byte came', async () => {
    let text = listText;
    let storedBeforeEnd: boolean | null = null;
    const { cache, sync } = setup({
      cutOff: 0,
      text: () => text,
      beforeLast: async () => {
        if (text !== listText)
          storedBeforeEnd ??= await within(() => cache.tasks.getFlat('t400')?.name === 'Renamed t400');
      },
    });
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.taskFingerprints.forList('P').ranges()?.ids).toHaveLength(COUNT);
    // 300 tasks renamed from the answer's middle on: more than one slice of elements to read.
    const renamed = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`t${400 + i}`, `Renamed t${400 + i}`]),
    );
    text = textOf(renamed);
    expect((await sync.now()).lastError).toBeNull();
    // Not held until the answer was whole (nothing was stored then before its last byte).
    expect(storedBeforeEnd).toBe(true);
    expect(cache.tasks.getFlat('t699')?.name).toBe('Renamed t699');
    expect(cache.tasks.getFlat('t700')?.name).toBe('Task t700');
    expect(cache.tasks.countInProjects(['P'])).toBe(COUNT);
    // The new answer is recorded whole, by its parts too, for the pull after.
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(text))).toHaveLength(COUNT);
    const ranges = cache.taskFingerprints.forList('P').ranges();
    expect(ranges?.whole).toBe(fingerprintOf(text));
    expect(ranges?.ids[450]).toBe('t450');
    expect(ranges?.ids[1]).toBe('t1');
    expect(ranges?.fingerprints[450]).toBe(
      fingerprintOf(JSON.stringify(aTask({ id: 't450', projectId: 'P', name: 'Renamed t450' }))),
    );
  });

  it('vouches for the ranges equal to the last answer at once: only the elements around a change are looked up', async () => {
    let text = listText;
    const { cache, sync } = setup({ cutOff: 0, text: () => text });
    expect((await sync.now()).lastError).toBeNull();
    // Every look-up of an element by its fingerprint, in each read of the list.
    let lookUps = 0;
    const forList = cache.taskFingerprints.forList.bind(cache.taskFingerprints);
    vi.spyOn(cache.taskFingerprints, 'forList').mockImplementation((key) => {
      const known = forList(key);
      return {
        ...known,
        idOf: (fingerprint) => {
          lookUps++;
          return known.idOf(fingerprint);
        },
      };
    });
    text = textOf({ t600: 'Renamed' });
    // The ids the store of the list whole goes through one by one (the spans vouched for not).
    let stored = cache.taskFingerprints.idsLookedUp;
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.getFlat('t600')?.name).toBe('Renamed');
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(text))).toHaveLength(COUNT);
    // A range is about 35 of these tasks: the one changed and those cut with it, not the 1,200.
    expect(lookUps).toBeGreaterThan(0);
    expect(lookUps).toBeLessThan(COUNT / 10);
    expect(cache.taskFingerprints.idsLookedUp - stored).toBeGreaterThan(0);
    expect(cache.taskFingerprints.idsLookedUp - stored).toBeLessThan(COUNT / 10);
    // The answer recorded by that changed read is vouched for at once too, at the next change.
    lookUps = 0;
    stored = cache.taskFingerprints.idsLookedUp;
    text = textOf({ t600: 'Renamed', t900: 'Renamed too' });
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.getFlat('t900')?.name).toBe('Renamed too');
    expect(cache.tasks.getFlat('t600')?.name).toBe('Renamed');
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(text))).toHaveLength(COUNT);
    expect(lookUps).toBeLessThan(COUNT / 10);
    expect(cache.taskFingerprints.idsLookedUp - stored).toBeLessThan(COUNT / 10);
    // Recorded whole again: the next change is vouched for by ranges as well.
    expect(cache.taskFingerprints.forList('P').ranges()?.whole).toBe(fingerprintOf(text));
  });

  it('keeps a task of the unchanged part whose row was written during the read, and does not take the list as whole', async () => {
    let text = listText;
    let writeDuringRead: (() => void) | null = null;
    const { cache, sync } = setup({
      cutOff: 0,
      text: () => text,
      beforeLast: async () => {
        writeDuringRead?.();
        writeDuringRead = null;
      },
    });
    expect((await sync.now()).lastError).toBeNull();
    text = textOf({ t1100: 'Renamed' });
    // t3 lies in the answer's first part, let go before the change near its end arrives.
    writeDuringRead = () =>
      cache.tasks.upsertMany([flattenTask(aTask({ id: 't3', projectId: 'P', name: 'Written here' }))]);
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.getFlat('t1100')?.name).toBe('Renamed');
    // Not removed (its element was in the list), not overwritten by an element not read again.
    expect(cache.tasks.getFlat('t3')?.name).toBe('Written here');
    expect(cache.tasks.countInProjects(['P'])).toBe(COUNT);
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(text))).toBeUndefined();
    // The next pull reads its element again: the list is whole as sent once more.
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.getFlat('t3')?.name).toBe('Task t3');
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(text))).toHaveLength(COUNT);
  });

  it('an answer the same as the last one, with a row written during the read: the pull succeeds and keeps the row', async () => {
    let writeDuringRead: (() => void) | null = null;
    const { cache, sync } = setup({
      cutOff: 0,
      text: () => listText,
      beforeLast: async () => {
        writeDuringRead?.();
        writeDuringRead = null;
      },
    });
    expect((await sync.now()).lastError).toBeNull();
    // A task opened or edited while the same answer streams in: every range compares equal.
    writeDuringRead = () =>
      cache.tasks.upsertMany([flattenTask(aTask({ id: 't3', projectId: 'P', name: 'Written here' }))]);
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.getFlat('t3')?.name).toBe('Written here');
    expect(cache.tasks.countInProjects(['P'])).toBe(COUNT);
    expect((await sync.now()).lastError).toBeNull();
    expect(cache.tasks.getFlat('t3')?.name).toBe('Task t3');
    expect(cache.taskFingerprints.wholeAnswer(fingerprintOf(listText))).toHaveLength(COUNT);
  });
});
