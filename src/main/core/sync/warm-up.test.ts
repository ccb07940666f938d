import { afterEach, describe, expect, it, vi } from 'vitest';
import { Task } from '../../../shared/api/tasks';
import { createServiceClient } from '../api/client';
import type { FetchLike } from '../api/http';
import { openCacheDb } from '../cache/db';
import { aProject, aTask } from '../cache/fixtures';
import { accountCache, PULL_PARTS } from '../handlers/index';
import { createSync, type Sync } from './sync';
import { SYNC_TEST_DEFAULTS } from './testing';
import { createWarmUp, SAMPLE_TASKS } from './warm-up';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A warm-up whose ends are recorded (with what it read); never busy unless told, its own signal. */
function recordedWarmUp(given: { busy?: () => boolean; elements?: number; signal?: AbortSignal } = {}) {
  const ended: number[] = [];
  const warmUp = createWarmUp({
    signal: given.signal ?? new AbortController().signal,
    busy: given.busy ?? (() => false),
    ...(given.elements ? { elements: given.elements } : {}),
    onEnd: (n) => ended.push(n),
  });
  return { warmUp, ended };
}

describe('the warm-up of the list reader', () => {
  it("reads samples of both services' shapes that are all tasks (the reader's paths for a read item)", () => {
    for (const sample of SAMPLE_TASKS) expect(Task.safeParse(sample).error).toBeUndefined();
    // The live service's shape: fields left out, UTC stamps with a trimmed or no fraction.
    expect(SAMPLE_TASKS.some((t) => !('customFieldsData' in t))).toBe(true);
    expect(SAMPLE_TASKS.some((t) => t.recentActivityMoment === '2023-10-06T07:53:47')).toBe(true);
  });

  it('reads nothing in the turn it is begun, then reads until stopped and says how much', async () => {
    const { warmUp, ended } = recordedWarmUp();
    warmUp.begin();
    expect(ended).toEqual([]);
    for (let i = 0; i < 3; i++) await turn();
    warmUp.stop();
    expect(ended).toHaveLength(1);
    // A batch reads at least one element (more once warm: a loaded machine's cold reads are slow).
    expect(ended[0]).toBeGreaterThanOrEqual(3);
    await turn();
    expect(ended).toHaveLength(1);
  });

  it("gives the loop back once a batch has read for half a turn's budget", async () => {
    // A clock that moves 3 ms each time it is read: a batch of 4 ms reads two elements.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 3));
    try {
      const { warmUp, ended } = recordedWarmUp();
      warmUp.begin();
      await turn();
      warmUp.stop();
      expect(ended).toEqual([2]);
    } finally {
      clock.mockRestore();
    }
  });

  it('ends at its limit of elements, and when the sync ends', async () => {
    const { warmUp, ended } = recordedWarmUp({ elements: SAMPLE_TASKS.length * 2 });
    warmUp.begin();
    for (let i = 0; i < 200 && !ended.length; i++) await turn();
    expect(ended).toEqual([SAMPLE_TASKS.length * 2]);

    const controller = new AbortController();
    const cut = recordedWarmUp({ signal: controller.signal });
    cut.warmUp.begin();
    controller.abort();
    await turn();
    expect(cut.ended).toEqual([0]);
  });

  it('waits while other work waits for its turn', async () => {
    let busy = true;
    const { warmUp, ended } = recordedWarmUp({ busy: () => busy });
    warmUp.begin();
    for (let i = 0; i < 3; i++) await turn();
    await later(5);
    busy = false;
    await later(5);
    warmUp.stop();
    // Nothing read while busy; the batches after it were read.
    expect(ended[0]).toBeGreaterThan(0);
    const waiting = recordedWarmUp({ busy: () => true });
    waiting.warmUp.begin();
    await later(10);
    waiting.warmUp.stop();
    expect(waiting.ended).toEqual([0]);
  });
});

describe("a first sync's warm-up", () => {
  const syncs: Sync[] = [];
  afterEach(async () => {
    await Promise.all(syncs.splice(0).map((s) => s.stop()));
  });

  /**
   * A service whose answers wait for `ready` (a round trip that lasts until the test says), then a
   * few milliseconds; it logs when each request is handed over and when its answer is given. One
   * root project with one task.
   */
  function slowService(log: string[], ready: Promise<void>): FetchLike {
    return async (url) => {
      const path = new URL(url).pathname.replace('/2.0', '');
      log.push(`request ${path}`);
      await ready;
      await later(5);
      log.push(`answer ${path}`);
      const body =
        path === '/projects' && new URL(url).searchParams.get('archived') !== 'true'
          ? [aProject({ id: 'p1' })]
          : path === '/project/p1/tasks'
            ? [aTask({ id: 't1', projectId: 'p1' })]
            : [];
      return new Response(JSON.stringify(body), { status: 200 });
    };
  }

  function syncWith(log: string[]) {
    // The answers wait until the warm-up has read (or 2 s, for the code before it: it never does).
    let began = () => {};
    const ready = Promise.race([new Promise<void>((resolve) => (began = resolve)), later(2000)]);
    const sync = createSync({
      cache: accountCache(openCacheDb(':memory:')),
      pullParts: PULL_PARTS,
      client: createServiceClient({
        baseUrl: 'http://svc.test/2.0',
        token: 't',
        fetch: slowService(log, ready),
      }),
      ...SYNC_TEST_DEFAULTS,
      warmUp: {
        onBegin: () => {
          log.push('warm-up begins');
          began();
        },
        onEnd: (n) => log.push(`warm-up ends (${n > 0 ? 'read' : 'none read'})`),
      },
    });
    syncs.push(sync);
    return sync;
  }

  it('begins once the first requests are sent and ends as the first answer comes, on the first run only', async () => {
    const log: string[] = [];
    const sync = syncWith(log);
    const status = await sync.now();
    expect(status.lastError).toBeNull();
    const begins = log.indexOf('warm-up begins');
    const firstAnswer = log.findIndex((line) => line.startsWith('answer '));
    // Every request of the first round is out before it begins: it delays none of them.
    expect(log.slice(0, begins).every((line) => line.startsWith('request '))).toBe(true);
    expect(begins).toBeGreaterThanOrEqual(1);
    expect(log.slice(0, begins)).toContain('request /user/me/action-required-tasks');
    // It read while the round trip was awaited, and ended with the first answer.
    expect(firstAnswer).toBeGreaterThan(begins);
    expect(log.filter((line) => line.startsWith('warm-up ends'))).toEqual(['warm-up ends (read)']);
    expect(log.indexOf('warm-up ends (read)')).toBeGreaterThan(firstAnswer);

    log.length = 0;
    expect((await sync.now()).lastError).toBeNull();
    expect(log.filter((line) => line.startsWith('warm-up'))).toEqual([]);
  });
});
