import { describe, expect, it } from 'vitest';
import {
  addDays,
  decimalHours,
  isDay,
  presetRange,
  shiftWeek,
  timeReportsCsv,
  weekBars,
  weekDays,
  weekGrid,
  weekStartOf,
  type LoggedTime,
} from './my-time';

let seq = 0;
function logged(over: Partial<LoggedTime>): LoggedTime {
  seq += 1;
  return {
    id: `r${seq}`,
    taskId: 't1',
    taskName: 'Write the plan',
    projectId: 'p1',
    projectName: 'Website',
    reportDate: '2026-11-23',
    reported: 60,
    note: '',
    isBillable: false,
    pending: false,
    ...over,
  };
}

describe('the week', () => {
  it('starts on Monday, whatever day it is asked from', () => {
    expect(weekStartOf('2026-11-23')).toBe('2026-11-23'); // a Monday
    expect(weekStartOf('2026-11-26')).toBe('2026-11-23'); // Thursday
    expect(weekStartOf('2026-11-29')).toBe('2026-11-23'); // Sunday
    expect(weekStartOf('2026-11-30')).toBe('2026-11-30');
    expect(weekStartOf('1969-12-31')).toBe('1969-12-29'); // before day 0 too
  });

  it('lists seven days across a month, a year and a change of summer time', () => {
    expect(weekDays('2026-12-28')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    expect(weekDays('2026-03-23')[6]).toBe('2026-03-29');
    expect(weekDays('2026-10-19')[6]).toBe('2026-10-25');
  });

  it('moves by whole weeks', () => {
    expect(shiftWeek('2026-11-26', 1)).toBe('2026-11-30');
    expect(shiftWeek('2026-11-26', -1)).toBe('2026-11-16');
    expect(shiftWeek('2026-01-01', -1)).toBe('2025-12-22');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('knows a real day from a malformed one', () => {
    expect(isDay('2026-11-26')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-11-26T00:00')).toBe(false);
    expect(isDay('')).toBe(false);
  });
});

describe('weekGrid', () => {
  const monday = '2026-11-23';

  it('sums per cell, per day, per project and for the week, and leaves out other weeks', () => {
    const grid = weekGrid(monday, [
      logged({ reportDate: '2026-11-23', reported: 90 }),
      logged({ reportDate: '2026-11-23', reported: 30 }),
      logged({ reportDate: '2026-11-25', reported: 45 }),
      logged({ taskId: 't2', taskName: 'Answer mail', reportDate: '2026-11-23', reported: 15 }),
      logged({
        taskId: 't3',
        taskName: 'Budget',
        projectId: 'p2',
        projectName: 'Accounts',
        reportDate: '2026-11-29',
        reported: 240,
      }),
      logged({ reportDate: '2026-11-22', reported: 999 }), // the Sunday before
      logged({ reportDate: '2026-11-30', reported: 999 }), // the Monday after
    ]);
    expect(grid.days).toEqual(weekDays(monday));
    // Ordered by project, then task.
    expect(grid.rows.map((r) => r.taskName)).toEqual(['Budget', 'Answer mail', 'Write the plan']);
    const plan = grid.rows.find((r) => r.taskId === 't1')!;
    expect(plan.minutes).toEqual([120, 0, 45, 0, 0, 0, 0]);
    expect(plan.total).toBe(165);
    expect(grid.dayTotals).toEqual([135, 0, 45, 0, 0, 0, 240]);
    expect(grid.projects).toEqual([
      { projectId: 'p2', projectName: 'Accounts', minutes: 240 },
      { projectId: 'p1', projectName: 'Website', minutes: 180 },
    ]);
    expect(grid.total).toBe(420);
    expect(grid.dayTotals.reduce((a, b) => a + b, 0)).toBe(grid.total);
    expect(grid.rows.reduce((sum, r) => sum + r.total, 0)).toBe(grid.total);
  });

  it('marks the days whose time is not sent yet', () => {
    const grid = weekGrid(monday, [
      logged({ reportDate: '2026-11-24', reported: 30 }),
      logged({ reportDate: '2026-11-24', reported: 30, pending: true }),
    ]);
    expect(grid.rows[0]!.pending).toEqual([false, true, false, false, false, false, false]);
    expect(grid.rows[0]!.minutes[1]).toBe(60);
  });

  it('keeps an added task as an empty row, once, and is empty with no time', () => {
    const extra = [{ taskId: 't9', taskName: 'Zeta', projectId: 'p1', projectName: 'Website' }];
    const empty = weekGrid(monday, [], extra);
    expect(empty.rows).toHaveLength(1);
    expect(empty.rows[0]!.minutes).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(empty.total).toBe(0);
    expect(empty.projects).toEqual([]);
    const filled = weekGrid(monday, [logged({ taskId: 't9', taskName: 'Zeta' })], extra);
    expect(filled.rows).toHaveLength(1);
    expect(filled.rows[0]!.total).toBe(60);
    expect(weekGrid(monday, []).rows).toEqual([]);
  });
});

describe('weekBars', () => {
  it('stacks each day by project in the same order every day', () => {
    const grid = weekGrid('2026-11-23', [
      logged({ reportDate: '2026-11-23', reported: 60 }),
      logged({
        taskId: 't3',
        projectId: 'p2',
        projectName: 'Accounts',
        reportDate: '2026-11-23',
        reported: 120,
      }),
      logged({
        taskId: 't4',
        projectId: 'p2',
        projectName: 'Accounts',
        reportDate: '2026-11-23',
        reported: 30,
      }),
      logged({ reportDate: '2026-11-24', reported: 15 }),
    ]);
    const bars = weekBars(grid);
    expect(bars).toHaveLength(7);
    expect(bars[0]).toEqual({
      day: '2026-11-23',
      total: 210,
      parts: [
        { projectId: 'p2', projectName: 'Accounts', minutes: 150 },
        { projectId: 'p1', projectName: 'Website', minutes: 60 },
      ],
    });
    expect(bars[1]!.parts).toEqual([{ projectId: 'p1', projectName: 'Website', minutes: 15 }]);
    expect(bars[2]).toEqual({ day: '2026-11-25', parts: [], total: 0 });
  });
});

describe('timeReportsCsv', () => {
  it('writes one line per report in the range, by date, with minutes, hours, note and billable', () => {
    const csv = timeReportsCsv(
      [
        logged({ id: 'b', reportDate: '2026-11-24', reported: 90, note: 'plain', isBillable: true }),
        logged({ id: 'a', reportDate: '2026-11-23', reported: 45 }),
        logged({ id: 'z', reportDate: '2026-12-01', reported: 10 }), // outside
      ],
      { from: '2026-11-23', to: '2026-11-29' },
    );
    expect(csv).toBe(
      '\uFEFFDate,Project,Task,Minutes,Hours,Note,Billable\r\n' +
        '2026-11-23,Website,Write the plan,45,0.75,,no\r\n' +
        '2026-11-24,Website,Write the plan,90,1.50,plain,yes\r\n',
    );
  });

  it('quotes notes and names with commas, quotes and new lines, and keeps formulas inert', () => {
    const csv = timeReportsCsv(
      [
        logged({
          projectName: 'Sales, EU',
          taskName: 'Call "Acme"',
          note: 'first line\nsecond, with a comma',
          reported: 5,
        }),
        logged({ reportDate: '2026-11-24', note: '=SUM(A1:A9)', reported: 61 }),
      ],
      { from: '2026-11-23', to: '2026-11-23' },
    );
    expect(csv).toBe(
      '\uFEFFDate,Project,Task,Minutes,Hours,Note,Billable\r\n' +
        '2026-11-23,"Sales, EU","Call ""Acme""",5,0.08,"first line\nsecond, with a comma",no\r\n',
    );
    expect(
      timeReportsCsv([logged({ note: '=SUM(A1:A9)' })], { from: '2026-11-23', to: '2026-11-23' }),
    ).toContain(",'=SUM(A1:A9),");
  });

  it('is the header alone for a range without time', () => {
    expect(timeReportsCsv([], { from: '2026-11-01', to: '2026-11-30' })).toBe(
      '\uFEFFDate,Project,Task,Minutes,Hours,Note,Billable\r\n',
    );
  });
});

describe('ranges and hours', () => {
  it('names the week and the month of the week shown', () => {
    expect(presetRange('week', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(presetRange('month', '2026-11-23')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetRange('month', '2024-02-26')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetRange('month', '2026-12-28')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('writes decimal hours with two places', () => {
    expect(decimalHours(90)).toBe('1.50');
    expect(decimalHours(1)).toBe('0.02');
    expect(decimalHours(1440)).toBe('24.00');
  });
});
