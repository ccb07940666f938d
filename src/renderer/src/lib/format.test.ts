import { afterEach, describe, expect, it, vi } from 'vitest';
import { stampOn } from '@shared/service-clock';
import {
  formatDay,
  formatMinutes,
  formatMoment,
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
    expect(parseMoment('2026-11-21 11:58:00.123456', 'local')?.getTime()).toBe(
      new Date(2026, 10, 21, 11, 58, 0, 123).getTime(),
    );
    expect(parseMoment('2026-11-21T11:58:00', 'local')?.getMinutes()).toBe(58);
    expect(parseMoment('2026-11-21T11:58:00.04146', 'utc')?.getTime()).toBe(
      Date.UTC(2026, 10, 21, 11, 58, 0, 41),
    );
    expect(parseMoment('nonsense', 'utc')).toBeUndefined();
  });

  it('says how long ago', () => {
    expect(formatRelative('2026-11-21T11:59:50', 'local', now)).toBe('just now');
    expect(formatRelative('2026-11-21T11:59:00', 'local', now)).toBe('1 minute ago');
    expect(formatRelative('2026-11-21T11:55:00', 'local', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-11-21T09:00:00', 'local', now)).toBe('3 h ago');
    expect(formatRelative('2026-11-18T12:00:00', 'local', now)).toBe('3 days ago');
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

describe('times on the service clock, in every zone of this machine', () => {
  // The zone of the process running the formatter (the renderer's, on the user's machine).
  afterEach(() => vi.unstubAllEnvs());
  const postedAt = Date.UTC(2026, 10, 26, 7, 53, 47, 41);
  const aMinuteLater = new Date(postedAt + 60_000);

  describe.each(['Asia/Taipei', 'America/Los_Angeles', 'UTC'])('machine in %s', (zone) => {
    it.each(['utc', 'local'] as const)(
      'a comment a %s service stamped a minute ago reads "1 minute ago"',
      (clock) => {
        vi.stubEnv('TZ', zone);
        // As the service writes it: GoodDay trims trailing zeros, ours writes six digits.
        const stamp = stampOn(postedAt, clock).replace(/0+$/, '');
        expect(formatRelative(stamp, clock, aMinuteLater)).toBe('1 minute ago');
        expect(formatMoment(stamp, clock)).toBe(
          new Date(postedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
        );
      },
    );

    it('a UTC stamp read as local time is hours off, except on UTC (what was shown before)', () => {
      vi.stubEnv('TZ', zone);
      const stamp = stampOn(postedAt, 'utc');
      const shown = formatRelative(stamp, 'local', aMinuteLater);
      expect(shown === '1 minute ago').toBe(zone === 'UTC');
    });
  });
});
