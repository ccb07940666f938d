// The running timer's arithmetic, shared by the core and the renderer: how long it ran, in the
// whole minutes a time report holds, rounded as the user's setting says.
import { MAX_REPORT_MINUTES } from './api/time-reports';

/**
 * The rounding a stopped timer's time gets, in minutes: 0 is off (the nearest whole minute, as a
 * report holds whole minutes), else up to the next multiple of 1, 5 or 15 minutes.
 */
export const TIMER_ROUNDINGS = [0, 1, 5, 15] as const;
export type TimerRounding = (typeof TIMER_ROUNDINGS)[number];

/** What a timer that ran `elapsedMs` logs: at least a minute, at most a day (one report's most). */
export interface TimerMinutes {
  minutes: number;
  /** It ran longer than one report may hold: `minutes` is capped at a day. */
  overDay: boolean;
}

const MINUTE_MS = 60_000;

export function timerMinutes(elapsedMs: number, rounding: TimerRounding): TimerMinutes {
  const exact = Math.max(0, elapsedMs) / MINUTE_MS;
  const rounded = rounding === 0 ? Math.round(exact) : Math.ceil(exact / rounding) * rounding;
  const minutes = Math.max(rounding || 1, rounded);
  // Over a day is judged on the time run, not on the rounding (23h 59m 30s rounded up is a day).
  const overDay = exact > MAX_REPORT_MINUTES;
  return { minutes: Math.min(minutes, MAX_REPORT_MINUTES), overDay };
}
