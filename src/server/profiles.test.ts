import { afterEach, describe, expect, it } from 'vitest';
import { formatLocalTimestamp } from '../shared/api/common';
import { toLiveMoment } from './profiles';

const zone = process.env['TZ'];
afterEach(() => {
  if (zone === undefined) delete process.env['TZ'];
  else process.env['TZ'] = zone;
});

describe('moments as the live service writes them', () => {
  it.each(['Asia/Taipei', 'America/Los_Angeles', 'UTC'])(
    'turns a local moment into UTC with no offset and a trimmed fraction (%s)',
    (tz) => {
      process.env['TZ'] = tz;
      const moment = new Date(Date.UTC(2023, 9, 6, 7, 53, 47, 41));
      expect(toLiveMoment(formatLocalTimestamp(moment, 'T', 460))).toBe('2023-10-06T07:53:47.04146');
      expect(toLiveMoment(formatLocalTimestamp(moment, ' '))).toBe('2023-10-06 07:53:47.041');
      const whole = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 0));
      expect(toLiveMoment(formatLocalTimestamp(whole))).toBe('2026-01-01T00:00:00');
    },
  );

  it('leaves what is not a moment alone', () => {
    expect(toLiveMoment('2026-01-01')).toBe('2026-01-01');
    expect(toLiveMoment('soon')).toBe('soon');
  });
});
