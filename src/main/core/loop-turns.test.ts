// Work running at once shares one budget per turn of the event loop: between two turns (told by
// an immediate that schedules itself again, so it runs once per turn) the core's work advances
// the clock by about one slice, however many pieces are going on. The clock is a fake one that
// only the work moves, so what is counted is the work done, not the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SLICE_MS, workSlice } from './loop-turns';
import { workPerTurn } from './loop-turns.testing';
import { STORE_CHUNK, storeInSlices } from './sync/store-slices';
import { createGate, createWriteBatcher, type Progress, type SyncDeps } from './sync/context';
import { FIRST_READS, readAhead } from './accounts/read-ahead';
import type { IpcResult } from '../../shared/ipc/channel';

/** What one chunk of items (a few stored tasks) costs on the fake clock. */
const CHUNK_MS = 3;

let now = 1_000_000;
beforeEach(() => {
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The most work (fake milliseconds) done between two turns while `work` ran. */
const mostWorkPerTurn = async (work: () => Promise<unknown>): Promise<number> =>
  Math.max(...(await workPerTurn(work, () => now)));

const items = (n: number) => Array.from({ length: n }, (_, i) => i);
const noTransaction = (fn: () => void): void => fn();

describe('the turns of the loop shared by the core’s work', () => {
  it('holds about one slice of work per turn with three lists stored at once', async () => {
    const stored: string[] = [];
    const list = (name: string) =>
      storeInSlices(noTransaction, items(STORE_CHUNK * 12), () => {
        now += CHUNK_MS;
        stored.push(name);
      });
    const most = await mostWorkPerTurn(() => Promise.all([list('a'), list('b'), list('c')]));
    // Each list alone gave the loop back after a slice of its own: three slices ran in one turn.
    expect(most).toBeLessThanOrEqual(SLICE_MS + CHUNK_MS);
    expect(stored).toHaveLength(36);
    // Every list goes on while the others do: none waits for another to end.
    const firstEnd = Math.min(...['a', 'b', 'c'].map((n) => stored.lastIndexOf(n)));
    for (const name of ['a', 'b', 'c']) expect(stored.indexOf(name)).toBeLessThan(firstEnd);
  });

  it('holds about one slice per turn when six lists are handed over in one turn', async () => {
    // Six project lists answered in the same turn of the loop: each list handed over once the
    // turn's budget was spent stored a chunk on top of it before giving the loop back.
    const stored: number[] = [];
    const most = await mostWorkPerTurn(async () => {
      // Handed over in a later turn's timers, as answers come in its I/O: a turn measured whole.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          storeInSlices(noTransaction, items(STORE_CHUNK * 12), () => {
            now += CHUNK_MS;
            stored.push(n);
          }),
        ),
      );
    });
    expect(most).toBeLessThanOrEqual(SLICE_MS + CHUNK_MS);
    expect(stored).toHaveLength(72);
    // None waits for the others to end.
    const firstEnd = Math.min(...[0, 1, 2, 3, 4, 5].map((n) => stored.lastIndexOf(n)));
    for (const n of [0, 1, 2, 3, 4, 5]) expect(stored.indexOf(n)).toBeLessThan(firstEnd);
  });

  it('holds the window’s reads ahead to the same budget as a list stored meanwhile', async () => {
    let read = 0;
    let allRead!: () => void;
    const ahead = new Promise<void>((resolve) => (allRead = resolve));
    const dispatch = async (): Promise<IpcResult<unknown>> => {
      now += CHUNK_MS;
      if (++read === FIRST_READS.length) allRead();
      return { ok: true, value: null };
    };
    const most = await mostWorkPerTurn(async () => {
      const list = storeInSlices(noTransaction, items(STORE_CHUNK * 12), () => {
        now += CHUNK_MS;
      });
      readAhead(dispatch);
      await Promise.all([list, ahead]);
    });
    // A read given the loop back with its own immediate ran beside the list's slice in one turn.
    expect(most).toBeLessThanOrEqual(SLICE_MS + CHUNK_MS);
    expect(read).toBe(FIRST_READS.length);
  });

  it('holds the messages’ write batcher to the same budget as a list stored meanwhile', async () => {
    const cache = { transaction: <T>(fn: () => T): T => fn() };
    const batch = createWriteBatcher(cache);
    let written = 0;
    const most = await mostWorkPerTurn(async () => {
      const list = storeInSlices(noTransaction, items(STORE_CHUNK * 12), () => {
        now += CHUNK_MS;
      });
      // 200 writes of a millisecond each: the first 64 start a run at once.
      for (let i = 0; i < 200; i++)
        batch.write(() => {
          now += 1;
          written++;
        });
      await list;
      while (written < 200) await new Promise((resolve) => setImmediate(resolve));
    });
    expect(most).toBeLessThanOrEqual(SLICE_MS + CHUNK_MS);
    expect(written).toBe(200);
  });
});

describe('the messages’ write batcher', () => {
  it('runs 64 writes queued once the turn’s budget is spent in a later turn', async () => {
    const cache = { transaction: <T>(fn: () => T): T => fn() };
    const batch = createWriteBatcher(cache);
    let written = 0;
    const inTurn = await new Promise<number>((resolve) =>
      setTimeout(() => {
        // Answers read in this turn spent its budget; then the 64th write is queued.
        workSlice();
        now += SLICE_MS;
        for (let i = 0; i < 64; i++)
          batch.write(() => {
            now += 1;
            written++;
          });
        resolve(written);
      }, 0),
    );
    expect(inTurn).toBe(0);
    await vi.waitFor(() => expect(written).toBe(64));
  });
});

describe('requests through the sync gate', () => {
  it('are sent in the next turn once this turn’s budget is spent', async () => {
    const deps = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } } as unknown as SyncDeps;
    const progress: Progress = { phase() {}, add() {}, done() {} };
    const gate = createGate(deps, 6, new AbortController().signal, progress);
    let sent = 0;
    const most = await mostWorkPerTurn(async () => {
      const list = storeInSlices(noTransaction, items(STORE_CHUNK * 12), () => {
        now += CHUNK_MS;
      });
      // Each request's set-up and the handling of its answer cost 2 ms; its answer arrives in a
      // later turn, and the worker that sent it sends its next one (as the messages' reads do).
      const request = () =>
        gate(async () => {
          now += 2;
          sent++;
          await new Promise((resolve) => setImmediate(resolve));
        });
      const requests = Array.from({ length: 12 }, async () => {
        for (let i = 0; i < 5; i++) await request();
      });
      await Promise.all([list, ...requests]);
    });
    expect(most).toBeLessThanOrEqual(SLICE_MS + CHUNK_MS);
    expect(sent).toBe(60);
  });
});

describe('a read the user waits for, through the on-demand gate', () => {
  it('is sent at once while a sync’s work waits for its turn', async () => {
    const deps = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } } as unknown as SyncDeps;
    const progress: Progress = { phase() {}, add() {}, done() {} };
    const onDemand = createGate(deps, 3, new AbortController().signal, progress, { waitsTurn: false });
    const sync = createGate(deps, 3, new AbortController().signal, progress);
    // A sync's list stored in slices: its work spends the turn's budget and then waits its turn.
    const list = storeInSlices(noTransaction, items(STORE_CHUNK * 12), () => {
      now += CHUNK_MS;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const order: string[] = [];
    const syncRead = sync(async () => void order.push('sync'));
    const opened = onDemand(async () => void order.push('opened'));
    await Promise.all([opened, syncRead, list]);
    expect(order[0]).toBe('opened');
  });
});
