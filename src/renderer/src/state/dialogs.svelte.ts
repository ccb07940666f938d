// Which app-wide dialog is open, so a shortcut, a menu or a button anywhere can open one.
export interface NewTaskRequest {
  projectId?: string | undefined;
  parentTaskId?: string | undefined;
}

export class Dialogs {
  #newTask = $state<NewTaskRequest | undefined>();

  get newTask(): NewTaskRequest | undefined {
    return this.#newTask;
  }
  openNewTask(request: NewTaskRequest = {}): void {
    this.#newTask = request;
  }
  closeNewTask(): void {
    this.#newTask = undefined;
  }
}

export const dialogs = new Dialogs();
