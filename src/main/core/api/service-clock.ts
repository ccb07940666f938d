import { clockFromAnswer, type ServiceClock, type ServiceClockSetting } from '../../../shared/service-clock';

/** One 2xx answer of the service, as the HTTP layer hands it to an observer. */
export interface Answer {
  method: string;
  path: string;
  /** The `Date` header: the service's own reading of the moment it answered. */
  date: string | null;
  /** The body as received (JSON for the answers that carry stamps). */
  text: string;
}

export interface ServiceClockOptions {
  /** The account's choice; `auto` (the default) learns the clock from the service's answers. */
  setting?: ServiceClockSetting;
  /** What an earlier run learnt and saved, kept as settled. */
  detected?: ServiceClock;
  /** Saves what was learnt (once), so the next run starts with it. */
  save?(clock: ServiceClock): void;
  log?(message: string): void;
}

/**
 * The service clock of one account: the stamps of its answers are read, and the app's own stamps
 * of local changes written, on it (displayed times, rule 6's look-up windows). Chosen by the
 * account's setting, else learnt once from an answer and kept.
 */
export interface ServiceClockState {
  /** The clock when chosen or learnt; null while it is not known yet. */
  known(): ServiceClock | null;
  /** The clock to read and write stamps on now: the known one, else the spec's local time. */
  current(): ServiceClock;
  /** Reads an answer for evidence while the clock is not known (the HTTP layer's observer). */
  observe(answer: Answer): void;
  /** Told once the clock becomes known. */
  onChange(listener: (clock: ServiceClock) => void): () => void;
}

/** A stamp field of the service's resources (tasks, projects, messages, events, documents). */
const STAMP_FIELD =
  /"(momentCreated|moment_created|dateCreated|recentActivityMoment|momentUpdated)"\s*:\s*"([^"]{10,40})"/g;

/** A create's answer (a POST) names the new item's `momentCreated`: the moment of the answer. */
const FRESH_FIELD = /"(?:momentCreated|moment_created)"\s*:\s*"([^"]{10,40})"/;

/**
 * The evidence of an answer: a create's fresh `momentCreated`, else the newest stamp of any item
 * a read answered. Read off the text, so every answer (a list read item by item too) is seen
 * without parsing it twice; the text is looked at only while the clock is unknown.
 */
function evidenceOf(answer: Answer): { stamp: string; fresh: boolean } | null {
  if (answer.method === 'POST') {
    const fresh = FRESH_FIELD.exec(answer.text)?.[1];
    return fresh ? { stamp: fresh, fresh: true } : null;
  }
  if (answer.method !== 'GET') return null;
  let newest: string | null = null;
  for (const match of answer.text.matchAll(STAMP_FIELD)) {
    const normal = (match[2] ?? '').replace(' ', 'T');
    if (newest === null || normal > newest) newest = normal;
  }
  return newest === null ? null : { stamp: newest, fresh: false };
}

export function createServiceClock(options: ServiceClockOptions = {}): ServiceClockState {
  const setting = options.setting ?? 'auto';
  let learnt: ServiceClock | null = setting === 'auto' ? (options.detected ?? null) : null;
  const listeners = new Set<(clock: ServiceClock) => void>();
  const known = (): ServiceClock | null => (setting === 'auto' ? learnt : setting);
  return {
    known,
    current: () => known() ?? 'local',
    observe(answer) {
      // On a machine on UTC both readings of every stamp agree: no answer can tell them apart.
      if (known() !== null || !answer.date || new Date().getTimezoneOffset() === 0) return;
      const answeredAt = Date.parse(answer.date);
      const evidence = evidenceOf(answer);
      if (!evidence || !Number.isFinite(answeredAt)) return;
      const clock = clockFromAnswer(evidence.stamp, answeredAt, evidence.fresh);
      if (!clock) return;
      learnt = clock;
      options.log?.(
        `The service stamps ${clock === 'utc' ? 'UTC' : 'local time'} (${answer.method} ${answer.path}: ${evidence.stamp}, answered ${answer.date})`,
      );
      // What was learnt holds for this run even when saving it or a listener fails.
      try {
        options.save?.(clock);
      } catch (err) {
        options.log?.(
          `Could not save the service clock: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      for (const listener of listeners) {
        try {
          listener(clock);
        } catch (err) {
          options.log?.(`a listener failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
