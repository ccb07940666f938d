// The once-a-day "due today" and "due tomorrow" notices (the core's system notifications and the
// renderer's toasts) count what Home counts: they ask the same core read (`tasks.due`: the
// user's open tasks assigned to them or awaiting their action, by deadline), so the notice and
// Home's groups cannot disagree. Each side words its notice its own way; the days asked and the
// tasks counted are decided here, once.
import type { DueTasks } from './ipc/tasks';

export type DueNoticeKind = 'dueToday' | 'dueTomorrow';

/** How many task names a notice can show (the rest are counted, not named). */
export const DUE_NOTICE_NAMES = 3;

/** One notice: how many of the user's open tasks are due that day, and the first of them. */
export interface DueNotice {
  kind: DueNoticeKind;
  count: number;
  tasks: { id: string; name: string }[];
}

/** A moment's day on this machine's calendar, `YYYY-MM-DD` (the user's local day, not UTC's). */
function localDay(moment: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

/**
 * The `tasks.due` question the notices ask at `now`: from today through tomorrow, so that its
 * `today` group is what is due today and its `later` group what is due tomorrow.
 */
export function dueNoticeQuery(now: Date): { today: string; through: string; perGroup: number } {
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { today: localDay(now), through: localDay(tomorrow), perGroup: DUE_NOTICE_NAMES };
}

/** The notices of an answer to `dueNoticeQuery`, today's first; a day with no task has none. */
export function dueNotices(due: DueTasks): DueNotice[] {
  const notices: DueNotice[] = [];
  for (const [kind, group] of [
    ['dueToday', due.today],
    ['dueTomorrow', due.later],
  ] as const) {
    if (group.total === 0) continue;
    notices.push({
      kind,
      count: group.total,
      tasks: group.rows.map((row) => ({ id: row.id, name: row.name })),
    });
  }
  return notices;
}
