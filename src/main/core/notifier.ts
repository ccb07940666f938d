import type { ChannelOutput } from '../../shared/ipc/contract';
import type { EventPayload } from '../../shared/ipc/events';
import type { NotificationPrefs } from '../../shared/ipc/settings';
import { noticeKindOf, type NoticeOfUpdate } from '../../shared/ipc/updates';
import { dueNoticeQuery, dueNotices, type DueNoticeKind } from '../../shared/due-notices';
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
 * Wires the watcher to an account's core: after each completed sync run that follows a change of
 * the cached tasks (`cache.onDidChange` naming them) it reads the acting user's action-required
 * tasks from the cache. The first completed run is the baseline, so opening the app (or
 * switching accounts) notifies nothing. Returns the unsubscribe.
 */
export function watchActionRequired(
  core: WatchedCore,
  notifier: Notifier,
  log: (message: string) => void,
  /** Whether the user wants these as system notifications (Settings, per kind). */
  enabled: () => boolean = () => true,
): () => void {
  const watcher = createActionRequiredWatcher({
    notify: (notification) => {
      if (enabled()) notifier.notify(notification);
    },
  });
  let lastSyncedAt: string | null | undefined;
  let reading = Promise.resolve();
  // Whether a task row changed since the list was last read (the first run reads its baseline).
  // A pull that stored no task leaves the list as it was: reading thousands of rows again then
  // held the core's thread 15-30 ms after every pull, delaying whatever call came next.
  let tasksChanged = true;
  const read = async (): Promise<void> => {
    // Ids and names only: whole rows of up to 5,000 tasks were read for these two fields.
    const result = await core.dispatch('tasks.myWorkNames', { kind: 'actionRequired', limit: 5000 });
    if (!result.ok) {
      tasksChanged = true;
      log(`action-required check failed: ${result.error.message}`);
      return;
    }
    const tasks = result.value as ChannelOutput<'tasks.myWorkNames'>;
    watcher.update(tasks.map((task) => ({ id: task.id, title: task.name })));
  };
  return core.events.onAny((name, payload) => {
    if (name === 'cache.onDidChange') {
      if ((payload as EventPayload<'cache.onDidChange'>).entities.includes('tasks')) tasksChanged = true;
      return;
    }
    if (name !== 'sync.onDidChangeStatus') return;
    const status = payload as EventPayload<'sync.onDidChangeStatus'>;
    if (status.running || status.lastSyncedAt === null || status.lastSyncedAt === lastSyncedAt) return;
    lastSyncedAt = status.lastSyncedAt;
    if (!tasksChanged) return;
    tasksChanged = false;
    reading = reading.then(read, read);
  });
}

/** What one notice kind says, for one task or several. */
const NOTICE_TITLES: Record<NoticeOfUpdate, string> = {
  comment: 'New comment on your task',
  assigned: 'Assigned to you',
  statusChange: 'Status changed',
};

const DUE_TITLES: Record<DueNoticeKind, string> = { dueToday: 'Due today', dueTomorrow: 'Due tomorrow' };

/**
 * System notifications for what a pull brought on the user's tasks (the Updates view's items:
 * comments, assignments, status changes) and, once a day, for tasks due today and tomorrow,
 * each kind as the user's settings say. After each completed sync run; the first run is the
 * baseline (nothing that was there before the app opened is announced).
 */
export function watchUpdateNotices(
  core: WatchedCore,
  notifier: Notifier,
  log: (message: string) => void,
  prefs: () => NotificationPrefs,
  clock: () => Date = () => new Date(),
): () => void {
  let lastSyncedAt: string | null | undefined;
  let seenId: number | undefined;
  let dueDay: string | undefined;
  let reading = Promise.resolve();
  const read = async (): Promise<void> => {
    const result = await core.dispatch('updates.list', { limit: 500 });
    if (!result.ok) {
      log(`updates check failed: ${result.error.message}`);
      return;
    }
    const { groups } = result.value as ChannelOutput<'updates.list'>;
    const newest = Math.max(0, ...groups.flatMap((g) => g.items.map((i) => i.id)));
    const wanted = prefs();
    if (seenId !== undefined) {
      for (const group of groups) {
        const kinds = new Set(
          group.items.filter((i) => i.id > seenId! && !i.read).flatMap((i) => noticeKindOf(i, group) ?? []),
        );
        for (const kind of kinds)
          if (wanted[kind].system)
            notifier.notify({
              title: NOTICE_TITLES[kind],
              body: `#${group.shortId} ${group.name}`,
              taskId: group.taskId,
            });
      }
    }
    seenId = Math.max(seenId ?? 0, newest);

    // Due today and tomorrow: once a day, after the day's first completed sync. The same read as
    // Home's groups (assigned to the user or awaiting their action), so both count alike.
    const query = dueNoticeQuery(clock());
    if (dueDay === query.today) return;
    const due = await core.dispatch('tasks.due', query);
    if (!due.ok) {
      // Not marked as done for the day: the next completed sync reads it again.
      log(`due tasks check failed: ${due.error.message}`);
      return;
    }
    dueDay = query.today;
    for (const { kind, count, tasks } of dueNotices(due.value as ChannelOutput<'tasks.due'>)) {
      if (!wanted[kind].system) continue;
      notifier.notify({
        title: `${DUE_TITLES[kind]}: ${count} ${count === 1 ? 'task' : 'tasks'}`,
        body: tasks.map((t) => t.name).join(', ') + (count > tasks.length ? '…' : ''),
        ...(count === 1 ? { taskId: tasks[0]!.id } : {}),
      });
    }
  };
  return core.events.onAny((name, payload) => {
    if (name !== 'sync.onDidChangeStatus') return;
    const status = payload as EventPayload<'sync.onDidChangeStatus'>;
    if (status.running || status.lastSyncedAt === null || status.lastSyncedAt === lastSyncedAt) return;
    lastSyncedAt = status.lastSyncedAt;
    reading = reading.then(read, read);
  });
}
