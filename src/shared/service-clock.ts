import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/**
 * The clock a service stamps its moments on (`momentCreated`, `dateCreated`, ...). Its stamps
 * carry no zone: the spec says local time, GoodDay's live service writes UTC. `local` is this
 * machine's zone (the bundled service shares it); `utc` is UTC.
 */
export const ServiceClock = lazySchema(() => z.enum(['utc', 'local']));
export type ServiceClock = z.infer<typeof ServiceClock>;

/** What a person chooses for an account: a clock, or `auto` (learnt from the service's answers). */
export const ServiceClockSetting = lazySchema(() => z.enum(['auto', 'utc', 'local']));
export type ServiceClockSetting = z.infer<typeof ServiceClockSetting>;

const STAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The instant (ms since the epoch) of a service timestamp read on `clock`: `YYYY-MM-DD` and a
 * time after `T` or a space, with up to 9 fraction digits (the live service trims trailing
 * zeros). A stamp that names its zone (`Z`, `+08:00`) is read on that zone, whatever the clock.
 * Undefined when it is not a timestamp.
 */
export function instantOf(stamp: string, clock: ServiceClock): number | undefined {
  const m = STAMP_RE.exec(stamp.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(m[i])) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const s = Number(m[6] ?? 0);
  const ms = m[7] ? Math.floor(Number(m[7].slice(0, 3).padEnd(3, '0'))) : 0;
  const zone = m[8];
  if (zone !== undefined || clock === 'utc') {
    const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
    if (!zone || zone.toUpperCase() === 'Z') return utc;
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return new Date(y, mo - 1, d, h, mi, s, ms).getTime();
}

/**
 * The zone-less stamp of an instant on `clock`, as a service of that clock writes it:
 * `YYYY-MM-DDTHH:MM:SS.ffffff` (6 fraction digits, the last three zero).
 */
export function stampOn(ms: number, clock: ServiceClock, separator: 'T' | ' ' = 'T'): string {
  const date = new Date(ms);
  const utc = clock === 'utc';
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  const [y, mo, d, h, mi, s, f] = utc
    ? [
        date.getUTCFullYear(),
        date.getUTCMonth() + 1,
        date.getUTCDate(),
        date.getUTCHours(),
        date.getUTCMinutes(),
        date.getUTCSeconds(),
        date.getUTCMilliseconds(),
      ]
    : [
        date.getFullYear(),
        date.getMonth() + 1,
        date.getDate(),
        date.getHours(),
        date.getMinutes(),
        date.getSeconds(),
        date.getMilliseconds(),
      ];
  return `${p(y, 4)}-${p(mo)}-${p(d)}${separator}${p(h)}:${p(mi)}:${p(s)}.${p(f, 3)}000`;
}

/**
 * How far a fresh stamp (the `momentCreated` of a create's answer) may be from the answer's
 * `Date` header and still be read as the same moment: the service's processing, the header's
 * whole seconds. Every zone but UTC's is at least 30 minutes away from it.
 */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

/**
 * What one answer tells of the service's clock: its `Date` header (`answeredAt`, an unambiguous
 * instant of the service's own clock) against a stamp of the same answer. A `fresh` stamp (an
 * item the answer just created) reads within the tolerance of the header on the right clock. Any
 * stamp, fresh or not, cannot lie in the service's future: a reading that puts it there is the
 * wrong clock. Null when the answer cannot tell: this machine is on UTC (both readings agree), the
 * stamp is old on both readings, or neither fits (a service in a third zone).
 */
export function clockFromAnswer(stamp: string, answeredAt: number, fresh: boolean): ServiceClock | null {
  const asUtc = instantOf(stamp, 'utc');
  const asLocal = instantOf(stamp, 'local');
  if (asUtc === undefined || asLocal === undefined) return null;
  if (Math.abs(asUtc - asLocal) < CLOCK_TOLERANCE_MS) return null;
  const fits = (at: number): boolean =>
    fresh ? Math.abs(at - answeredAt) <= CLOCK_TOLERANCE_MS : at <= answeredAt + CLOCK_TOLERANCE_MS;
  const utc = fits(asUtc);
  const local = fits(asLocal);
  if (utc === local) return null;
  return utc ? 'utc' : 'local';
}
