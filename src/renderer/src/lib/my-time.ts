// My Time's arithmetic: the week shown (Monday first, as the calendar's month grid), its grid of
// tasks by days with the totals per day, per project and for the week, the chart's bars, and the
// CSV of a range. Pure functions on `YYYY-MM-DD` strings, so the view and its tests agree.
import { toCsv } from './csv';

/** The fields of a time report the week and the CSV read (a `TimeReportView` has them all). */
export interface LoggedTime {
  id: string;
  taskId: string;
  taskName: string;
  projectId: string;
  projectName: string;
  reportDate: string;
  /** Minutes. */
  reported: number;
  note: string;
  isBillable: boolean;
  /** Its create still waits in the outbox. */
  pending: boolean;
}

/** A task a row is shown for, with or without time this week (a row added with the picker). */
export interface RowTask {
  taskId: string;
  taskName: string;
  projectId: string;
  projectName: string;
}

export interface WeekRow extends RowTask {
  /** Minutes per day of the week, Monday first. */
  minutes: number[];
  /** Per day: some of the day's time is not sent yet. */
  pending: boolean[];
  total: number;
}

export interface ProjectTotal {
  projectId: string;
  projectName: string;
  minutes: number;
}

export interface WeekGrid {
  days: string[];
  rows: WeekRow[];
  /** Minutes per day, Monday first. */
  dayTotals: number[];
  /** Projects with time this week, the most first. */
  projects: ProjectTotal[];
  total: number;
}

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a calendar day as `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return at.toISOString().slice(0, 10) === value;
}

// Days are counted in UTC so that a change to or from summer time never makes a day 23 hours.
function dayNumber(day: string): number {
  const match = DAY.exec(day);
  if (!match) throw new Error(`Not a day (YYYY-MM-DD): '${day}'`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
}
function dayOf(number: number): string {
  return new Date(number * DAY_MS).toISOString().slice(0, 10);
}

/** The day `delta` days from `day`. */
export function addDays(day: string, delta: number): string {
  return dayOf(dayNumber(day) + delta);
}

/** The Monday of the week holding `day`. */
export function weekStartOf(day: string): string {
  const number = dayNumber(day);
  // 1 January 1970 was a Thursday: day 0 is weekday 3 counted from Monday.
  const weekday = (((number + 3) % 7) + 7) % 7;
  return dayOf(number - weekday);
}

/** The seven days of the week starting on `monday`. */
export function weekDays(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** The Monday `delta` weeks from the week of `day`. */
export function shiftWeek(day: string, delta: number): string {
  return addDays(weekStartOf(day), delta * 7);
}

/**
 * The week's grid: one row per task with time this week (and per task of `extra`, rows the user
 * added to fill in), ordered by project then task name; reports dated outside the week are left
 * out.
 */
export function weekGrid(
  monday: string,
  reports: readonly LoggedTime[],
  extra: readonly RowTask[] = [],
): WeekGrid {
  const days = weekDays(monday);
  const column = new Map(days.map((day, i) => [day, i]));
  const rows = new Map<string, WeekRow>();
  const rowOf = (task: RowTask): WeekRow => {
    let row = rows.get(task.taskId);
    if (!row) {
      row = {
        taskId: task.taskId,
        taskName: task.taskName,
        projectId: task.projectId,
        projectName: task.projectName,
        minutes: days.map(() => 0),
        pending: days.map(() => false),
        total: 0,
      };
      rows.set(task.taskId, row);
    }
    return row;
  };
  const dayTotals = days.map(() => 0);
  const projects = new Map<string, ProjectTotal>();
  let total = 0;
  for (const report of reports) {
    const at = column.get(report.reportDate);
    if (at === undefined) continue;
    const row = rowOf(report);
    row.minutes[at]! += report.reported;
    if (report.pending) row.pending[at] = true;
    row.total += report.reported;
    dayTotals[at]! += report.reported;
    total += report.reported;
    const project = projects.get(report.projectId);
    if (project) project.minutes += report.reported;
    else
      projects.set(report.projectId, {
        projectId: report.projectId,
        projectName: report.projectName,
        minutes: report.reported,
      });
  }
  for (const task of extra) rowOf(task);
  const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });
  return {
    days,
    rows: [...rows.values()].sort(
      (a, b) =>
        byName(a.projectName, b.projectName) ||
        a.projectId.localeCompare(b.projectId) ||
        byName(a.taskName, b.taskName) ||
        a.taskId.localeCompare(b.taskId),
    ),
    dayTotals,
    projects: [...projects.values()].sort(
      (a, b) => b.minutes - a.minutes || byName(a.projectName, b.projectName),
    ),
    total,
  };
}

/** One project's part of a day's bar. */
export interface BarPart {
  projectId: string;
  projectName: string;
  minutes: number;
}

/**
 * The chart's bars: per day, the minutes of each project (in the order of `grid.projects`, so a
 * project sits at the same height every day), and the longest day (the scale).
 */
export function weekBars(grid: WeekGrid): { day: string; parts: BarPart[]; total: number }[] {
  return grid.days.map((day, at) => {
    const parts = grid.projects.flatMap((project) => {
      const minutes = grid.rows
        .filter((row) => row.projectId === project.projectId)
        .reduce((sum, row) => sum + row.minutes[at]!, 0);
      return minutes ? [{ projectId: project.projectId, projectName: project.projectName, minutes }] : [];
    });
    return { day, parts, total: grid.dayTotals[at]! };
  });
}

/** Minutes as decimal hours with two places ("1.50"), as spreadsheets and invoices read them. */
export function decimalHours(minutes: number): string {
  return (minutes / 60).toFixed(2);
}

export const TIME_CSV_HEADER = ['Date', 'Project', 'Task', 'Minutes', 'Hours', 'Note', 'Billable'] as const;

/** The reports dated in [from, to] as CSV, by date then project and task; pending ones included. */
export function timeReportsCsv(reports: readonly LoggedTime[], range: { from: string; to: string }): string {
  const rows = reports
    .filter((r) => r.reportDate >= range.from && r.reportDate <= range.to)
    .sort(
      (a, b) =>
        a.reportDate.localeCompare(b.reportDate) ||
        a.projectName.localeCompare(b.projectName) ||
        a.taskName.localeCompare(b.taskName) ||
        a.id.localeCompare(b.id),
    )
    .map((r) => [
      r.reportDate,
      r.projectName,
      r.taskName,
      String(r.reported),
      decimalHours(r.reported),
      r.note,
      r.isBillable ? 'yes' : 'no',
    ]);
  return toCsv(TIME_CSV_HEADER, rows);
}

export type RangePreset = 'week' | 'month' | 'custom';

/** The range a preset names around the week shown: its week, or the month of its Monday. */
export function presetRange(
  preset: Exclude<RangePreset, 'custom'>,
  monday: string,
): { from: string; to: string } {
  if (preset === 'week') return { from: monday, to: addDays(monday, 6) };
  const month = monday.slice(0, 7);
  const next = dayNumber(`${month}-01`) + 31;
  const nextMonth = dayOf(next).slice(0, 7);
  return { from: `${month}-01`, to: addDays(`${nextMonth}-01`, -1) };
}

/** The Monday of the current week on this computer's calendar. */
export function thisWeek(now = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return weekStartOf(`${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`);
}
