import { describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '@shared/ipc/outbox';
import { changeDetails, changeProgress, OFFLINE_MESSAGE } from './change-details';

const entry: OutboxEntryView = {
  id: 7,
  kind: 'task.create',
  label: 'Create task "Plan"',
  entityKey: 'task:local-1',
  state: 'stuck',
  attempts: 5,
  nextAttemptAt: 0,
  createdAt: Date.UTC(2026, 10, 22, 9, 30),
  errorType: 'fold-failed',
  errorMessage: 'UNIQUE constraint failed: tasks.short_id',
  payload: { tempId: 'local-1', input: { title: 'Plan', projectId: 'p1' } },
  fields: { title: 'Plan', projectId: 'p1' },
  heldBy: null,
};

describe('changeDetails', () => {
  it('names the change, its item, attempts, the error and the payload', () => {
    const text = changeDetails(entry, ["New task 'Plan' in Website"]);
    expect(text.split('\n').slice(0, 8)).toEqual([
      "Change: New task 'Plan' in Website",
      'Kind: task.create',
      'Item: task:local-1',
      'State: needs attention',
      'Attempts: 5',
      'Created: 2026-11-22T09:30:00.000Z',
      'Error: fold-failed: UNIQUE constraint failed: tasks.short_id',
      'Payload:',
    ]);
    expect(JSON.parse(text.split('\n').slice(8).join('\n'))).toEqual(entry.payload);
  });

  it('falls back to the label when the change has no description, and says when there is no error', () => {
    const text = changeDetails({ ...entry, state: 'pending', errorType: null, errorMessage: null }, []);
    expect(text).toContain('Change: Create task "Plan"');
    expect(text).toContain('State: pending');
    expect(text).toContain('Error: none');
  });
});

describe('changeProgress', () => {
  const pending: OutboxEntryView = {
    ...entry,
    state: 'pending',
    attempts: 0,
    errorType: null,
    errorMessage: null,
  };

  it('says a task delete in its undo window can still be undone', () => {
    const held = {
      ...pending,
      errorType: 'undo-window',
      errorMessage: 'Waits a few seconds so it can be undone',
    };
    expect(changeProgress(held)).toBe('Sent in a few seconds; it can still be undone');
  });

  it('says a change is waiting, sending, or waiting to retry', () => {
    expect(changeProgress(pending)).toBe('Waiting to be sent');
    expect(changeProgress({ ...pending, state: 'in_flight' })).toBe('Sending…');
    expect(
      changeProgress({
        ...pending,
        attempts: 2,
        errorType: 'server',
        errorMessage: 'The service failed (503)',
      }),
    ).toBe('Waiting to retry (tried 2 times) — The service failed (503)');
  });

  it('says a change that failed for a network reason goes when the app is back online', () => {
    const offline = { ...pending, attempts: 3, errorType: 'unknown-outcome', errorMessage: OFFLINE_MESSAGE };
    expect(changeProgress(offline)).toBe('Will be sent when you are back online (tried 3 times)');
    expect(changeProgress({ ...offline, state: 'in_flight' })).toBe(
      'Will be sent when you are back online, checked with the service first (tried 3 times)',
    );
  });

  it('says a change held by a conflict waits for the user, and names it to those behind it', () => {
    const held = {
      ...pending,
      attempts: 1,
      errorType: 'held',
      errorMessage: 'Also changed on the service: keep yours or take theirs?',
    };
    expect(changeProgress(held)).toBe(
      'Waiting for your decision: Also changed on the service: keep yours or take theirs?',
    );
    const heldBy = { id: 4, label: 'Edit task (priority)', state: 'held' as const };
    expect(changeProgress({ ...pending, heldBy })).toBe(
      'Waiting behind the change waiting for your decision “Edit task (priority)” above',
    );
  });

  it('names the refused or stuck change a waiting one is held behind', () => {
    const heldBy = { id: 3, label: 'Add member Gita Guest to Support desk 2', state: 'failed' as const };
    expect(changeProgress({ ...pending, heldBy })).toBe(
      'Waiting behind the refused change “Add member Gita Guest to Support desk 2” above',
    );
    expect(changeProgress({ ...pending, attempts: 1, heldBy: { ...heldBy, state: 'stuck' } })).toBe(
      'Waiting behind the change that needs attention “Add member Gita Guest to Support desk 2” above',
    );
  });

  it('never says a change in flight without an answer reached the service', () => {
    // A drop sent offline: its upload never left the machine.
    const text = changeProgress({
      ...pending,
      kind: 'task.attachFiles',
      state: 'in_flight',
      attempts: 1,
      errorType: 'network',
      errorMessage: 'The service could not be reached',
    });
    expect(text).toBe('Will be sent when you are back online, checked with the service first (tried 1 time)');
    expect(text).not.toMatch(/sent without/i);
  });

  it('says the service applied a change whose answer failed to be stored', () => {
    expect(changeProgress({ ...pending, state: 'pending', attempts: 1, errorType: 'fold-failed' })).toBe(
      'Applied by the service; storing its answer failed, will retry (tried 1 time)',
    );
  });
});
