// Once a day, after the day's first completed sync: a toast for my open tasks due today and one
// for those due tomorrow, when the Notices settings want them (the core raises the system
// notifications). The tasks are Home's (`tasks.due`: assigned to me or awaiting my action).
import { dueNoticeQuery, dueNotices, type DueNoticeKind } from '@shared/due-notices';
import type { Bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';
import { afterFirstScreen } from '../lib/when-idle';

const LABELS: Record<DueNoticeKind, string> = { dueToday: 'due today', dueTomorrow: 'due tomorrow' };

export function watchDueTasks(
  bridge: Bridge,
  wanted: (kind: DueNoticeKind) => boolean,
  showAll: () => void,
  /** The active account's id: each account's tasks are told once a day. */
  account: () => string | null,
  clock: () => Date = () => new Date(),
): () => void {
  /** The accounts and days told, as `account day`. */
  const told = new Set<string>();
  const check = async (): Promise<void> => {
    const query = dueNoticeQuery(clock());
    const key = `${account() ?? ''} ${query.today}`;
    if (told.has(key)) return;
    // Neither toast wanted (the default: the core raises these as system notifications): no task
    // is read. Not marked as told, so turning a toast on today still shows it after the next sync.
    if (!wanted('dueToday') && !wanted('dueTomorrow')) return;
    const status = await bridge.invoke('sync.status', {}).catch(() => undefined);
    if (!status?.lastSyncedAt) return;
    // Told only once read: a failed read is tried again at the next sync's end, not tomorrow.
    const due = await bridge.invoke('tasks.due', query).catch(() => undefined);
    if (!due) return;
    told.add(key);
    for (const { kind, count, tasks } of dueNotices(due)) {
      if (!wanted(kind)) continue;
      toasts.show(
        `${count} ${count === 1 ? 'task' : 'tasks'} ${LABELS[kind]}: ${tasks[0]!.name}${count > 1 ? '…' : ''}`,
        'info',
        8000,
        { label: 'Show', run: showAll },
      );
    }
  };
  // The check reads the cache after the first screen is drawn, also when a sync ends before then
  // (the start's refresh), so that read never competes with the first view's.
  // One check at a time: two at once (the first screen's and a sync's) would both read and toast.
  // A sync that ends during a check is checked again after it (the check may have read the
  // status before that sync ended, and found none yet).
  let checking: Promise<void> | undefined;
  let again = false;
  const checkOnce = (): Promise<void> => {
    if (checking) {
      again = true;
      return checking;
    }
    checking = check().finally(() => {
      checking = undefined;
      if (again) {
        again = false;
        void checkOnce();
      }
    });
    return checking;
  };
  const firstScreen = afterFirstScreen();
  void firstScreen.then(checkOnce);
  return bridge.on('sync.onDidChangeStatus', (status) => {
    if (!status.running && status.lastSyncedAt) void firstScreen.then(checkOnce);
  });
}
