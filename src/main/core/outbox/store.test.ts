import { describe, expect, it } from 'vitest';
import { EntryStore } from './store';
import { openTestDb } from './testing';

describe('EntryStore: only open entries are rescheduled or failed', () => {
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
