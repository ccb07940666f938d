// The calendar's arithmetic and wording: month grids, which events fall on a day, the name
// and color of each event type. Months are "YYYY-MM", days "YYYY-MM-DD" (local dates).
import type { EventType } from '@shared/api/events';
import { parseDay, projectColor, toDayString } from './format';

export const EVENT_TYPE_LABELS: Readonly<Record<EventType, string>> = {
  'project-milestone': 'Milestone',
  'project-event': 'Project event',
  'company-event': 'Company event',
  'company-holiday': 'Holiday',
  'personal-vacation': 'Vacation',
  'personal-sick': 'Sick leave',
  'personal-travel': 'Travel',
};

/** One of the 24 project hues per type, far apart on the wheel so the types tell apart. */
const TYPE_HUE: Readonly<Record<EventType, number>> = {
  'project-milestone': 19,
  'project-event': 15,
  'company-event': 10,
  'company-holiday': 1,
  'personal-vacation': 4,
  'personal-sick': 23,
  'personal-travel': 7,
};

/** Every type, in the service's order (the record above is typed to hold each one). */
export const EVENT_TYPE_LIST = Object.keys(EVENT_TYPE_LABELS) as EventType[];

/**
 * A rule's message in the words of the form: the shared schema says "is required for
 * personal-vacation" (the service's type id); the form says "is required for a vacation".
 */
export function inTypeWords(message: string, eventType: EventType): string {
  return message.replace(eventType, `a ${EVENT_TYPE_LABELS[eventType].toLowerCase()}`);
}

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPE_LABELS, value);
}

export function eventTypeLabel(type: string): string {
  return isEventType(type) ? EVENT_TYPE_LABELS[type] : type;
}

export function eventColor(type: string): string {
  return isEventType(type) ? projectColor(TYPE_HUE[type]) : 'var(--color-text-faint)';
}

export function monthOf(day: Date): string {
  return toDayString(day).slice(0, 7);
}

export function isMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/** The month `delta` months from `month`. */
export function shiftMonth(month: string, delta: number): string {
  const [year, mon] = month.split('-').map(Number);
  return monthOf(new Date(year ?? 1970, (mon ?? 1) - 1 + delta, 1));
}

/** The 42 days (6 weeks, Monday first) that show a month, with the days around it. */
export function monthGrid(month: string): string[] {
  const first = parseDay(`${month}-01`) ?? new Date();
  const offset = (first.getDay() + 6) % 7;
  return Array.from({ length: 42 }, (_, i) =>
    toDayString(new Date(first.getFullYear(), first.getMonth(), 1 - offset + i)),
  );
}

/** The first and last day of a month. */
export function monthRange(month: string): { from: string; to: string } {
  const first = parseDay(`${month}-01`) ?? new Date();
  return { from: `${month}-01`, to: toDayString(new Date(first.getFullYear(), first.getMonth() + 1, 0)) };
}

export interface Dated {
  startDate: string;
  endDate?: string | null | undefined;
}

/** Whether an event covers a day (single-day events have no end date). */
export function coversDay(event: Dated, day: string): boolean {
  return event.startDate <= day && (event.endDate ?? event.startDate) >= day;
}

/** One event's bar in a week row of the month grid. */
export interface WeekBar<E extends Dated> {
  event: E;
  /** The column (0 Monday .. 6 Sunday) the bar starts in, and how many days it covers. */
  start: number;
  span: number;
  /** The line of the row it is drawn on, 0 the top; at `lanes` or beyond it has no room. */
  lane: number;
  /** It began before this week (drawn open on the left) or goes on past it (open on the right). */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

/**
 * A week row's events as bars, the way a desktop calendar lays them out: a multi-day event is
 * one bar across the days it covers in the week (cut at the week's edges, going on in the next
 * row), each on the first line free over all its days, so bars never overlap. The longer and
 * earlier events take the top lines. `week` is the row's 7 days, Monday first. Returns the
 * bars with a line below `lanes` (those drawn) and, per day, the events of the day with no
 * room (each day's "+N more").
 */
export function weekBars<E extends Dated>(
  events: readonly E[],
  week: readonly string[],
  lanes: number,
): { bars: WeekBar<E>[]; hidden: E[][] } {
  const first = week[0];
  const last = week[week.length - 1];
  if (first === undefined || last === undefined) return { bars: [], hidden: [] };
  const placed = events
    .map((event, order) => {
      const end = event.endDate ?? event.startDate;
      const from = event.startDate < first ? 0 : week.indexOf(event.startDate);
      const to = end > last ? week.length - 1 : week.indexOf(end);
      return { event, order, from, to, end };
    })
    .filter(({ event, end, from, to }) => event.startDate <= last && end >= first && from >= 0 && to >= from)
    .sort((a, b) => a.from - b.from || b.to - b.from - (a.to - a.from) || a.order - b.order);
  // taken[lane][day]: whether the lane is used on that day.
  const taken: boolean[][] = [];
  const bars: WeekBar<E>[] = [];
  const hidden: E[][] = week.map(() => []);
  for (const { event, from, to, end } of placed) {
    let lane = 0;
    while (taken[lane]?.slice(from, to + 1).some(Boolean)) lane++;
    const line = (taken[lane] ??= week.map(() => false));
    for (let day = from; day <= to; day++) line[day] = true;
    if (lane < lanes)
      bars.push({
        event,
        start: from,
        span: to - from + 1,
        lane,
        continuesBefore: event.startDate < first,
        continuesAfter: end > last,
      });
    else for (let day = from; day <= to; day++) hidden[day]?.push(event);
  }
  return { bars, hidden };
}

/** "March 2026" for a month. */
export function monthTitle(month: string): string {
  const first = parseDay(`${month}-01`) ?? new Date();
  return first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
}

/** From 1 January `years` years before `now` to 31 December `years` years after. */
export function yearsAround(years: number, now = new Date()): { from: string; to: string } {
  return {
    from: toDayString(new Date(now.getFullYear() - years, 0, 1)),
    to: toDayString(new Date(now.getFullYear() + years, 11, 31)),
  };
}

/** The keys that move the focused day of the month grid. */
export type DayKey =
  'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown';

export function isDayKey(key: string): key is DayKey {
  return ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(
    key,
  );
}

/**
 * The day a key moves the focus to from `day` (`YYYY-MM-DD`): a day or a week either way, the
 * week's Monday or Sunday (Home, End), the same day a month before or after (Page Up, Page
 * Down; the month's last day when it is shorter), as a date picker's grid moves.
 */
export function moveDay(day: string, key: DayKey): string {
  const date = parseDay(day) ?? new Date();
  const [y, m, d] = [date.getFullYear(), date.getMonth(), date.getDate()];
  const weekday = (date.getDay() + 6) % 7;
  switch (key) {
    case 'ArrowLeft':
      return toDayString(new Date(y, m, d - 1));
    case 'ArrowRight':
      return toDayString(new Date(y, m, d + 1));
    case 'ArrowUp':
      return toDayString(new Date(y, m, d - 7));
    case 'ArrowDown':
      return toDayString(new Date(y, m, d + 7));
    case 'Home':
      return toDayString(new Date(y, m, d - weekday));
    case 'End':
      return toDayString(new Date(y, m, d + 6 - weekday));
    case 'PageUp':
    case 'PageDown': {
      const target = m + (key === 'PageUp' ? -1 : 1);
      const last = new Date(y, target + 1, 0).getDate();
      return toDayString(new Date(y, target, Math.min(d, last)));
    }
  }
}

/** "Sun 1 Nov 2026": a day as its grid cell names it, with the number the cell shows. */
export function dayName(day: string): string {
  const date = parseDay(day);
  if (!date) return day;
  const [weekday, month] = date.toDateString().split(' ');
  return `${weekday} ${date.getDate()} ${month} ${date.getFullYear()}`;
}
