// What Home shows of the user's day, as pure functions of what the core answers: the days it
// asks for, the late / today / this-week groups with their caps, today's events, time logged.
import type { CalendarEvent } from '@shared/api/events';
import type { DueTasks } from '@shared/ipc/tasks';
import type { TaskRow } from '@shared/ipc/tasks';
import { coversDay, isEventType } from '../lib/calendar';
import { formatDay, parseDay, toDayString } from '../lib/format';
import { addDays, weekStartOf } from '../lib/my-time';

/** The computer's clock (a test hands its own). */
export const systemClock = (): Date => new Date();

/** How many tasks each group lists; the rest are "N more", in My Work. */
export const DUE_PER_GROUP = 10;

/**
 * The days Home reads, on this computer's calendar: "today" is the user's local day (not the
 * UTC date), the week runs Monday to Sunday as in My Time. A task's deadline is a day
 * (`YYYY-MM-DD`, the cache holds no other form) and is that local day.
 */
export function homeDays(now: Date): { today: string; monday: string; sunday: string } {
  const today = toDayString(now);
  const monday = weekStartOf(today);
  return { today, monday, sunday: addDays(monday, 6) };
}

/**
 * Milliseconds from `now` to the start of the next local day (a timer set with it fires at
 * midnight on this computer's calendar, a day of 23 or 25 hours included).
 */
export function untilNextDay(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return Math.max(1, next.getTime() - now.getTime());
}

/**
 * When the window comes back to the user (shown again, focused): Home checks then whether the
 * day moved on while the computer slept. Returns the unsubscribe. A test hands its own.
 */
export type OnWake = (listener: () => void) => () => void;

export const windowWakes: OnWake = (listener) => {
  if (typeof document === 'undefined' || typeof window === 'undefined') return () => undefined;
  const onVisible = (): void => {
    if (document.visibilityState === 'visible') listener();
  };
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('focus', listener);
  return () => {
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('focus', listener);
  };
};

export type DueKey = keyof DueTasks;

export interface DueSection {
  key: DueKey;
  title: string;
  /** What an empty group says. */
  empty: string;
  rows: readonly TaskRow[];
  /** How many of the group are not listed (shown as "N more", leading to My Work). */
  more: number;
  /**
   * The My Work tab "N more" opens: Action required when none of the tasks not listed is
   * assigned to me (they only await my action), else Assigned to me. Neither lists exactly
   * the group (My Work has no view by deadline), but this one holds the tasks not listed.
   */
  moreIn: MoreTab;
}

export type MoreTab = 'assigned' | 'action';

/** The tab's name, as the button says it: "3 more in Action required". */
export const MORE_TAB_NAMES: Record<MoreTab, string> = {
  assigned: 'Assigned to me',
  action: 'Action required',
};

const SECTIONS: readonly { key: DueKey; title: string; empty: string }[] = [
  { key: 'late', title: 'Late', empty: 'Nothing late' },
  { key: 'today', title: 'Due today', empty: 'Nothing due today' },
  { key: 'later', title: 'Later this week', empty: 'Nothing else due this week' },
];

/** The groups in the order Home lists them, each capped at `perGroup` rows. */
export function dueSections(due: DueTasks, perGroup = DUE_PER_GROUP): DueSection[] {
  return SECTIONS.map(({ key, title, empty }) => {
    const group = due[key];
    const rows = group.rows.slice(0, perGroup);
    const more = Math.max(0, group.total - rows.length);
    // Rows dropped here (a cap below the core's) are not counted by `unlistedAssigned`: Assigned.
    const onlyAction = more > 0 && group.unlistedAssigned === 0 && rows.length === group.rows.length;
    return { key, title, empty, rows, more, moreIn: onlyAction ? 'action' : 'assigned' };
  });
}

/** The events covering `day`, of the types the calendar knows, by start then name. */
export function eventsOn(events: readonly CalendarEvent[], day: string): CalendarEvent[] {
  return events
    .filter((event) => isEventType(event.eventType) && coversDay(event, day))
    .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name));
}

/**
 * How long a multi-day event goes on, after its type, seen from `today` (Home's day, not the
 * clock's: the two differ from midnight until Home reads the new day): " · until Mon 30 Nov",
 * " · last day"; nothing for a one-day event.
 */
export function eventSpan(event: Pick<CalendarEvent, 'startDate' | 'endDate'>, today: string): string {
  if (!event.endDate || event.endDate === event.startDate) return '';
  return event.endDate === today ? ' · last day' : ` · until ${formatDay(event.endDate, parseDay(today))}`;
}

/** Minutes logged on `today` and over the reports given (the week's). */
export function loggedMinutes(
  reports: readonly { reportDate: string; reported: number }[],
  today: string,
): { today: number; week: number } {
  let day = 0;
  let week = 0;
  for (const report of reports) {
    week += report.reported;
    if (report.reportDate === today) day += report.reported;
  }
  return { today: day, week };
}
