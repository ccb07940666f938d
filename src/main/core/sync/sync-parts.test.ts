import { describe, expect, it, vi } from 'vitest';
import {
  ACKED_ANY,
  ACKED_ITEM,
  mergePending,
  mergePendingTags,
  noPending,
  type PendingFields,
} from './pending';
import { confirmRemoval, isMassRemoval } from './removal';
import { withRetry } from './retry';
import { createGate, createWriteBatcher, type Progress, type SyncDeps } from './context';
import { AbortedError, NetworkError, RejectedError, ServerError } from '../api/errors';

function pendingOf(fields: Record<string, string[]>, structural: string[] = []) {
  const noted: [string, Record<string, unknown>][] = [];
  const port: PendingFields = {
    pendingFieldsFor: (_entity, id) => new Set(fields[id] ?? []),
    isPendingStructural: (_entity, id) => structural.includes(id),
    noteServerValues: (_entity, id, values) => noted.push([id, values]),
  };
  return { port, noted };
}

describe('rule 7: mergePending', () => {
  const incoming = { id: 't1', name: 'Server name', priority: 5, deadline: '2026-02-01' };

  it('passes a record through when nothing is pending', () => {
    expect(mergePending(noPending, 'task', incoming, () => null)).toBe(incoming);
  });

  it('keeps the cached value of pending fields and tells the port the server values', () => {
    const { port, noted } = pendingOf({ t1: ['name', 'deadline'] });
    const cached = { id: 't1', name: 'Local name', priority: 1, deadline: null };
    expect(mergePending(port, 'task', incoming, () => cached)).toEqual({
      id: 't1',
      name: 'Local name',
      priority: 5,
      deadline: null,
    });
    expect(noted).toEqual([['t1', { name: 'Server name', deadline: '2026-02-01' }]]);
  });

  it('keeps the local values the outbox holds when no row is cached (a cache made again)', () => {
    const { port, noted } = pendingOf({ t1: ['name'] });
    const withLocal: PendingFields = { ...port, localValuesOf: () => ({ name: 'Typed offline' }) };
    expect(mergePending(withLocal, 'task', incoming, () => null)).toEqual({
      ...incoming,
      name: 'Typed offline',
    });
    expect(noted).toEqual([['t1', { name: 'Server name' }]]);
    // Without the outbox's values (a port that has none), the service's record is stored.
    expect(mergePending(port, 'task', incoming, () => null)).toBe(incoming);
  });

  it('leaves an entity pending create or delete alone', () => {
    const { port } = pendingOf({}, ['t1']);
    expect(mergePending(port, 'task', incoming, () => null)).toBeNull();
  });
});

describe('rule 7 after an acknowledgement: data fetched before it', () => {
  const incoming = { id: 't1', name: 'Fetched name', priority: 5 };
  const cached = { id: 't1', name: 'Acked name', priority: 1 };
  function ackedPort(acked: Record<string, string[]>, claimed: string[] = []) {
    const noted: Record<string, unknown>[] = [];
    const marks: number[] = [];
    const port: PendingFields = {
      pendingFieldsFor: () => new Set(claimed),
      isPendingStructural: () => false,
      noteServerValues: (_e, _id, values) => noted.push(values),
      ackedSince: (_entity, id, mark) => (marks.push(mark), new Set(acked[id] ?? [])),
    };
    return { port, noted, marks };
  }

  it('keeps the cached value of a field acknowledged after the mark, without a conflict note', () => {
    const { port, noted, marks } = ackedPort({ t1: ['name', ACKED_ANY] });
    expect(mergePending(port, 'task', incoming, () => cached, 7)).toEqual({
      ...incoming,
      name: 'Acked name',
    });
    expect(marks).toEqual([7]);
    expect(noted).toEqual([]);
  });

  it('notes no server value of a claimed field acknowledged after the mark: it predates the base', () => {
    // Priority 3 was acknowledged (fetched as such), then 7 after the fetch began; 2 still waits.
    const { port, noted } = ackedPort({ t1: ['priority', ACKED_ANY] }, ['priority', 'name']);
    const merged = mergePending(
      port,
      'task',
      { ...incoming, priority: 3 },
      () => ({ ...cached, priority: 2 }),
      7,
    );
    expect(merged).toMatchObject({ priority: 2, name: 'Acked name' });
    expect(noted).toEqual([{ name: 'Fetched name' }]);
  });

  it('leaves alone an item created or deleted after the mark', () => {
    const { port } = ackedPort({ t1: [ACKED_ITEM, ACKED_ANY] });
    expect(mergePending(port, 'task', incoming, () => cached, 0)).toBeNull();
  });

  it('asks nothing of the acknowledgements when no mark was taken', () => {
    const { port, marks } = ackedPort({ t1: ['name', ACKED_ANY] });
    expect(mergePending(port, 'task', incoming, () => cached)).toBe(incoming);
    expect(marks).toEqual([]);
  });

  it('tag links: claimed and newly acknowledged tags keep their cached presence', () => {
    const { port, noted } = ackedPort({ t1: ['b', ACKED_ANY] }, ['a', 'c']);
    // Cached: a added locally (pending), b removed (acknowledged after the mark), c removed (pending).
    const cachedHas = (tag: string) => tag === 'a';
    const tags = mergePendingTags(port, 't1', ['b', 'c', 'd'], cachedHas, 0);
    expect(tags.sort()).toEqual(['a', 'd']);
    expect(noted).toEqual([{ a: false, c: true }]);
  });
});

describe('rule 9: removal check', () => {
  it('treats removing most of a sizeable scope as massive', () => {
    expect(isMassRemoval(100, 10)).toBe(false);
    expect(isMassRemoval(100, 51)).toBe(true);
    expect(isMassRemoval(10, 9)).toBe(false);
  });

  it('removes a few items at once, and a mass removal only when a second fetch agrees', async () => {
    const refetch = vi.fn(async () => new Set<string>());
    expect(await confirmRemoval(100, ['a', 'b'], refetch, () => {}, 'p')).toEqual(['a', 'b']);
    expect(refetch).not.toHaveBeenCalled();
    const many = Array.from({ length: 60 }, (_, i) => `t${i}`);
    const log: string[] = [];
    // The second answer has them all back: a glitch, nothing is removed.
    expect(
      await confirmRemoval(
        100,
        many,
        async () => new Set(many),
        (m) => log.push(m),
        'project p',
      ),
    ).toEqual([]);
    expect(log[0]).toMatch(/project p would lose 60 of 100/);
    // The second answer still lacks 59 of them: those go.
    expect(
      await confirmRemoval(
        100,
        many,
        async () => new Set(['t0']),
        () => {},
        'p',
      ),
    ).toHaveLength(59);
  });
});

describe('retry', () => {
  const noSleep = async () => {};

  it('retries transient failures with growing, jittered waits and honours Retry-After', async () => {
    const waits: number[] = [];
    let n = 0;
    const result = await withRetry(
      async () => {
        n++;
        if (n === 1) throw new NetworkError('GET', '/x', 'reset');
        if (n === 2) throw new ServerError('GET', '/x', 429, 3000, 'slow');
        if (n === 3) throw new ServerError('GET', '/x', 503, null, '');
        return 'ok';
      },
      { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 },
      { sleep: async (ms) => void waits.push(ms), random: () => 1 },
    );
    expect(result).toBe('ok');
    expect(waits).toEqual([100, 3000, 400]);
  });

  it('gives up after the attempts and never retries a rejected request', async () => {
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new NetworkError('GET', '/x', 'down'));
    };
    await expect(
      withRetry(failing, { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, { sleep: noSleep }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(calls).toBe(3);
    calls = 0;
    const rejected = () => {
      calls++;
      return Promise.reject(new RejectedError('PUT', '/x', 400, 'bad'));
    };
    await expect(
      withRetry(rejected, { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, { sleep: noSleep }),
    ).rejects.toBeInstanceOf(RejectedError);
    expect(calls).toBe(1);
  });
});

describe('request gate', () => {
  const deps = {
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    sleep: async () => {},
  } as unknown as SyncDeps;
  const counting = () => {
    const p = { added: 0, done: 0 };
    const progress: Progress = { phase() {}, add: (n) => void (p.added += n), done: () => void p.done++ };
    return { p, progress };
  };

  it('keeps at most `concurrency` requests in flight and counts progress', async () => {
    const { p, progress } = counting();
    const gate = createGate(deps, 3, new AbortController().signal, progress);
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        gate(async () => {
          peak = Math.max(peak, ++inFlight);
          await new Promise((r) => setTimeout(r, 2));
          inFlight--;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(p).toEqual({ added: 20, done: 20 });
  });

  it('starts nothing more once cancelled', async () => {
    const { progress } = counting();
    const controller = new AbortController();
    const gate = createGate(deps, 1, controller.signal, progress);
    const started: number[] = [];
    const calls = [0, 1, 2].map((i) =>
      gate(async () => {
        started.push(i);
        controller.abort();
      }),
    );
    const results = await Promise.allSettled(calls);
    expect(started).toEqual([0]);
    expect(results.slice(1).every((r) => r.status === 'rejected' && r.reason instanceof AbortedError)).toBe(
      true,
    );
  });
});

describe('write batcher', () => {
  it('groups writes into one transaction per 64, or per 25 ms, and flushes the rest on demand', async () => {
    const transactions: number[] = [];
    let inTx = 0;
    const cache = {
      transaction<T>(fn: () => T): T {
        inTx = 0;
        const r = fn();
        transactions.push(inTx);
        return r;
      },
    };
    const flushed = vi.fn();
    const batch = createWriteBatcher(cache, flushed);
    for (let i = 0; i < 70; i++) batch.write(() => void inTx++);
    expect(transactions).toEqual([64]);
    await new Promise((r) => setTimeout(r, 40));
    expect(transactions).toEqual([64, 6]);
    batch.write(() => void inTx++);
    batch.flush();
    expect(transactions).toEqual([64, 6, 1]);
    expect(flushed).toHaveBeenCalledTimes(3);
  });

  it('gives the loop back between slices of a long run, each write whole, and runs them all', async () => {
    const log: string[] = [];
    let inTx = false;
    const cache = {
      transaction<T>(fn: () => T): T {
        inTx = true;
        log.push('begin');
        try {
          return fn();
        } finally {
          inTx = false;
          log.push('commit');
        }
      },
    };
    const batch = createWriteBatcher(cache);
    // A timer due at once: it runs between two slices, outside any transaction.
    setTimeout(() => log.push(inTx ? 'timer in a transaction' : 'timer'), 0);
    for (let i = 0; i < 64; i++)
      batch.write(() => {
        // Each write takes 3 ms: 64 of them are far more than one slice.
        const until = performance.now() + 3;
        while (performance.now() < until);
        log.push(`w${i}`);
      });
    expect(log.filter((e) => e.startsWith('w')).length).toBeLessThan(64);
    await vi.waitFor(() => expect(log.filter((e) => e.startsWith('w'))).toHaveLength(64));
    expect(log).toContain('timer');
    expect(log).not.toContain('timer in a transaction');
    expect(log.filter((e) => e === 'begin').length).toBeGreaterThan(1);
    // In order, each once.
    expect(log.filter((e) => e.startsWith('w'))).toEqual(Array.from({ length: 64 }, (_, i) => `w${i}`));
  });

  it('reports a write that failed on the timer at the next flush', async () => {
    const batch = createWriteBatcher({ transaction: (fn) => fn() });
    batch.write(() => {
      throw new Error('disk full');
    });
    await new Promise((r) => setTimeout(r, 40));
    expect(() => batch.flush()).toThrow('disk full');
  });

  it('goes on with the writes after one that failed, and reports the failure once', async () => {
    const stored: number[] = [];
    // A transaction that rolls back what it stored when a write throws.
    const cache = {
      transaction<T>(fn: () => T): T {
        const before = stored.length;
        try {
          return fn();
        } catch (err) {
          stored.length = before;
          throw err;
        }
      },
    };
    const batch = createWriteBatcher(cache);
    for (let i = 0; i < 130; i++)
      batch.write(() => {
        if (i === 3) throw new Error('constraint failed');
        stored.push(i);
      });
    await vi.waitFor(() => expect(stored).toContain(127));
    expect(() => batch.flush()).toThrow('constraint failed');
    // The failing write's run (0-2 with it) is rolled back; every write after it is stored.
    expect(stored).toEqual(Array.from({ length: 126 }, (_, i) => i + 4));
    // Reported once: the batcher goes on.
    batch.write(() => stored.push(200));
    expect(() => batch.flush()).not.toThrow();
    expect(stored).toContain(200);
  });
});
