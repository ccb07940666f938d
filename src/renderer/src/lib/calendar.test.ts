import { describe, expect, it } from 'vitest';
import {
  inTypeWords,
  coversDay,
  dayName,
  isDayKey,
  moveDay,
  eventColor,
  eventTypeLabel,
  isMonth,
  monthGrid,
  monthRange,
  shiftMonth,
  weekBars,
} from './calendar';

describe('calendar arithmetic', () => {
  it('shifts months across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-03', 0)).toBe('2026-03');
  });

  it('lays a month on six weeks starting on Monday', () => {
    const grid = monthGrid('2026-03'); // 1 March 2026 is a Sunday
    expect(grid).toHaveLength(42);
    expect(grid[0]).toBe('2026-02-23');
    expect(grid[6]).toBe('2026-03-01');
    expect(grid[41]).toBe('2026-04-05');
  });

  it('knows the first and last day of a month, leap years included', () => {
    expect(monthRange('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('puts single-day and multi-day events on the days they cover', () => {
    expect(coversDay({ startDate: '2026-03-02' }, '2026-03-02')).toBe(true);
    expect(coversDay({ startDate: '2026-03-02' }, '2026-03-03')).toBe(false);
    expect(coversDay({ startDate: '2026-03-02', endDate: '2026-03-04' }, '2026-03-03')).toBe(true);
  });

  it('names and colors every type, and checks months', () => {
    expect(eventTypeLabel('personal-sick')).toBe('Sick leave');
    expect(eventColor('project-milestone')).not.toBe(eventColor('company-holiday'));
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth('2026-07')).toBe(true);
  });
});

describe("moving the month grid's focused day by key", () => {
  it('moves a day and a week either way, across months and years', () => {
    expect(moveDay('2026-03-31', 'ArrowRight')).toBe('2026-04-01');
    expect(moveDay('2026-01-01', 'ArrowLeft')).toBe('2025-12-31');
    expect(moveDay('2026-03-02', 'ArrowUp')).toBe('2026-02-23');
    expect(moveDay('2026-12-28', 'ArrowDown')).toBe('2027-01-04');
  });

  it("goes to the week's Monday (Home) and Sunday (End)", () => {
    // 4 March 2026 is a Wednesday; 1 March a Sunday.
    expect(moveDay('2026-03-04', 'Home')).toBe('2026-03-02');
    expect(moveDay('2026-03-04', 'End')).toBe('2026-03-08');
    expect(moveDay('2026-03-01', 'Home')).toBe('2026-02-23');
    expect(moveDay('2026-03-01', 'End')).toBe('2026-03-01');
    expect(moveDay('2026-03-02', 'Home')).toBe('2026-03-02');
  });

  it("keeps the day of the month on Page Up and Down, or the month's last day when it is shorter", () => {
    expect(moveDay('2026-03-15', 'PageUp')).toBe('2026-02-15');
    expect(moveDay('2026-03-31', 'PageUp')).toBe('2026-02-28');
    expect(moveDay('2028-01-31', 'PageDown')).toBe('2028-02-29');
    expect(moveDay('2026-12-10', 'PageDown')).toBe('2027-01-10');
  });

  it('knows its keys, and names a day with the number its cell shows', () => {
    expect(isDayKey('PageDown')).toBe(true);
    expect(isDayKey('Enter')).toBe(false);
    expect(dayName('2026-11-01')).toBe('Sun 1 Nov 2026');
  });
});

describe('inTypeWords', () => {
  it('names the event type as the form does, not by the service’s id', () => {
    expect(inTypeWords('is required for personal-vacation', 'personal-vacation')).toBe(
      'is required for a vacation',
    );
    expect(inTypeWords('is required for project-milestone', 'project-milestone')).toBe(
      'is required for a milestone',
    );
    expect(inTypeWords('must not be empty', 'company-event')).toBe('must not be empty');
  });
});

describe('weekBars: the events of a week row of the month as bars', () => {
  // The week of Monday 2 Nov 2026 to Sunday 8 Nov 2026.
  const week = monthGrid('2026-11').slice(7, 14);
  const ev = (id: string, startDate: string, endDate?: string) => ({ id, startDate, endDate });

  it('draws a 3-day event as one bar over its three days, not one per day', () => {
    const { bars, hidden } = weekBars([ev('trip', '2026-11-04', '2026-11-06')], week, 3);
    expect(week[0]).toBe('2026-11-02');
    expect(bars).toEqual([
      {
        event: ev('trip', '2026-11-04', '2026-11-06'),
        start: 2,
        span: 3,
        lane: 0,
        continuesBefore: false,
        continuesAfter: false,
      },
    ]);
    expect(hidden.every((day) => day.length === 0)).toBe(true);
  });

  it('cuts an event at the week edges and says it goes on before and after', () => {
    const long = ev('leave', '2026-10-28', '2026-11-12');
    const { bars } = weekBars([long], week, 3);
    expect(bars).toEqual([
      { event: long, start: 0, span: 7, lane: 0, continuesBefore: true, continuesAfter: true },
    ]);
    // The next row carries on from Monday to its end on Thursday.
    const next = weekBars([long], monthGrid('2026-11').slice(14, 21), 3).bars;
    expect(next).toMatchObject([{ start: 0, span: 4, continuesBefore: true, continuesAfter: false }]);
  });

  it('puts each bar on the first line free over all its days, the longer first', () => {
    const single = ev('review', '2026-11-05');
    const span = ev('offsite', '2026-11-04', '2026-11-06');
    const monday = ev('kickoff', '2026-11-02', '2026-11-03');
    const after = ev('retro', '2026-11-07', '2026-11-08');
    const { bars } = weekBars([single, span, monday, after], week, 3);
    const lane = (id: string) => bars.find((bar) => bar.event.id === id)?.lane;
    // Monday's starts first; the offsite (longer) before the single day on Wednesday/Thursday.
    expect(lane('kickoff')).toBe(0);
    expect(lane('offsite')).toBe(0);
    expect(lane('review')).toBe(1);
    expect(lane('retro')).toBe(0);
  });

  it('leaves the events past the lines out, counted on each day they cover', () => {
    const events = [
      ev('a', '2026-11-03', '2026-11-05'),
      ev('b', '2026-11-03', '2026-11-04'),
      ev('c', '2026-11-04'),
      ev('d', '2026-11-04', '2026-11-05'),
    ];
    const { bars, hidden } = weekBars(events, week, 3);
    expect(bars.map((bar) => bar.event.id)).toEqual(['a', 'b', 'd']);
    expect(hidden.map((day) => day.map((e) => e.id))).toEqual([[], [], ['c'], [], [], [], []]);
  });

  it('ignores events outside the week', () => {
    expect(weekBars([ev('x', '2026-10-01', '2026-11-01'), ev('y', '2026-11-09')], week, 3).bars).toEqual([]);
  });
});
