// CSV export of a task list as shown: its filter, sort and toggles (TaskListState.allRows), the
// grid's columns with the words the grid shows (names, not ids), a Project column when the
// rows come from more than one project. Saved by `saveTextFile` (a download; the desktop app
// asks where).
import { toCsv, csvFileName } from '../lib/csv';
import { priorityLabel, toDayString } from '../lib/format';
import { placeTitle } from '../views/routes';
import { saveTextFile } from '../lib/save-file';
import { toasts } from '../lib/toasts.svelte';
import { nav, org, tree } from './app';
import type { TaskListState } from './task-list.svelte';
import type { TaskRow } from '@shared/ipc/tasks';

export function tasksCsv(rows: readonly TaskRow[]): string {
  const withProject = new Set(rows.map((r) => r.projectId)).size > 1;
  const header = [
    'ID',
    'Name',
    ...(withProject ? ['Project'] : []),
    'Status',
    'Assignee',
    'Action required',
    'Priority',
    'Deadline',
    'Progress',
    'Files',
  ];
  const lines = rows.map((row) => [
    row.shortId,
    row.name,
    ...(withProject ? [tree.name(row.projectId) ?? ''] : []),
    org.status(row.statusId)?.name ?? row.statusName,
    row.assignedToUserId ? (org.user(row.assignedToUserId)?.name ?? '') : '',
    row.actionRequiredUserId ? (org.user(row.actionRequiredUserId)?.name ?? '') : '',
    priorityLabel(row.priority),
    row.deadline?.slice(0, 10) ?? '',
    row.progress === null ? '' : `${row.progress}%`,
    String(row.attachmentCount ?? 0),
  ]);
  return toCsv(header, lines);
}

export async function exportTasksCsv(list: TaskListState): Promise<void> {
  let rows: TaskRow[];
  try {
    rows = await list.allRows();
  } catch (err) {
    toasts.error('Could not export the tasks', err);
    return;
  }
  saveTextFile(csvFileName(placeTitle(nav.route), toDayString(new Date())), tasksCsv(rows));
  toasts.show(`Exported ${rows.length} ${rows.length === 1 ? 'task' : 'tasks'}`, 'success');
}
