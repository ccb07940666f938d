// The board's columns for one grouping (status, assignee or priority), and what dropping a card
// on a column changes. Pure, so the board component only draws and the rules are unit-tested.
import { z } from 'zod';
import type { TaskRow } from '@shared/ipc/tasks';
import { PRIORITIES, priorityColor, priorityLabel } from './format';

export const BoardGrouping = z.enum(['status', 'assignee', 'priority']);
export type BoardGrouping = z.infer<typeof BoardGrouping>;

export const boardGroupings: readonly { value: BoardGrouping; label: string }[] = [
  { value: 'status', label: 'Status' },
  { value: 'assignee', label: 'Assignee' },
  { value: 'priority', label: 'Priority' },
];

/** The column of tasks assigned to nobody (no user id is empty). */
export const NOBODY = '';

export interface BoardColumn {
  id: string;
  name: string;
  /** A CSS color for the column's dot; absent for assignee columns. */
  color?: string | undefined;
  cards: TaskRow[];
  /**
   * The Done column while closed tasks are not shown: a place to drop a card to close it, its
   * closed tasks hidden until the user shows them.
   */
  folded?: boolean;
}

export interface BoardContext {
  statuses: readonly { id: string; name: string; isClosed: boolean }[];
  users: readonly { id: string; name: string }[];
  showClosed: boolean;
  statusColor: (status: { name: string; isClosed?: boolean }) => string;
}

function keyOf(row: TaskRow, by: BoardGrouping): string {
  if (by === 'status') return row.statusId;
  if (by === 'assignee') return row.assignedToUserId ?? NOBODY;
  return String(row.priority);
}

/**
 * Every column a card can be dropped on, in order, with the rows (kept in list order) under
 * their column. Values held by a row but unknown to the organization get a column of their own.
 */
export function boardColumns(rows: readonly TaskRow[], by: BoardGrouping, ctx: BoardContext): BoardColumn[] {
  const cards = new Map<string, TaskRow[]>();
  for (const row of rows) {
    const key = keyOf(row, by);
    const list = cards.get(key);
    if (list) list.push(row);
    else cards.set(key, [row]);
  }
  const columns: Omit<BoardColumn, 'cards'>[] = [];
  if (by === 'status') {
    for (const status of ctx.statuses) {
      if (cards.has(status.id) || ctx.showClosed || !status.isClosed)
        columns.push({ id: status.id, name: status.name, color: ctx.statusColor(status) });
    }
  } else if (by === 'assignee') {
    columns.push({ id: NOBODY, name: 'Nobody' });
    for (const user of ctx.users) columns.push({ id: user.id, name: user.name });
  } else {
    // Highest first: Emergency and Blocker lead, as they do in a triage.
    for (const p of [...PRIORITIES].reverse())
      columns.push({ id: String(p), name: priorityLabel(p), color: priorityColor(p) });
  }
  for (const row of rows) {
    const key = keyOf(row, by);
    if (columns.some((column) => column.id === key)) continue;
    if (by === 'status')
      columns.push({ id: key, name: row.statusName, color: ctx.statusColor({ name: row.statusName }) });
    else if (by === 'assignee') columns.push({ id: key, name: 'Unknown user' });
    else columns.push({ id: key, name: `Priority ${key}`, color: priorityColor(row.priority) });
  }
  // Closed tasks not shown: one Done column last (the first closed status), folded.
  const done = ctx.statuses.find((status) => status.isClosed);
  if (by === 'status' && !ctx.showClosed && done && !columns.some((column) => column.id === done.id))
    columns.push({ id: done.id, name: 'Done', color: ctx.statusColor(done), folded: true });
  return columns.map((column) => ({ ...column, cards: cards.get(column.id) ?? [] }));
}

/** What moving a card to a column changes: a new status, or fields of Update task. */
export type BoardMove =
  | { kind: 'status'; statusId: string }
  | { kind: 'update'; patch: { assignedToUserId: string | null } | { priority: number } };

/** The change that puts `row` in `columnId`; undefined when it is there already. */
export function boardMove(row: TaskRow, by: BoardGrouping, columnId: string): BoardMove | undefined {
  if (keyOf(row, by) === columnId) return undefined;
  if (by === 'status') return { kind: 'status', statusId: columnId };
  if (by === 'assignee')
    return { kind: 'update', patch: { assignedToUserId: columnId === NOBODY ? null : columnId } };
  return { kind: 'update', patch: { priority: Number(columnId) } };
}
