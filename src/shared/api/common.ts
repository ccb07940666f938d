import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * Shared primitives of the Work Management Service 2.0 wire format. Request schemas are what
 * the server validates (tolerant of the spellings real clients send); response schemas are what
 * a client parses (strict on types, tolerant of extra fields).
 */

/** Opaque identifier of any resource. */
export const Id = lazySchema(() =>
  z.string().min(1, 'must be a non-empty id').max(200, 'must be at most 200 characters'),
);
export type Id = z.infer<typeof Id>;

/** The name of a task, project or folder: trimmed, 1-1000 characters. */
export const Title = lazySchema(() =>
  z.string().trim().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters'),
);

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Days in each month of a common year; February gains one in a leap year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * True when `value` is a real calendar date written YYYY-MM-DD. Called for every date of every
 * task of a pulled list (tens of thousands at a time), so it allocates nothing beyond the match.
 */
export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (MONTH_DAYS[mo - 1] ?? 0) + (leap ? 1 : 0);
}

/** A request or response date: `YYYY-MM-DD`. */
export const DateString = lazySchema(() =>
  z.string().refine(isCalendarDate, { message: 'must be a date written YYYY-MM-DD' }),
);
export type DateString = z.infer<typeof DateString>;

/**
 * A range's end is not before its start, where both are given (a task's, a project's, an event's
 * dates): `.refine(endNotBeforeStart, endBeforeStart())`. The service refuses such a range.
 */
export function endNotBeforeStart(range: { startDate?: string | null; endDate?: string | null }): boolean {
  return !range.startDate || !range.endDate || range.endDate >= range.startDate;
}
export const END_BEFORE_START_MESSAGE = 'must not be before startDate';
/**
 * The refinement's issue, a new object at each call: zod 4 rewrites the params object it is given
 * (its `message` becomes an `error` function), so one object must not serve two refinements.
 */
export function endBeforeStart(): { path: string[]; message: string } {
  return { path: ['endDate'], message: END_BEFORE_START_MESSAGE };
}

/**
 * A response timestamp: local time without a zone, `T` or space between date and time, up to 6
 * fraction digits (e.g. `2026-11-21T09:30:00.123456`, `2026-11-21 09:30:00.123456`).
 */
export const LocalTimestamp = lazySchema(() =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/,
      'must be a local timestamp without zone',
    ),
);
export type LocalTimestamp = z.infer<typeof LocalTimestamp>;

/** Formats a wall-clock reading as a zone-less local timestamp with 6 fraction digits. */
export function formatLocalTimestamp(date: Date, separator: 'T' | ' ' = 'T', micros = 0): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  const frac = p(date.getMilliseconds(), 3) + p(Math.max(0, Math.min(999, Math.trunc(micros))), 3);
  return (
    `${p(date.getFullYear(), 4)}-${p(date.getMonth() + 1)}-${p(date.getDate())}` +
    `${separator}${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}.${frac}`
  );
}

/** The local calendar date of a wall-clock reading, `YYYY-MM-DD`. */
export function formatLocalDate(date: Date): string {
  return formatLocalTimestamp(date).slice(0, 10);
}

/**
 * A boolean query parameter: `true`/`false`/`1`/`0` in any case, or a JSON boolean when it
 * arrives in a body. Anything else (including a repeated parameter) is rejected.
 */
export const BooleanParam = lazySchema(() =>
  z
    .union([z.boolean(), z.string().regex(/^(true|false|1|0)$/i, 'must be true, false, 1 or 0')])
    .transform((v) => v === true || (typeof v === 'string' && (v === '1' || v.toLowerCase() === 'true'))),
);

/** An optional boolean query parameter that defaults to false. */
export const OptionalFlag = lazySchema(() => BooleanParam.optional().transform((v) => v ?? false));

/** Priority of tasks and projects: 1-10, 50 Blocker, 100 Emergency. */
export const Priority = lazySchema(() =>
  z.int('must be an integer').refine((v) => (v >= 1 && v <= 10) || v === 50 || v === 100, {
    message: 'must be 1-10, 50 (Blocker) or 100 (Emergency)',
  }),
);
export const Progress = lazySchema(() =>
  z.int('must be an integer').min(0, 'must be 0-100').max(100, 'must be 0-100'),
);
export const Color = lazySchema(() =>
  z.int('must be an integer').min(1, 'must be 1-24').max(24, 'must be 1-24'),
);
/** Minutes. */
export const Minutes = lazySchema(() =>
  z.int('must be an integer').min(0, 'must not be negative').max(2_147_483_647),
);
export const Health = lazySchema(() =>
  z.union([z.literal(0), z.literal(1), z.literal(2)], {
    message: 'must be 0, 1, 2 or null',
  }),
);

/** `{id, name}` as used for task status and task type. */
export const NamedRef = lazySchema(() => z.looseObject({ id: z.string(), name: z.string() }));
export type NamedRef = z.infer<typeof NamedRef>;

/** Map of custom-field id to value, on tasks, projects and CRM records. */
export const CustomFieldsData = lazySchema(() => z.record(z.string(), z.unknown()));
export type CustomFieldsData = z.infer<typeof CustomFieldsData>;

/**
 * A response field the live service may leave out or send as null (GoodDay's API v2 does for
 * many fields the spec's tables list): read as `fallback()` then. Our own service always sends
 * it, and the parsed type keeps it required, so nothing downstream tests for its absence.
 */
export function orDefault<T extends z.ZodType>(schema: T, fallback: () => z.output<T>) {
  return schema.nullish().transform((v): z.output<T> => (v ?? fallback()) as z.output<T>);
}

/** Every error the service answers: a 4xx whose body names the field or the rule. */
export const ErrorBody = lazySchema(() => z.looseObject({ errorMessage: z.string() }));
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The text body of a successful write whose response the spec does not show. */
export const OK_BODY = 'OK';

/** The Limits table of the spec. */
export const LIMITS = {
  filesPerUploadRequest: 20,
  attachmentsPerRequest: 20,
  attachmentNameLength: 255,
  uploadUrlLifetimeMs: 60 * 60 * 1000,
  /** Default cap of one uploaded file, configurable on the server. */
  defaultUploadBytes: 100 * 1024 * 1024,
  /** Cap of a JSON request body. */
  requestBodyBytes: 2 * 1024 * 1024,
  nameLength: 1000,
  textLength: 200_000,
} as const;

/** The header the spec names; GoodDay's real service uses `gd-api-token`. */
export const TOKEN_HEADERS = ['svc-api-token', 'gd-api-token'] as const;

/**
 * Wraps an object schema so that alternative spellings of a field (e.g. `start-date` for
 * `startDate`) are accepted: when the canonical name is absent, the alias's value is used.
 * The wrapped schema's input type stays the canonical one for clients.
 */
export function withAliases<T extends z.ZodType>(
  schema: T,
  aliases: Record<string, string>,
): z.ZodType<z.output<T>, z.input<T>> {
  return z.preprocess((input) => {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (alias in out) {
        if (!(canonical in out)) out[canonical] = out[alias];
        delete out[alias];
      }
    }
    return out;
  }, schema) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/**
 * A field some clients send as a JSON-encoded string (e.g. `customFields`): a string is parsed
 * as JSON first; an unparseable string fails as the inner schema would on a string.
 */
export function jsonEncodedOr<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>, z.input<T>> {
  return z.preprocess((input) => {
    if (typeof input !== 'string') return input;
    try {
      return JSON.parse(input) as unknown;
    } catch {
      return input;
    }
  }, schema) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/** Path parameter `{id}`. */
export const IdParams = lazySchema(() => z.object({ id: Id }));
