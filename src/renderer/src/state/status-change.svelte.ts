// Status changes behave one way wherever they are made (a task row, the board, the task's detail,
// the bulk bar): applied at once, with a toast naming the task and offering Undo. A message to go
// with the change (kept on the task, as the service keeps it) is asked the same way everywhere:
// every status picker ends with "With a message…" (`StatusPicker.svelte`), and a card dropped on
// the board with Alt held asks for one; both open the one dialog `StatusMessageHost.svelte` shows.
import type { TaskRow } from '@shared/ipc/tasks';
import { org } from './app';
import { taskWrites } from './task-writes';
import { asOneEdit } from './undo';

type TaskRef = Pick<TaskRow, 'id' | 'name'>;

/** The value of the last option of every status picker: choosing it asks for a message. */
export const WITH_MESSAGE = '\u0000with-message';
export const WITH_MESSAGE_LABEL = 'With a message…';

/**
 * Sets the status of one task or several (several are one edit for undo: one toast, one Ctrl+Z).
 * A refusal is told in a toast by the write itself.
 */
export async function changeStatus(
  tasks: readonly TaskRef[],
  statusId: string,
  message?: string | undefined,
): Promise<void> {
  if (tasks.length === 1) {
    await taskWrites.setStatus(tasks[0]!, statusId, message);
    return;
  }
  const name = org.status(statusId)?.name ?? 'a new status';
  await asOneEdit(
    (done) => `Marked ${name} — ${done} ${done === 1 ? 'task' : 'tasks'}`,
    () => Promise.all(tasks.map((task) => taskWrites.setStatus(task, statusId, message))),
  );
}

/** A status change waiting for its message (and its status, when asked from a picker). */
export interface StatusMessageRequest {
  tasks: readonly TaskRef[];
  /** The status chosen already (a board drop); undefined when the dialog asks it too. */
  statusId: string | undefined;
}

class StatusMessage {
  #request = $state<StatusMessageRequest | undefined>();

  get request(): StatusMessageRequest | undefined {
    return this.#request;
  }

  /** Opens the dialog for `tasks`; nothing changes until it is confirmed. */
  ask(tasks: readonly TaskRef[], statusId?: string): void {
    if (tasks.length === 0) return;
    this.#request = { tasks: [...tasks], statusId };
  }

  close(): void {
    this.#request = undefined;
  }
}

export const statusMessage = new StatusMessage();
