// The task open in the detail panel or full view: its fields, subtasks, messages, tags and
// custom fields, read again when the cache says this task (or its messages) changed.
import type { TaskDetail } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { failedReadAgain, failedReadNote } from '../lib/errors';

export class TaskDetailState {
  #detail = $state.raw<TaskDetail | undefined>();
  #error = $state<string | undefined>();
  #missing = $state(false);
  #loading = $state(true);
  readonly #bridge: Bridge;
  readonly taskId: string;

  constructor(bridge: Bridge, taskId: string) {
    this.#bridge = bridge;
    this.taskId = taskId;
  }

  get detail(): TaskDetail | undefined {
    return this.#detail;
  }
  get error(): string | undefined {
    return this.#error;
  }
  /** The task is not in the cache (deleted, or never synced). */
  get missing(): boolean {
    return this.#missing;
  }
  get loading(): boolean {
    return this.#loading;
  }

  start(): () => void {
    void this.load();
    return onCacheChange(
      this.#bridge,
      ['tasks', 'messages', 'tags', 'customFields', 'dependencies'],
      () => void this.load(),
      () => [this.taskId, ...(this.#detail?.subtasks.map((task) => task.id) ?? [])],
    );
  }

  async load(): Promise<void> {
    try {
      this.#detail = await this.#bridge.invoke('tasks.detail', { taskId: this.taskId });
      this.#error = undefined;
      this.#missing = false;
    } catch (err) {
      const failed = failedReadAgain(err, 'taskId');
      if (failed === 'gone') {
        // Gone while open (deleted here, by an undo of its create, or by someone else): the
        // panel says so instead of showing the task it no longer is.
        this.#missing = true;
        this.#detail = undefined;
      } else {
        if (failed === 'not-held') this.#detail = undefined;
        this.#error = failedReadNote(err, this.#detail !== undefined);
      }
    } finally {
      this.#loading = false;
    }
  }
}
