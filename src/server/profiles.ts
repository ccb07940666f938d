import { randomBytes } from 'node:crypto';
import { OK_BODY } from '../shared/api/common';
import type { ServiceContext } from './context';
import type { Answer, Method } from './http/router';

/**
 * How the service answers. `spec` sends the spec's full shape (and our extensions); `goodday`
 * answers as GoodDay's live service does (`shared/spec/live-service-notes.md`): fields left out
 * or null, UTC moments with trimmed fractions, 6-character ids, no tag or template list, no
 * created-id headers. Both store the same data and apply the same rules: a profile only shapes
 * answers and chooses which extension routes exist.
 */
export const SERVICE_PROFILES = ['spec', 'goodday'] as const;
export type ServiceProfileName = (typeof SERVICE_PROFILES)[number];

export function isServiceProfile(value: string): value is ServiceProfileName {
  return (SERVICE_PROFILES as readonly string[]).includes(value);
}

export interface ServiceProfile {
  readonly name: ServiceProfileName;
  /** Whether a route (method and pattern without the `/2.0` prefix) exists in this profile. */
  offers(method: Method, url: string): boolean;
  /** A route's answer as this profile sends it. */
  shape(method: Method, url: string, answer: Answer): Answer;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id of `length` alphanumeric characters from a CSPRNG. */
export function alphanumericId(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return out;
}

/**
 * The id source of a profile: 20 characters for the spec (opaque), 6 for GoodDay as its live ids
 * (`GfPrjC`). 62^6 ids make a clash between two of a few thousand items about one in ten
 * million per insert, which a team or test service does not reach.
 */
export function profileIds(name: ServiceProfileName): () => string {
  return name === 'goodday' ? () => alphanumericId(6) : () => alphanumericId(20);
}

const SPEC: ServiceProfile = {
  name: 'spec',
  offers: () => true,
  shape: (_method, _url, answer) => answer,
};

export function createProfile(name: ServiceProfileName, ctx: ServiceContext): ServiceProfile {
  return name === 'goodday' ? gooddayProfile(ctx) : SPEC;
}

// ---------------------------------------------------------------------------------------------
// The GoodDay profile

type Json = Record<string, unknown>;
type Shaper = (value: unknown) => unknown;

/** Keys whose values are moments (date and time) in any answer; dates alone are left as they are. */
const MOMENT_KEYS = new Set([
  'momentCreated',
  'moment_created',
  'momentUpdated',
  'momentClosed',
  'recentActivityMoment',
  'dateCreated',
  'editDate',
]);

const LOCAL_MOMENT = /^(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;

/**
 * A stored moment (local wall-clock time, as the spec stamps it) as the live service writes it:
 * UTC with no offset, the fraction's trailing zeros trimmed and no fraction when it is zero
 * (`2023-10-06T07:53:47.04146`). The separator is kept (create task answers with a space).
 * In the hour a clock is set back the local reading is ambiguous; the first one is taken.
 */
export function toLiveMoment(local: string): string {
  const m = LOCAL_MOMENT.exec(local);
  if (!m) return local;
  const fraction = (m[8] ?? '').padEnd(6, '0');
  const date = new Date(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[5]),
    Number(m[6]),
    Number(m[7] ?? 0),
    Number(fraction.slice(0, 3)),
  );
  if (Number.isNaN(date.getTime())) return local;
  const p = (n: number) => String(n).padStart(2, '0');
  const micros = `${String(date.getUTCMilliseconds()).padStart(3, '0')}${fraction.slice(3)}`.replace(
    /0+$/,
    '',
  );
  return (
    `${date.getUTCFullYear()}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}${m[4]}` +
    `${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())}` +
    (micros ? `.${micros}` : '')
  );
}

/** Rewrites every moment-valued key, at any depth, with `toLiveMoment` (in place). */
function liveMoments(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) liveMoments(item);
  } else if (value && typeof value === 'object') {
    const object = value as Json;
    for (const [key, inner] of Object.entries(object)) {
      if (typeof inner === 'string' && MOMENT_KEYS.has(key)) object[key] = toLiveMoment(inner);
      else if (inner && typeof inner === 'object') liveMoments(inner);
    }
  }
  return value;
}

const each =
  (shaper: (item: Json) => Json): Shaper =>
  (value) =>
    Array.isArray(value) ? value.map((item) => shaper(item as Json)) : value;

const without = (item: Json, ...keys: string[]): Json => {
  const out = { ...item };
  for (const key of keys) delete out[key];
  return out;
};

/**
 * A project as the live list sends it: no `isFolder` (`systemType` says it), `status` null unless
 * a status was chosen for it (`withStatus`: folders carry none, and most live projects have none),
 * `statusComments` null when empty.
 */
function liveProject(item: Json, withStatus: ReadonlySet<string>): Json {
  const out = without(item, 'isFolder');
  if (!withStatus.has(String(item['id'])) || item['systemType'] === 'FOLDER') out['status'] = null;
  if (item['statusComments'] === '') out['statusComments'] = null;
  return out;
}

/** A task as the live lists send it: `reportedTime` null, `systemType` 1 (task) or 2 (subtask). */
function liveTask(item: Json): Json {
  const out: Json = { ...item, reportedTime: null, systemType: item['parentTaskId'] ? 2 : 1 };
  if (Array.isArray(item['subtasks'])) out['subtasks'] = (item['subtasks'] as Json[]).map(liveTask);
  return out;
}

/**
 * A colour (1-24, the service's palette) per system status: the live statuses carry one, our
 * database keeps none; which colours the live service uses is not known.
 */
const STATUS_COLOR: Record<number, number> = { 1: 11, 2: 4, 3: 7, 4: 2, 5: 15 };

function gooddayProfile(ctx: ServiceContext): ServiceProfile {
  /** Users carry the live service's extra fields; the organization's first user is its admin. */
  // Users have no creation moment here: the organization's set-up (its first project) stands in.
  const firstMoment = ctx.db.prepare<[], string | null>('SELECT MIN(moment_created) FROM projects').pluck();
  const liveUsers = (users: Json[]): Json[] => {
    const admin = ctx.org.users()[0]?.id ?? null;
    const created = firstMoment.get() ?? null;
    return users.map((user) => {
      const isAdmin = user['id'] === admin;
      return {
        ...user,
        companyRole: isAdmin ? 'Manager' : 'User',
        reportsToUserId: isAdmin ? null : admin,
        isAdmin,
        momentCreated: created ?? ctx.now(),
        // The live list has rates and skills; these names for them are assumed.
        hourlyRate: null,
        internalHourlyRate: null,
        skills: [],
      };
    });
  };

  /** Projects whose status was chosen (update project with `statusId`), not only defaulted. */
  const chosenStatus = ctx.db
    .prepare<[], string>(
      "SELECT DISTINCT project_id FROM project_history WHERE event_type = 'STATUS_UPDATED'",
    )
    .pluck();
  const liveProjects: Shaper = (value) => {
    const withStatus = new Set(chosenStatus.all());
    return Array.isArray(value)
      ? value.map((p) => without(liveProject(p as Json, withStatus), 'customFieldsData'))
      : liveProject(value as Json, withStatus);
  };

  const shapers: Record<string, Shaper> = {
    'GET /statuses': each((s) => ({
      id: s['id'],
      name: s['name'],
      color: STATUS_COLOR[Number(s['systemStatus'])] ?? 1,
      description: '',
      systemStatus: s['systemStatus'],
    })),
    'GET /users': (value) => liveUsers(value as Json[]),
    'GET /user/:id': (value) => liveUsers([value as Json])[0],
    'GET /projects': liveProjects,
    'GET /project/:id': (value) => without(liveProjects(value) as Json, 'settings'),
    'POST /projects/new-folder': liveProjects,
    'POST /projects/new-project': liveProjects,
    'GET /crm/contacts': each((c) => without(c, 'userId')),
    'GET /crm/contact/:id': (value) => {
      const detail = value as { contact: Json };
      return { ...detail, contact: { ...detail.contact, userId: null } };
    },
    'GET /project/:id/tasks': each(liveTask),
    'GET /user/:id/action-required-tasks': each(liveTask),
    'GET /user/:id/assigned-tasks': each(liveTask),
    'GET /tag/:id/tasks': each(liveTask),
    'GET /task/:id': (value) => liveTask(value as Json),
    // Time report items carry no billable flag on the live service (our extension).
    'GET /user/:id/time-reports': each((t) => without(t, 'isBillable')),
    'GET /task/:id/time-reports': each((t) => without(t, 'isBillable')),
    'GET /project/:id/time-reports': each((t) => without(t, 'isBillable')),
    'POST /time-reports': each((t) => without(t, 'isBillable')),
  };

  /** Writes the live service answers with `OK` where our service sends the created item. */
  const answeredOk = new Set(['POST /task/:id/time-report']);

  /** Our extensions the live service does not offer (its API shows no attachment download). */
  const absent = new Set(['GET /tags', 'GET /project-templates', 'GET /attachments/:id']);

  return {
    name: 'goodday',
    offers: (method, url) => !absent.has(`${method} ${url}`),
    shape(method, url, answer) {
      if (answer === OK_BODY || 'file' in answer) return answer;
      if (answeredOk.has(`${method} ${url}`)) return OK_BODY;
      // The live service sends no created-id headers: the body is all a client gets.
      if ('createdId' in answer) return OK_BODY;
      // A copy: the shapers and the moment rewrite change what they are given.
      const value: unknown =
        'jsonText' in answer ? JSON.parse(answer.jsonText) : structuredClone(answer.json);
      const shaper = shapers[`${method} ${url}`];
      const json = liveMoments(shaper ? shaper(value) : value);
      return 'status' in answer && answer.status !== undefined ? { json, status: answer.status } : { json };
    },
  };
}
