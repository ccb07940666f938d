// Which app-wide dialog is open, so a shortcut, a menu or a button anywhere can open one.
export interface NewTaskRequest {
  projectId?: string | undefined;
  parentTaskId?: string | undefined;
}

/** A create whose dialog belongs to a view (the sidebar's, the calendar's, the CRM's). */
export type CreateRequest = 'folder' | 'project' | 'event' | 'contact' | 'account';

export class Dialogs {
  #newTask = $state<NewTaskRequest | undefined>();
  #create = $state<CreateRequest | undefined>();

  get newTask(): NewTaskRequest | undefined {
    return this.#newTask;
  }
  openNewTask(request: NewTaskRequest = {}): void {
    this.#newTask = request;
  }
  closeNewTask(): void {
    this.#newTask = undefined;
  }

  /** Asks for a create from anywhere (the palette); the view holding its dialog takes it. */
  requestCreate(kind: CreateRequest): void {
    this.#create = kind;
  }
  /**
   * True once for a pending request of this kind, which it clears: called in the holding view's
   * `$effect`, so a request made before the view is shown is taken when it mounts.
   */
  take(kind: CreateRequest): boolean {
    if (this.#create !== kind) return false;
    this.#create = undefined;
    return true;
  }
}

export const dialogs = new Dialogs();
