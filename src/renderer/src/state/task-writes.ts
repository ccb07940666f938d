// Every change a view makes to a task goes through here, on the one write path (`runWrite`): a
// refusal is told in a toast naming the field, or, for a create, answered for the form to show.
import type { ChannelInput } from '@shared/ipc/contract';
import type { TaskRow } from '@shared/ipc/tasks';
import { fieldLabel } from '../lib/field-labels';
import { quoted } from '../lib/undo';
import { org, tree } from './app';
import { runWrite } from './writes';

/** The fields of Update task (null resets where the service allows it). */
export type TaskPatch = ChannelInput<'tasks.update'>['changes'];
export type NewTask = ChannelInput<'tasks.create'>;

type TaskRef = Pick<TaskRow, 'id' | 'name'>;

/**
 * What an update does, in words naming the task, for its toast and its undo ("Moved 'Plan' to
 * Website", "Priority of 'Plan' changed"); a long title is shortened (`quoted`).
 */
function updateLabel(task: TaskRef, patch: TaskPatch): string {
  const name = quoted(task.name);
  if (patch.projectId) return `Moved ${name} to ${tree.node(patch.projectId)?.name ?? 'another project'}`;
  if (patch.parentTaskId) return `Made ${name} a subtask`;
  const fields = Object.keys(patch);
  if (fields.length === 1 && 'assignedToUserId' in patch) {
    return patch.assignedToUserId
      ? `Assigned ${name} to ${org.userName(patch.assignedToUserId)}`
      : `Unassigned ${name}`;
  }
  if (fields.length === 1 && 'title' in patch) return `Renamed ${name} to ${quoted(patch.title ?? '')}`;
  if (fields.length === 1) return `${fieldLabel(fields[0]!)} of ${name} changed`;
  return `Changed ${name}`;
}

/** How an edit is offered for undo: always by Ctrl/Cmd+Z; `toast` adds a toast with Undo. */
export interface EditOptions {
  toast?: boolean;
}

export const taskWrites = {
  /** A move (project or parent) is shown in a toast with Undo; other fields when `toast` asks. */
  update(task: TaskRef, patch: TaskPatch, options: EditOptions = {}) {
    return runWrite(
      'tasks.update',
      { taskId: task.id, changes: patch },
      {
        failure: `Could not change '${task.name}'`,
        undoLabel: updateLabel(task, patch),
        undoToast: options.toast ?? !!(patch.projectId || patch.parentTaskId),
      },
    );
  },
  /**
   * Shown in a toast with Undo ("Marked Done — 'Write the brief'") wherever it is made: list,
   * board or detail (`state/status-change.svelte.ts` is the one way views make it).
   */
  setStatus(task: TaskRef, statusId: string, message?: string) {
    return runWrite(
      'tasks.setStatus',
      { taskId: task.id, statusId, ...(message ? { message } : {}) },
      {
        failure: `Could not change the status of ${quoted(task.name)}`,
        undoLabel: `Marked ${org.status(statusId)?.name ?? 'with a new status'} — ${quoted(task.name)}`,
        undoToast: true,
      },
    );
  },
  comment(task: TaskRef, message: string) {
    return runWrite(
      'tasks.comment',
      { taskId: task.id, message },
      { failure: `Could not add the comment to '${task.name}'` },
    );
  },
  reply(task: TaskRef, toUserId: string, message: string) {
    return runWrite(
      'tasks.reply',
      { taskId: task.id, actionRequiredUserId: toUserId, ...(message ? { message } : {}) },
      { failure: `Could not reply on '${task.name}'` },
    );
  },
  addTag(task: TaskRef, tagId: string) {
    return runWrite(
      'tasks.addTag',
      { taskId: task.id, tagId },
      {
        failure: `Could not tag '${task.name}'`,
        undoLabel: `Tagged ${quoted(task.name)} ${org.tagName(tagId)}`,
      },
    );
  },
  removeTag(task: TaskRef, tagId: string) {
    return runWrite(
      'tasks.removeTag',
      { taskId: task.id, tagId },
      {
        failure: `Could not remove the tag from '${task.name}'`,
        undoLabel: `Removed the tag ${org.tagName(tagId)} from ${quoted(task.name)}`,
      },
    );
  },
  setCustomField(task: TaskRef, fieldId: string, value: unknown) {
    return taskWrites.setCustomFields(task, [{ id: fieldId, value }]);
  },
  setCustomFields(task: TaskRef, values: { id: string; value: unknown }[]) {
    return runWrite(
      'tasks.setCustomFields',
      { taskId: task.id, values },
      {
        failure: `Could not change the custom fields of '${task.name}'`,
        undoLabel: `Custom ${values.length === 1 ? 'field' : 'fields'} of ${quoted(task.name)} changed`,
      },
    );
  },
  /**
   * The delete waits a few seconds in the outbox (`TASK_DELETE_HOLD_MS`): its toast's Undo
   * withdraws it within that time; once sent, the task cannot come back.
   */
  delete(task: TaskRef) {
    return runWrite(
      'tasks.delete',
      { taskId: task.id },
      {
        failure: `Could not delete '${task.name}'`,
        undoLabel: `Deleted ${quoted(task.name)}`,
        undoToast: true,
      },
    );
  },
  /**
   * Creates a task; its id is local until the service acknowledges it. A refusal is answered,
   * not toasted: the form shows it next to the field. Absent fields travel as undefined and are
   * dropped by the JSON of the bridge.
   */
  create(input: NewTask) {
    return runWrite('tasks.create', input, { undoLabel: `Created ${quoted(input.title)}` });
  },
};
