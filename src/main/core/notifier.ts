/** The system-notification port: Electron's Notification in the shell, a log line in the web host. */
export interface Notifier {
  notify(notification: { title: string; body: string }): void;
}

export interface ActionRequiredTask {
  id: string;
  title: string;
}

/**
 * Notifies once when a task becomes action-required for the acting user. Feed it the acting
 * user's full action-required list after each sync; the first list is the baseline (no burst of
 * notifications at start-up), and a task that leaves the list and comes back notifies again.
 */
export function createActionRequiredWatcher(notifier: Notifier): {
  update(tasks: ActionRequiredTask[]): void;
} {
  let known: Set<string> | undefined;
  return {
    update(tasks) {
      const current = new Set(tasks.map((t) => t.id));
      if (known) {
        for (const task of tasks) {
          if (!known.has(task.id)) notifier.notify({ title: 'Your action is required', body: task.title });
        }
      }
      known = current;
    },
  };
}
