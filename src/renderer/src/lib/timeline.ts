// The timeline strip's geometry: one row per dated item, x from the day, and dependency arrows
// from the predecessor's finish (or start, for Start to Start) to the successor's start (or
// finish, for Finish to Finish). Pure, so tests check the drawing without a browser.
import type { DependencyView } from '@shared/ipc/tasks';
import { parseDay } from './format';

export interface TimelineItem {
  kind: 'task' | 'event';
  id: string;
  name: string;
  start: string;
  end: string;
  milestone: boolean;
}

export interface TimelineBar extends TimelineItem {
  row: number;
  x: number;
  width: number;
}

export interface TimelineArrow {
  id: string;
  type: number;
  path: string;
}

export interface TimelineLayout {
  bars: TimelineBar[];
  arrows: TimelineArrow[];
  width: number;
  height: number;
  /** The first day shown; ticks are drawn from it. */
  origin: string;
  days: number;
}

export const ROW_HEIGHT = 28;
export const DAY_WIDTH = 22;
const PAD_DAYS = 2;

const DAY_MS = 86_400_000;
function dayIndex(day: string): number {
  const date = parseDay(day);
  return date ? Math.round(date.getTime() / DAY_MS) : 0;
}

/** A task's span from its dates: start to end, else the deadline alone; undefined when undated. */
export function taskSpan(task: {
  startDate: string | null;
  endDate: string | null;
  deadline: string | null;
}): { start: string; end: string } | undefined {
  const start = task.startDate ?? task.endDate ?? task.deadline;
  const end = task.endDate ?? task.deadline ?? task.startDate;
  if (!start || !end) return undefined;
  return start <= end ? { start, end } : { start: end, end: start };
}

export function layoutTimeline(
  items: readonly TimelineItem[],
  dependencies: readonly DependencyView[],
): TimelineLayout {
  const sorted = [...items].sort((a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name));
  if (!sorted.length) return { bars: [], arrows: [], width: 0, height: 0, origin: '', days: 0 };
  const first = Math.min(...sorted.map((item) => dayIndex(item.start))) - PAD_DAYS;
  const last = Math.max(...sorted.map((item) => dayIndex(item.end))) + PAD_DAYS;
  const bars = sorted.map((item, row) => {
    const x = (dayIndex(item.start) - first) * DAY_WIDTH;
    const width = item.milestone ? 0 : (dayIndex(item.end) - dayIndex(item.start) + 1) * DAY_WIDTH;
    return { ...item, row, x, width };
  });
  const find = (kind: string, id: string): TimelineBar | undefined =>
    bars.find((bar) => bar.kind === kind && bar.id === id);
  const arrows: TimelineArrow[] = [];
  for (const dep of dependencies) {
    const from = find(dep.predecessor.kind, dep.predecessor.id);
    const to = find(dep.successor.kind, dep.successor.id);
    if (!from || !to) continue;
    const fromX = dep.type === 6 ? from.x : from.x + from.width;
    const toX = dep.type === 7 ? to.x + to.width : to.x;
    const fromY = from.row * ROW_HEIGHT + ROW_HEIGHT / 2;
    const toY = to.row * ROW_HEIGHT + ROW_HEIGHT / 2;
    const bend = Math.max(fromX, dep.type === 7 ? toX : fromX) + 8;
    const entry = dep.type === 7 ? toX + 8 : toX - 8;
    const path =
      dep.type === 7
        ? `M${fromX},${fromY} H${bend} V${toY} H${toX}`
        : `M${fromX},${fromY} H${Math.min(bend, Math.max(fromX + 8, entry))} V${toY} H${toX}`;
    arrows.push({ id: dep.id, type: dep.type, path });
  }
  return {
    bars,
    arrows,
    width: (last - first + 1) * DAY_WIDTH,
    height: bars.length * ROW_HEIGHT,
    origin: new Date(first * DAY_MS).toISOString().slice(0, 10),
    days: last - first + 1,
  };
}

/** One tick a week from the origin day: its x and the day it marks. */
export function weekTicks(origin: string, days: number): { x: number; day: string }[] {
  if (!origin) return [];
  return Array.from({ length: Math.ceil(days / 7) }, (_, i) => {
    const date = new Date(`${origin}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + i * 7);
    return { x: i * 7 * DAY_WIDTH, day: date.toISOString().slice(0, 10) };
  });
}

/** The x of `today` on a strip starting at `origin` (its middle), or undefined when off the strip. */
export function todayX(origin: string, days: number, today: string): number | undefined {
  if (!origin) return undefined;
  const offset = dayIndex(today) - dayIndex(origin);
  return offset < 0 || offset >= days ? undefined : offset * DAY_WIDTH + DAY_WIDTH / 2;
}
