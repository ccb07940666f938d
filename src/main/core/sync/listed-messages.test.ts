import { describe, expect, it } from 'vitest';
import { TaskMessagesResponse } from '../../../shared/api/messages';
import { listedMessages } from './pending';

describe('listedMessages: a task message list with its task', () => {
  it('gives each message of the answer its task, on the objects the check made (no copy)', () => {
    const answer = TaskMessagesResponse.parse([
      { id: 'm1', dateCreated: '2026-01-01T09:00:00.000000', fromUserId: 'u1', message: 'Hello' },
      { id: 'm2', dateCreated: '2026-01-02T09:00:00.000000', fromUserId: 'u2', taskSystemStatusNew: 3 },
    ]);
    const listed = listedMessages('t1', answer);
    expect(listed.map((m) => [m.id, m.taskId, m.communicationFlow])).toEqual([
      ['m1', 't1', 2],
      ['m2', 't1', 4],
    ]);
    expect(listed[0]).toBe(answer[0]);
    expect(listedMessages('t1', [])).toEqual([]);
  });
});
