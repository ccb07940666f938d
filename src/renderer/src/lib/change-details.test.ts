import { describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '@shared/ipc/outbox';
import { changeDetails } from './change-details';

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
