import { describe, expect, it } from 'vitest';
import type { TaskRow } from '@shared/ipc/tasks';
import { boardColumns, boardMove, NOBODY, type BoardContext } from './board-columns';

function row(id: string, fields: Partial<TaskRow> = {}): TaskRow {
  return {
    id,
    shortId: `#${id}`,
    name: `Task ${id}`,
    projectId: 'p1',
    parentTaskId: null,
    parentTaskName: null,
    statusId: 's1',
    statusName: 'Open',
    taskTypeId: 't1',
    taskTypeName: 'Task',
    priority: 5,
    assignedToUserId: null,
    actionRequiredUserId: null,
    createdByUserId: null,
    deadline: null,
    startDate: null,
    endDate: null,
    scheduleDate: null,
    estimate: null,
    progress: null,
    momentCreated: '2026-11-01T00:00:00Z',
    momentClosed: null,
    recentActivityMoment: '2026-11-01T00:00:00Z',
    closed: false,
    ...fields,
  };
}

const ctx: BoardContext = {
  statuses: [
    { id: 's1', name: 'Open', isClosed: false },
    { id: 's2', name: 'Done', isClosed: true },
  ],
  users: [
    { id: 'u1', name: 'Ada' },
    { id: 'u2', name: 'Bo' },
  ],
  showClosed: false,
  statusColor: (status) => (status.isClosed ? 'green' : 'blue'),
};

const summary = (columns: ReturnType<typeof boardColumns>) =>
  columns.map((c) => `${c.name}:${c.cards.map((card) => card.id).join(',')}`);

describe('boardColumns', () => {
  const rows = [
    row('a', { assignedToUserId: 'u2', priority: 50 }),
    row('b', { statusId: 's9', statusName: 'Legacy', priority: 3 }),
    row('c', { assignedToUserId: 'u2', priority: 3 }),
  ];

  it('by status: open statuses, closed ones when shown or holding a card, else one folded Done column last', () => {
    const columns = boardColumns(rows, 'status', {
      ...ctx,
      statuses: [...ctx.statuses, { id: 's3', name: 'Cancelled', isClosed: true }],
    });
    expect(summary(columns)).toEqual(['Open:a,c', 'Legacy:b', 'Done:']);
    expect(columns.at(-1)).toMatchObject({ id: 's2', folded: true });
    expect(boardMove(rows[0]!, 'status', 's2')).toEqual({ kind: 'status', statusId: 's2' });
    expect(summary(boardColumns(rows, 'status', { ...ctx, showClosed: true }))).toEqual([
      'Open:a,c',
      'Done:',
      'Legacy:b',
    ]);
  });

  it('by assignee: Nobody first, then every user so a card can go to anyone', () => {
    const columns = boardColumns([...rows, row('d', { assignedToUserId: 'gone' })], 'assignee', ctx);
    expect(summary(columns)).toEqual(['Nobody:b', 'Ada:', 'Bo:a,c', 'Unknown user:d']);
    expect(columns[0]?.id).toBe(NOBODY);
  });

  it('by priority: highest first, Emergency and Blocker named', () => {
    const names = summary(boardColumns(rows, 'priority', ctx));
    expect(names.slice(0, 3)).toEqual(['Emergency:', 'Blocker:a', '10:']);
    expect(names).toContain('3:b,c');
    expect(names).toHaveLength(12);
  });
});

describe('boardMove', () => {
  it('names the change a drop makes, or nothing when the card is already there', () => {
    const card = row('a', { assignedToUserId: 'u1', priority: 5 });
    expect(boardMove(card, 'status', 's2')).toEqual({ kind: 'status', statusId: 's2' });
    expect(boardMove(card, 'status', 's1')).toBeUndefined();
    expect(boardMove(card, 'assignee', NOBODY)).toEqual({
      kind: 'update',
      patch: { assignedToUserId: null },
    });
    expect(boardMove(card, 'assignee', 'u2')).toEqual({ kind: 'update', patch: { assignedToUserId: 'u2' } });
    expect(boardMove(card, 'priority', '100')).toEqual({ kind: 'update', patch: { priority: 100 } });
    expect(boardMove(card, 'priority', '5')).toBeUndefined();
  });
});
