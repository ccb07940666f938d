// Once a day, after the day's first completed sync: a toast for my open tasks due today and one
// for those due tomorrow, when the Notices settings want them (the core raises the system
// notifications).
import type { Bridge } from '../lib/bridge';
import { toDayString } from '../lib/format';
import { toasts } from '../lib/toasts.svelte';
import { afterFirstScreen } from '../lib/when-idle';

export function watchDueTasks(
  bridge: Bridge,
  wanted: (kind: 'dueToday' | 'dueTomorrow') => boolean,
  showAll: () => void,
  clock: () => Date = () => new Date(),
): () => void {
  let told: string | undefined;
  const check = async (): Promise<void> => {
    const now = clock();
    const today = toDayString(now);
    if (told === today) return;
    // Neither toast wanted (the default: the core raises these as system notifications): the
    // thousands of assigned tasks are not read. Not marked as told, so turning a toast on
    // today still shows it after the next sync.
    if (!wanted('dueToday') && !wanted('dueTomorrow')) return;
    const status = await bridge.invoke('sync.status', {}).catch(() => undefined);
    if (!status?.lastSyncedAt) return;
    told = today;
    const tomorrow = toDayString(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
    const { rows } = await bridge
      .invoke('tasks.myWork', { kind: 'assigned', limit: 5000 })
      .catch(() => ({ rows: [] }));
    for (const [kind, day, label] of [
      ['dueToday', today, 'due today'],
      ['dueTomorrow', tomorrow, 'due tomorrow'],
    ] as const) {
      const due = rows.filter((row) => !row.closed && row.deadline?.slice(0, 10) === day);
      if (due.length && wanted(kind))
        toasts.show(
          `${due.length} ${due.length === 1 ? 'task' : 'tasks'} ${label}: ${due[0]!.name}${due.length > 1 ? '…' : ''}`,
          'info',
          8000,
          {
            label: 'Show',
            run: showAll,
          },
        );
    }
  };
  // The check reads every assigned task (thousands at scale): after the first screen is drawn,
  // also when a sync ends before then (the start's refresh), so that read never competes with
  // the first view's.
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
