// How values read on screen: dates, relative times, durations, priorities. Pure functions,
// so the views and their tests agree.

import { instantOf, type ServiceClock } from '@shared/service-clock';

const DAY_MS = 86_400_000;

/** Parses the service's `YYYY-MM-DD` as a local calendar date. */
export function parseDay(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

export function toDayString(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "Today", "Tomorrow", "Yesterday", "Mon 3 Mar", or with the year when it is not this year. */
export function formatDay(value: string | null | undefined, now = new Date()): string {
  if (!value) return '';
  const day = parseDay(value);
  if (!day) return value;
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const diff = Math.round((day.getTime() - today.getTime()) / DAY_MS);
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  if (diff === -1) return 'Yesterday';
  return dayFormat(day.getFullYear() === today.getFullYear()).format(day);
}

// `toLocaleDateString` builds a new Intl.DateTimeFormat on every call, which made formatDay the
// costliest function of a task row scrolled into view (bench/scenarios/renderer.ts, profiled);
// the two formats are built once and reused.
const dayFormats = new Map<boolean, Intl.DateTimeFormat>();
function dayFormat(sameYear: boolean): Intl.DateTimeFormat {
  let format = dayFormats.get(sameYear);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, {
      weekday: sameYear ? 'short' : undefined,
      day: 'numeric',
      month: 'short',
      year: sameYear ? undefined : 'numeric',
    });
    dayFormats.set(sameYear, format);
  }
  return format;
}

/** Whether a deadline has passed (a task due today is not overdue). */
export function isOverdue(value: string | null | undefined, now = new Date()): boolean {
  if (!value) return false;
  const day = parseDay(value);
  if (!day) return false;
  return day.getTime() < new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
}

/**
 * The moment of a timestamp read on `clock`. The service's stamps (and the cache's copies of
 * them) carry no zone: the account's service clock (`sync.serviceClock`) says whether they are
 * UTC or local time; the app's own stamps (`lastSyncedAt`) are local time. A stamp naming its
 * zone is read on it.
 */
export function parseMoment(value: string, clock: ServiceClock): Date | undefined {
  const at = instantOf(value, clock);
  return at === undefined ? undefined : new Date(at);
}

/** "just now", "1 minute ago", "5 minutes ago", "3 h ago", "2 days ago", then the date. */
export function formatRelative(
  value: string | null | undefined,
  clock: ServiceClock,
  now = new Date(),
): string {
  if (!value) return '';
  const moment = parseMoment(value, clock);
  return moment ? formatRelativeDate(moment, now) : value;
}

export function formatRelativeDate(moment: Date, now = new Date()): string {
  const seconds = Math.round((now.getTime() - moment.getTime()) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return wallClock(moment, LONG_AGO);
}

// Built once, like the day formats above: `toLocaleString` and `toLocaleDateString` build a new
// Intl.DateTimeFormat on every call, which made these two the costliest functions of opening an
// inbox of hundreds of rows (bench/scenarios/inbox.ts, profiled). A formatter keeps the zone it
// was built in, so these work in UTC on the moment moved by this machine's offset at that
// instant (which `Date` reads from the zone in force): a change of the machine's zone shows at once.
const wallClockFormats = new Map<Intl.DateTimeFormatOptions, Intl.DateTimeFormat>();
/** `options`: one of the constant option sets below (the cache is keyed by the object). */
function wallClock(moment: Date, options: Intl.DateTimeFormatOptions): string {
  let format = wallClockFormats.get(options);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' });
    wallClockFormats.set(options, format);
  }
  return format.format(new Date(moment.getTime() - moment.getTimezoneOffset() * 60_000));
}
const LONG_AGO: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
const MOMENT: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** A timestamp read on `clock`, as a date and time of this machine's zone. */
export function formatMoment(value: string | null | undefined, clock: ServiceClock): string {
  if (!value) return '';
  const moment = parseMoment(value, clock);
  return moment ? wallClock(moment, MOMENT) : value;
}

/** Minutes as "2 h 30 min", "45 min", "3 h". */
export function formatMinutes(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return '';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h && m) return `${h} h ${m} min`;
  if (h) return `${h} h`;
  return `${m} min`;
}

export const BLOCKER = 50;
export const EMERGENCY = 100;

/** The priorities a task can have: 1-10, Blocker (50) and Emergency (100). */
export const PRIORITIES: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, BLOCKER, EMERGENCY];

export function priorityLabel(priority: number | null | undefined): string {
  if (priority === null || priority === undefined) return '';
  if (priority === BLOCKER) return 'Blocker';
  if (priority === EMERGENCY) return 'Emergency';
  return String(priority);
}

/** The class of a priority's badge (styles/chips.css): Emergency, Blocker and 8-10 stand out. */
export function priorityTone(priority: number): '' | 'high' | 'blocker' | 'emergency' {
  if (priority === BLOCKER) return 'blocker';
  if (priority === EMERGENCY) return 'emergency';
  return priority >= 8 && priority <= 10 ? 'high' : '';
}

/** A priority's color, matching its badge: Emergency, Blocker and 8-10 stand out. */
export function priorityColor(priority: number): string {
  // The emergency token is its badge's (white) text; the badge's fill is the color.
  if (priority === EMERGENCY) return 'var(--color-priority-emergency-bg)';
  if (priority === BLOCKER) return 'var(--color-priority-blocker)';
  if (priority >= 8 && priority <= 10) return 'var(--color-warning)';
  return 'var(--color-text-faint)';
}

/** Colors of the 24 folder/project colors of the service (1-24), spread around the hue wheel. */
export function projectColor(color: number | null | undefined): string {
  if (!color || color < 1 || color > 24) return 'var(--color-text-faint)';
  const hue = Math.round(((color - 1) * 360) / 24);
  return `hsl(${hue} 60% 52%)`;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    (parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}

/**
 * A task's number as shown: the service's short id, or "new" while a task made here has none yet
 * (created offline, not acknowledged): never an empty or bare "#".
 */
export function shortIdLabel(shortId: string | null | undefined, hash = false): string {
  return shortId ? `${hash ? '#' : ''}${shortId}` : 'new';
}
