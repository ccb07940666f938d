import { afterEach, describe, expect, it } from 'vitest';
import { clockFromAnswer, instantOf, stampOn, type ServiceClock } from '../../../shared/service-clock';
import { createServiceClock, type Answer } from './service-clock';

const ZONES = ['Asia/Taipei', 'America/Los_Angeles', 'UTC'] as const;
const NOW = Date.UTC(2026, 10, 26, 7, 53, 47, 41);
const httpDate = (ms: number) => new Date(ms).toUTCString();
const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

/** A create's answer as a service on `clock` sends it, `lagMs` after the item was made. */
function createAnswer(clock: ServiceClock, lagMs = 300): Answer {
  return {
    method: 'POST',
    path: '/tasks',
    date: httpDate(NOW + lagMs),
    text: JSON.stringify({ id: 'GfPrjC', shortId: 'T1', momentCreated: stampOn(NOW, clock, ' ') }),
  };
}

describe('service timestamps on a clock', () => {
  it.each(ZONES)('reads and writes the same instant on either clock (machine in %s)', (zone) => {
    process.env.TZ = zone;
    for (const clock of ['utc', 'local'] as const) {
      expect(instantOf(stampOn(NOW, clock), clock)).toBe(NOW);
      expect(instantOf(stampOn(NOW, clock, ' '), clock)).toBe(NOW);
    }
    // The live service's forms: microseconds with trailing zeros trimmed, or no fraction.
    expect(instantOf('2026-11-26T07:53:47.04146', 'utc')).toBe(NOW);
    expect(instantOf('2026-11-26 07:53:47', 'utc')).toBe(NOW - 41);
    // A stamp naming its zone is read on it, whatever the clock.
    expect(instantOf('2026-11-26T15:53:47.041+08:00', 'local')).toBe(NOW);
    expect(instantOf('2026-11-26T07:53:47.041Z', 'local')).toBe(NOW);
    expect(instantOf('yesterday', 'utc')).toBeUndefined();
  });
});

describe('clockFromAnswer', () => {
  it.each(['Asia/Taipei', 'America/Los_Angeles'])(
    'tells UTC from local time by a fresh create answer (machine in %s)',
    (zone) => {
      process.env.TZ = zone;
      for (const clock of ['utc', 'local'] as const) {
        expect(clockFromAnswer(stampOn(NOW, clock), NOW + 800, true)).toBe(clock);
      }
    },
  );

  it('cannot tell on a machine on UTC (both readings agree) and says so', () => {
    process.env.TZ = 'UTC';
    expect(clockFromAnswer(stampOn(NOW, 'utc'), NOW, true)).toBeNull();
  });

  it('learns from an old stamp only when one reading would put it in the service future', () => {
    process.env.TZ = 'Asia/Taipei';
    // Local (Taipei) stamps read as UTC lie 8 hours ahead: the service is on local time.
    expect(clockFromAnswer(stampOn(NOW - 60_000, 'local'), NOW, false)).toBe('local');
    // A stamp a day old fits both readings: nothing learnt.
    expect(clockFromAnswer(stampOn(NOW - 86_400_000, 'local'), NOW, false)).toBeNull();
    process.env.TZ = 'America/Los_Angeles';
    // UTC stamps read as Los Angeles time lie 8 hours ahead: the service is on UTC.
    expect(clockFromAnswer(stampOn(NOW - 60_000, 'utc'), NOW, false)).toBe('utc');
  });

  it('learns nothing from a stamp that fits neither reading (a service in a third zone)', () => {
    process.env.TZ = 'Asia/Taipei';
    const newYork = stampOn(NOW - 5 * 3_600_000, 'utc');
    expect(clockFromAnswer(newYork, NOW, true)).toBeNull();
  });
});

describe('createServiceClock', () => {
  it.each(ZONES)('learns the clock once from an answer, saves it and keeps it (machine in %s)', (zone) => {
    process.env.TZ = zone;
    const saved: ServiceClock[] = [];
    const told: ServiceClock[] = [];
    const clock = createServiceClock({ save: (c) => saved.push(c) });
    clock.onChange((c) => told.push(c));
    expect(clock.known()).toBeNull();
    expect(clock.current()).toBe('local');
    clock.observe(createAnswer('utc'));
    if (zone === 'UTC') {
      // Both readings agree here: nothing to settle, and either reads right.
      expect(clock.known()).toBeNull();
      return;
    }
    expect(clock.known()).toBe('utc');
    expect(saved).toEqual(['utc']);
    expect(told).toEqual(['utc']);
    // Settled: a later answer that reads otherwise changes nothing.
    clock.observe(createAnswer('local'));
    expect(clock.known()).toBe('utc');
    expect(saved).toEqual(['utc']);
  });

  it('starts from what an earlier run saved, and a chosen clock overrides any answer', () => {
    process.env.TZ = 'Asia/Taipei';
    expect(createServiceClock({ detected: 'utc' }).known()).toBe('utc');
    const chosen = createServiceClock({ setting: 'local', detected: 'utc' });
    chosen.observe(createAnswer('utc'));
    expect(chosen.known()).toBe('local');
  });

  it('learns from the newest stamp of a list, and ignores answers with no date or no stamp', () => {
    process.env.TZ = 'Asia/Taipei';
    const clock = createServiceClock();
    clock.observe({
      method: 'GET',
      path: '/statuses',
      date: httpDate(NOW),
      text: JSON.stringify([{ id: 's', name: 'Open' }]),
    });
    clock.observe({ ...createAnswer('local'), date: null });
    clock.observe({ method: 'PUT', path: '/task/x/update', date: httpDate(NOW), text: '"OK"' });
    expect(clock.known()).toBeNull();
    clock.observe({
      method: 'GET',
      path: '/project/p/tasks',
      date: httpDate(NOW),
      text: JSON.stringify([
        { id: 'a', momentCreated: stampOn(NOW - 86_400_000, 'local') },
        {
          id: 'b',
          momentCreated: stampOn(NOW - 86_400_000, 'local'),
          recentActivityMoment: stampOn(NOW - 60_000, 'local'),
        },
      ]),
    });
    expect(clock.known()).toBe('local');
  });

  it('keeps what it learnt when saving it fails', () => {
    process.env.TZ = 'America/Los_Angeles';
    const logged: string[] = [];
    const clock = createServiceClock({
      save: () => {
        throw new Error('disk full');
      },
      log: (m) => logged.push(m),
    });
    clock.observe(createAnswer('local'));
    expect(clock.known()).toBe('local');
    expect(logged.some((m) => m.includes('disk full'))).toBe(true);
  });
});
