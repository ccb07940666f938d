import { describe, expect, it } from 'vitest';
import { formatDuration, formatElapsed, parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['1h 30m', 90],
    ['90m', 90],
    ['1.5h', 90],
    ['1,5h', 90],
    ['2h', 120],
    ['1h30', 90],
    ['1h30m', 90],
    ['45', 45],
    ['  2 hours 5 min ', 125],
    ['24h', 1440],
    ['0.25h', 15],
  ])('reads %j as %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toEqual({ ok: true, minutes });
  });

  it.each([
    ['', 'Duration: type how long'],
    ['0', 'Duration: must be at least 1 minute'],
    ['0h', 'Duration: must be at least 1 minute'],
    ['25h', 'Duration: must be at most 24h'],
    ['24h 1m', 'Duration: must be at most 24h'],
    ['abc', "Duration: cannot read 'abc'"],
    ['1h 2h', 'Duration: '],
    ['1x', "Duration: cannot read '1x'"],
    ['-1h', "Duration: cannot read '-1h'"],
  ])('refuses %j naming the field', (text, error) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.startsWith(error)).toBe(true);
  });
});

describe('formatDuration', () => {
  it.each([
    [90, '1h 30m'],
    [45, '45m'],
    [120, '2h'],
    [1440, '24h'],
  ])('shows %i minutes as %j', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });
});

describe('formatElapsed', () => {
  it('reads as a clock, hours not wrapped at a day; a clock set back reads as nothing yet', () => {
    expect(formatElapsed(0)).toBe('0:00:00');
    expect(formatElapsed(309_999)).toBe('0:05:09');
    expect(formatElapsed(((1 * 60 + 2) * 60 + 3) * 1000)).toBe('1:02:03');
    expect(formatElapsed(26 * 3600 * 1000)).toBe('26:00:00');
    expect(formatElapsed(-4000)).toBe('0:00:00');
  });
});
