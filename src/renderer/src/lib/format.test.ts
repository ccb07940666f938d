import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatMinutes,
  formatRelative,
  isOverdue,
  parseMoment,
  priorityLabel,
  priorityTone,
  toDayString,
  initials,
} from './format';

const now = new Date(2026, 10, 21, 12, 0, 0);

describe('format', () => {
  it('names near days in words and others by date', () => {
    expect(formatDay('2026-11-21', now)).toBe('Today');
    expect(formatDay('2026-11-22', now)).toBe('Tomorrow');
    expect(formatDay('2026-11-20', now)).toBe('Yesterday');
    expect(formatDay('2024-01-05', now)).toMatch(/2024/);
    expect(formatDay(null, now)).toBe('');
  });

  it('marks only past days overdue', () => {
    expect(isOverdue('2026-11-20', now)).toBe(true);
    expect(isOverdue('2026-11-21', now)).toBe(false);
    expect(isOverdue(null, now)).toBe(false);
  });

  it('reads service timestamps with up to six fraction digits, space or T', () => {
    expect(parseMoment('2026-11-21 11:58:00.123456')?.getTime()).toBe(
      new Date(2026, 10, 21, 11, 58, 0, 123).getTime(),
    );
    expect(parseMoment('2026-11-21T11:58:00')?.getMinutes()).toBe(58);
    expect(parseMoment('nonsense')).toBeUndefined();
  });

  it('says how long ago', () => {
    expect(formatRelative('2026-11-21T11:59:50', now)).toBe('just now');
    expect(formatRelative('2026-11-21T11:55:00', now)).toBe('5 min ago');
    expect(formatRelative('2026-11-21T09:00:00', now)).toBe('3 h ago');
    expect(formatRelative('2026-11-18T12:00:00', now)).toBe('3 days ago');
  });

  it('writes minutes as hours and minutes', () => {
    expect(formatMinutes(150)).toBe('2 h 30 min');
    expect(formatMinutes(45)).toBe('45 min');
    expect(formatMinutes(180)).toBe('3 h');
    expect(formatMinutes(null)).toBe('');
  });

  it('names Blocker and Emergency', () => {
    expect(priorityLabel(50)).toBe('Blocker');
    expect(priorityLabel(100)).toBe('Emergency');
    expect(priorityLabel(3)).toBe('3');
  });

  it('makes Blocker, Emergency and 8-10 stand out', () => {
    expect([1, 7, 8, 10, 11, 50, 100].map(priorityTone)).toEqual([
      '',
      '',
      'high',
      'high',
      '',
      'blocker',
      'emergency',
    ]);
  });

  it('round-trips days and makes initials', () => {
    expect(toDayString(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(initials('Ada  Lovelace')).toBe('AL');
    expect(initials('Plato')).toBe('P');
  });
});
