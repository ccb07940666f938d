import { describe, expect, it } from 'vitest';
import { DateString, isCalendarDate } from './common';

describe('isCalendarDate', () => {
  it('takes the real dates of every month, leap days only in leap years', () => {
    expect(
      ['2026-01-31', '2026-04-30', '2026-12-31', '2024-02-29', '2000-02-29'].map(isCalendarDate),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['2026-02-29', '1900-02-29', '2026-04-31', '2026-06-31', '2026-02-30'].map(isCalendarDate),
    ).toEqual([false, false, false, false, false]);
  });

  it('refuses month or day 0, month 13 and other spellings', () => {
    for (const value of [
      '2026-00-10',
      '2026-13-01',
      '2026-05-00',
      '2026-5-01',
      '26-05-01',
      '2026-05-01T00:00',
      '',
    ]) {
      expect(isCalendarDate(value), value).toBe(false);
    }
  });

  it("names the rule in DateString's message", () => {
    const result = DateString.safeParse('2026-02-30');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must be a date written YYYY-MM-DD');
  });
});
