import { describe, expect, it } from 'vitest';
import { EntryStore } from './store';
import { openTestDb } from './testing';

/** A fresh store holding one pending create. */
function withEntry(): { store: EntryStore; id: number } {
  const store = new EntryStore(openTestDb());
  const id = store.insert({
    kind: 'note.create',
    keys: ['note:t1'],
    payload: {},
    createdTempId: 't1',
    now: 1,
  });
  return { store, id };
}

describe('EntryStore: only open entries are rescheduled or failed', () => {
  // A failure reported after the acknowledgement committed must not revive the entry (it would
  // be looked up or sent again) nor fail it (its rollback would undo what the service holds).
  it('a done entry is neither rescheduled nor failed', () => {
    const { store, id } = withEntry();
    store.markSending(id, 2, 600_000);
    store.markDone(id, 3);
    expect(store.reschedule(id, 'in_flight', 10, 'unknown-outcome', 'late', 4, 2)).toBe(false);
    expect(store.markFailed(id, 'rejected', 'late', 4)).toBe(false);
    expect(store.get(id)).toMatchObject({ state: 'done', attempts: 1, errorType: null, updatedAt: 3 });
    expect(store.ready(1_000_000, 10)).toEqual([]);
  });

  it('an open entry is rescheduled and failed as asked', () => {
    const { store, id } = withEntry();
    expect(store.reschedule(id, 'pending', 10, 'throttled', 'slow down', 2, 1)).toBe(true);
    expect(store.get(id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: 10 });
    expect(store.markFailed(id, 'rejected', 'no', 3)).toBe(true);
    expect(store.get(id)).toMatchObject({ state: 'failed', errorType: 'rejected', errorMessage: 'no' });
  });
});

describe('EntryStore: answers that fail to fold', () => {
  function sentEntry(): { store: EntryStore; id: number } {
    const sent = withEntry();
    sent.store.markSending(sent.id, 2, 600_000);
    return sent;
  }
  const failure = (stuck: boolean, attempts = 1) => ({ message: 'boom', attempts, nextAttemptAt: 50, stuck });

  it('counts each failed fold and remembers when the service first answered', () => {
    const { store, id } = sentEntry();
    expect(store.foldFailed(id, failure(false), 10)).toBe(true);
    expect(store.foldFailed(id, failure(false, 2), 20)).toBe(true);
    expect(store.get(id)).toMatchObject({
      state: 'in_flight',
      attempts: 2,
      foldFailures: 2,
      answeredAt: 10,
      nextAttemptAt: 50,
      errorType: 'fold-failed',
      errorMessage: 'boom',
    });
    expect(store.counts()).toEqual({ pending: 0, inFlight: 1, failed: 0, stuck: 0 });
  });

  it('a stuck entry is counted apart, never ready, not made due, and unstuck only from stuck', () => {
    const { store, id } = sentEntry();
    store.foldFailed(id, failure(true, 3), 10);
    expect(store.counts()).toEqual({ pending: 0, inFlight: 0, failed: 0, stuck: 1 });
    store.allDueNow(1_000);
    expect(store.ready(1_000_000, 10)).toEqual([]);
    expect(store.reschedule(id, 'in_flight', 10, 'unknown-outcome', 'late', 11)).toBe(false);
    expect(store.markFailed(id, 'rejected', 'late', 11)).toBe(false);
    expect(store.unstick(id, 100)).toBe(true);
    expect(store.get(id)).toMatchObject({
      state: 'in_flight',
      attempts: 0,
      foldFailures: 0,
      answeredAt: 10,
      nextAttemptAt: 100,
    });
    expect(store.ready(100, 10).map((e) => e.id)).toEqual([id]);
    expect(store.unstick(id, 101)).toBe(false);
  });

  it('a done entry takes no fold failure and is never marked stuck', () => {
    const { store, id } = sentEntry();
    store.markDone(id, 3);
    expect(store.foldFailed(id, failure(true), 4)).toBe(false);
    expect(store.markStuck(id, 'not-found', 'gone', 4)).toBe(false);
    expect(store.get(id)).toMatchObject({ state: 'done', foldFailures: 0, answeredAt: null });
  });
});
