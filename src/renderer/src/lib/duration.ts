// Durations as people type them for a time report ("1h 30m", "90m", "1.5h", "2h") and as they
// read on screen ("1h 30m"). Pure functions, so the Time section and its test agree.

/** The most one report may hold: a day, as the service allows (1..1440 minutes). */
export const MAX_DURATION_MINUTES = 24 * 60;

export type DurationParse = { ok: true; minutes: number } | { ok: false; error: string };

const PART = /(\d+(?:[.,]\d+)?)\s*(hours?|hrs?|h|minutes?|mins?|m)/gy;

/**
 * Reads a duration: hours and/or minutes with their units (`1h 30m`, `90m`, `1.5h`, `2h`,
 * `1h30`), or a bare number of minutes (`45`). The result is whole minutes, 1 to 24 h; the
 * error names the field ("Duration: ...").
 */
export function parseDuration(text: string): DurationParse {
  const input = text.trim().toLowerCase();
  if (!input) return { ok: false, error: 'Duration: type how long, e.g. 1h 30m, 90m or 1.5h' };
  let minutes: number;
  if (/^\d+$/.test(input)) {
    minutes = Number(input);
  } else {
    // "1h30" reads as 1 h 30 min: a trailing bare number after hours is minutes.
    const normalized = input.replace(/^(\d+(?:[.,]\d+)?\s*h)\s*(\d+)$/, '$1 $2m');
    minutes = 0;
    let seenHours = false;
    let seenMinutes = false;
    let at = 0;
    PART.lastIndex = 0;
    while (at < normalized.length) {
      while (normalized[at] === ' ') at++;
      if (at >= normalized.length) break;
      PART.lastIndex = at;
      const match = PART.exec(normalized);
      if (!match)
        return { ok: false, error: `Duration: cannot read '${text.trim()}'; type e.g. 1h 30m, 90m or 1.5h` };
      const value = Number(match[1]!.replace(',', '.'));
      const hours = match[2]!.startsWith('h');
      if ((hours && seenHours) || (!hours && seenMinutes)) {
        return { ok: false, error: `Duration: '${text.trim()}' names ${hours ? 'hours' : 'minutes'} twice` };
      }
      if (hours) seenHours = true;
      else seenMinutes = true;
      minutes += hours ? value * 60 : value;
      at = PART.lastIndex;
    }
    minutes = Math.round(minutes);
  }
  if (minutes < 1) return { ok: false, error: 'Duration: must be at least 1 minute' };
  if (minutes > MAX_DURATION_MINUTES) return { ok: false, error: 'Duration: must be at most 24h (one day)' };
  return { ok: true, minutes };
}

/** Minutes as "1h 30m", "45m", "2h". */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h && m) return `${h}h ${m}m`;
  if (h) return `${h}h`;
  return `${m}m`;
}

/** A running timer's time as a clock shows it: "0:05:09", "26:00:00". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
