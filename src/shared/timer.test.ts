import { describe, expect, it } from 'vitest';
import { PreferencesPatch } from './ipc/settings';
import { TIMER_ROUNDINGS, timerMinutes } from './timer';

const at = (h: number, m: number, s = 0): number => ((h * 60 + m) * 60 + s) * 1000;

describe("a stopped timer's minutes", () => {
  it('off: the nearest whole minute, at least one', () => {
    expect(timerMinutes(at(0, 0, 5), 0)).toEqual({ minutes: 1, overDay: false });
    expect(timerMinutes(at(0, 12, 29), 0)).toEqual({ minutes: 12, overDay: false });
    expect(timerMinutes(at(0, 12, 30), 0)).toEqual({ minutes: 13, overDay: false });
    expect(timerMinutes(at(1, 30), 0)).toEqual({ minutes: 90, overDay: false });
  });

  it('rounds up to the next 1, 5 or 15 minutes, one step at least', () => {
    expect(timerMinutes(at(0, 12, 1), 1).minutes).toBe(13);
    expect(timerMinutes(at(0, 12), 1).minutes).toBe(12);
    expect(timerMinutes(at(0, 12, 1), 5).minutes).toBe(15);
    expect(timerMinutes(at(0, 15), 5).minutes).toBe(15);
    expect(timerMinutes(at(0, 15, 1), 15).minutes).toBe(30);
    expect(timerMinutes(at(1, 0), 15).minutes).toBe(60);
    expect(timerMinutes(0, 15).minutes).toBe(15);
    expect(timerMinutes(0, 1).minutes).toBe(1);
  });

  it('caps a run over a day at a day (a report holds at most 1440 minutes) and flags it', () => {
    expect(timerMinutes(at(24, 0), 0)).toEqual({ minutes: 1440, overDay: false });
    expect(timerMinutes(at(26, 10), 0)).toEqual({ minutes: 1440, overDay: true });
    expect(timerMinutes(at(30, 0), 15)).toEqual({ minutes: 1440, overDay: true });
    // Rounded up to a day is not over a day.
    expect(timerMinutes(at(23, 59, 30), 15)).toEqual({ minutes: 1440, overDay: false });
  });

  it('reads a clock set back (a negative run) as the shortest report', () => {
    for (const rounding of TIMER_ROUNDINGS) expect(timerMinutes(-5000, rounding).minutes).toBe(rounding || 1);
  });
});

describe('the rounding setting', () => {
  it('takes off, 1, 5 or 15 minutes and refuses another value naming the field', () => {
    for (const rounding of TIMER_ROUNDINGS)
      expect(PreferencesPatch.parse({ timerRounding: rounding })).toEqual({ timerRounding: rounding });
    const refused = PreferencesPatch.safeParse({ timerRounding: 10 });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['timerRounding', 'must be 0 (off), 1, 5 or 15 minutes'],
    ]);
  });
});
