import type { ChannelOutput } from '../../shared/ipc/contract';
import type { EventPayload } from '../../shared/ipc/events';
import type { Core } from './core';

/** The system-notification port: Electron's Notification in the shell, a log line in the web host. */
export interface Notifier {
  /** `taskId`: the task the notification is about; clicking it opens that task. */
  notify(notification: { title: string; body: string; taskId?: string }): void;
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
          if (!known.has(task.id))
            notifier.notify({ title: 'Your action is required', body: task.title, taskId: task.id });
        }
      }
      known = current;
    },
  };
}

/** The part of a core the watcher needs: its dispatch and its events. */
type WatchedCore = Pick<Core, 'dispatch' | 'events'>;

/**
 * Wires the watcher to an account's core: after each completed sync run it reads the acting
 * user's action-required tasks from the cache. The first completed run is the baseline, so
 * opening the app (or switching accounts) notifies nothing. Returns the unsubscribe.
 */
export function watchActionRequired(
  core: WatchedCore,
  notifier: Notifier,
  log: (message: string) => void,
): () => void {
  const watcher = createActionRequiredWatcher(notifier);
  let lastSyncedAt: string | null | undefined;
  let reading = Promise.resolve();
  const read = async (): Promise<void> => {
    const result = await core.dispatch('tasks.myWork', { kind: 'actionRequired', limit: 5000 });
    if (!result.ok) {
      log(`action-required check failed: ${result.error.message}`);
      return;
    }
    const { rows } = result.value as ChannelOutput<'tasks.myWork'>;
    watcher.update(rows.map((row) => ({ id: row.id, title: row.name })));
  };
  return core.events.onAny((name, payload) => {
    if (name !== 'sync.onDidChangeStatus') return;
    const status = payload as EventPayload<'sync.onDidChangeStatus'>;
    if (status.running || status.lastSyncedAt === null || status.lastSyncedAt === lastSyncedAt) return;
    lastSyncedAt = status.lastSyncedAt;
    reading = reading.then(read, read);
  });
}
