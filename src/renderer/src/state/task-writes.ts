// Every change a view makes to a task goes through here, on the one write path (`runWrite`): a
// refusal is told in a toast naming the field, or, for a create, answered for the form to show.
import type { ChannelInput } from '@shared/ipc/contract';
import type { TaskRow } from '@shared/ipc/tasks';
import { runWrite } from './writes';

/** The fields of Update task (null resets where the service allows it). */
export type TaskPatch = ChannelInput<'tasks.update'>['changes'];
export type NewTask = ChannelInput<'tasks.create'>;

type TaskRef = Pick<TaskRow, 'id' | 'name'>;

export const taskWrites = {
  update(task: TaskRef, patch: TaskPatch) {
    return runWrite(
      'tasks.update',
      { taskId: task.id, changes: patch },
      { failure: `Could not change '${task.name}'` },
    );
  },
  setStatus(task: TaskRef, statusId: string, message?: string) {
    return runWrite(
      'tasks.setStatus',
      { taskId: task.id, statusId, ...(message ? { message } : {}) },
      { failure: `Could not change the status of '${task.name}'` },
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
    return runWrite('tasks.addTag', { taskId: task.id, tagId }, { failure: `Could not tag '${task.name}'` });
  },
  removeTag(task: TaskRef, tagId: string) {
    return runWrite(
      'tasks.removeTag',
      { taskId: task.id, tagId },
      { failure: `Could not remove the tag from '${task.name}'` },
    );
  },
  setCustomField(task: TaskRef, fieldId: string, value: unknown) {
    return taskWrites.setCustomFields(task, [{ id: fieldId, value }]);
  },
  setCustomFields(task: TaskRef, values: { id: string; value: unknown }[]) {
    return runWrite(
      'tasks.setCustomFields',
      { taskId: task.id, values },
      { failure: `Could not change the custom fields of '${task.name}'` },
    );
  },
  delete(task: TaskRef) {
    return runWrite('tasks.delete', { taskId: task.id }, { failure: `Could not delete '${task.name}'` });
  },
  /**
   * Creates a task; its id is local until the service acknowledges it. A refusal is answered,
   * not toasted: the form shows it next to the field. Absent fields travel as undefined and are
   * dropped by the JSON of the bridge.
   */
  create(input: NewTask) {
    return runWrite('tasks.create', input);
  },
};
