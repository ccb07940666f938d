// Every change a view makes to a task goes through here: one call to the core's write channel,
// and a toast naming the field when the core refuses it. The core applies the change to the
// cache at once and queues it for the service, so views update through cache events.
import type { TaskRow } from '@shared/ipc/tasks';
import type { TodoLists } from '@shared/api/tasks';
import { toasts } from '../lib/toasts.svelte';
import { bridge, type Bridge } from '../lib/bridge';

/** The fields of Update task a view can change (null resets where the service allows it). */
export interface TaskPatch {
  title?: string;
  projectId?: string;
  parentTaskId?: string;
  startDate?: string | null;
  endDate?: string | null;
  deadline?: string | null;
  scheduleDate?: string | null;
  priority?: number;
  estimate?: number | null;
  progress?: number | null;
  storyPoints?: number | null;
  assignedToUserId?: string | null;
  /** The task's whole set of to-do lists (the service replaces them as one). */
  todoList?: TodoLists;
}

export interface NewTask {
  projectId: string;
  title: string;
  parentTaskId?: string | undefined;
  message?: string | undefined;
  toUserId?: string | undefined;
  taskTypeId?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  deadline?: string | undefined;
  estimate?: number | undefined;
  storyPoints?: number | undefined;
  priority?: number | undefined;
}

type TaskRef = Pick<TaskRow, 'id' | 'name'>;

export class TaskWrites {
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** Runs a write; on failure shows `failure: reason` (naming the field) and answers false. */
  async #run(failure: string, write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (err) {
      toasts.error(failure, err);
      return false;
    }
  }

  update(task: TaskRef, patch: TaskPatch): Promise<boolean> {
    return this.#run(`Could not change '${task.name}'`, () =>
      this.#bridge.invoke('tasks.update', { taskId: task.id, changes: patch }),
    );
  }
  setStatus(task: TaskRef, statusId: string, message?: string): Promise<boolean> {
    return this.#run(`Could not change the status of '${task.name}'`, () =>
      this.#bridge.invoke('tasks.setStatus', { taskId: task.id, statusId, ...(message ? { message } : {}) }),
    );
  }
  comment(task: TaskRef, message: string): Promise<boolean> {
    return this.#run(`Could not add the comment to '${task.name}'`, () =>
      this.#bridge.invoke('tasks.comment', { taskId: task.id, message }),
    );
  }
  reply(task: TaskRef, toUserId: string, message: string): Promise<boolean> {
    return this.#run(`Could not reply on '${task.name}'`, () =>
      this.#bridge.invoke('tasks.reply', {
        taskId: task.id,
        actionRequiredUserId: toUserId,
        ...(message ? { message } : {}),
      }),
    );
  }
  addTag(task: TaskRef, tagId: string): Promise<boolean> {
    return this.#run(`Could not tag '${task.name}'`, () =>
      this.#bridge.invoke('tasks.addTag', { taskId: task.id, tagId }),
    );
  }
  removeTag(task: TaskRef, tagId: string): Promise<boolean> {
    return this.#run(`Could not remove the tag from '${task.name}'`, () =>
      this.#bridge.invoke('tasks.removeTag', { taskId: task.id, tagId }),
    );
  }
  setCustomField(task: TaskRef, fieldId: string, value: unknown): Promise<boolean> {
    return this.setCustomFields(task, [{ id: fieldId, value }]);
  }
  setCustomFields(task: TaskRef, values: { id: string; value: unknown }[]): Promise<boolean> {
    return this.#run(`Could not change the custom fields of '${task.name}'`, () =>
      this.#bridge.invoke('tasks.setCustomFields', { taskId: task.id, values }),
    );
  }
  delete(task: TaskRef): Promise<boolean> {
    return this.#run(`Could not delete '${task.name}'`, () =>
      this.#bridge.invoke('tasks.delete', { taskId: task.id }),
    );
  }
  /** Creates a task; answers its id (local until the service acknowledges it). Throws for the form. */
  async create(input: NewTask): Promise<string> {
    // Absent fields travel as undefined and are dropped by the JSON of the bridge.
    const result = await this.#bridge.invoke('tasks.create', input);
    return result.id;
  }
}

export const taskWrites = new TaskWrites(bridge);
