// The place the window reopens on: the current route as the core keeps it per account
// (`app.rememberPlace`), and a kept place read back at start (`app.lastPlace`) checked before it
// is opened. The core gives back only a place of the right shape whose project or task it still
// holds; this side checks what the kinds mean. A place that is not one the window could have
// written (an unknown kind, a parameter of another kind, a value out of its list) opens Home.
import type { Place } from '@shared/ipc/app';
import { monthOf } from '../lib/calendar';
import { thisWeek } from '../lib/my-time';
import type { Route, RouteKind, RouteOf } from './routes';

/**
 * Parameters not kept, as they are not reopened: My Time and the calendar follow today (they
 * reopen on this week and this month), and an event open was one of the kept month's. Dropped
 * from a place read back too (one kept by an earlier version).
 */
const NOT_KEPT: { readonly [K in RouteKind]?: readonly string[] } = {
  mytime: ['week'],
  calendar: ['month', 'eventId'],
};

/**
 * The route as kept: its kind, then the parameters it has (each a text) but those not kept, in
 * the order of their names: a place reopened is kept as the same text, and not written again.
 */
export function placeOf(route: Route): Place {
  const place: Place = { kind: route.kind };
  const skipped = NOT_KEPT[route.kind] ?? [];
  const params = Object.entries(route)
    .filter(([param, value]) => param !== 'kind' && typeof value === 'string' && !skipped.includes(param))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [param, value] of params) place[param] = value as string;
  return place;
}

/** A place as one text, whatever the order of its parameters: two texts equal are the same place. */
export function placeText(place: Place): string {
  const { kind, ...params } = place;
  return JSON.stringify([kind, Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

/** The parameters of a kept place, taken one by one; anything left over is not the kind's. */
class Params {
  readonly #left: Map<string, string>;
  constructor(place: Place) {
    this.#left = new Map(Object.entries(place).filter(([param]) => param !== 'kind'));
  }
  /** A non-empty text, required. */
  id(param: string): string | undefined {
    const value = this.#left.get(param);
    this.#left.delete(param);
    return value === undefined || value.trim() === '' ? undefined : value;
  }
  /** An optional text: absent is fine, empty is not. */
  optional(param: string): { ok: boolean; value?: string } {
    if (!this.#left.has(param)) return { ok: true };
    const value = this.id(param);
    return value === undefined ? { ok: false } : { ok: true, value };
  }
  /** One of a list's values, required. */
  oneOf<T extends string>(param: string, values: readonly T[]): T | undefined {
    const value = this.id(param);
    return values.find((v) => v === value);
  }
  /** A parameter dropped on purpose (one not kept: `NOT_KEPT`). */
  skip(param: string): void {
    this.#left.delete(param);
  }
  get done(): boolean {
    return this.#left.size === 0;
  }
}

/** The optional open task beside a list, spread into the route when there is one. */
function panel(params: Params): { ok: boolean; taskId?: string } {
  const task = params.optional('taskId');
  return task.value === undefined ? { ok: task.ok } : { ok: true, taskId: task.value };
}

/** Each kind's route from its parameters, or undefined when they are not the kind's. */
const RESTORE: { readonly [K in RouteKind]: (params: Params, now: Date) => RouteOf<K> | undefined } = {
  home: (params) => {
    const { ok, ...open } = panel(params);
    return ok ? { kind: 'home', ...open } : undefined;
  },
  project: (params) => {
    const projectId = params.id('projectId');
    const layout = params.oneOf('layout', ['list', 'board', 'overview', 'timeline', 'files'] as const);
    const document = params.optional('documentId');
    const { ok, ...open } = panel(params);
    if (!projectId || !layout || !document.ok || !ok) return undefined;
    return {
      kind: 'project',
      projectId,
      layout,
      ...open,
      ...(document.value !== undefined ? { documentId: document.value } : {}),
    };
  },
  mywork: (params) => {
    const tab = params.oneOf('tab', ['action', 'assigned'] as const);
    const { ok, ...open } = panel(params);
    return tab && ok ? { kind: 'mywork', tab, ...open } : undefined;
  },
  // My Time and the calendar follow today: they reopen on this week and this month.
  mytime: (params, now) => {
    const { ok, ...open } = panel(params);
    return ok ? { kind: 'mytime', week: thisWeek(now), ...open } : undefined;
  },
  updates: (params) => {
    const { ok, ...open } = panel(params);
    return ok ? { kind: 'updates', ...open } : undefined;
  },
  tag: (params) => {
    const tagId = params.id('tagId');
    const { ok, ...open } = panel(params);
    return tagId && ok ? { kind: 'tag', tagId, ...open } : undefined;
  },
  search: (params) => {
    const query = params.id('query');
    const { ok, ...open } = panel(params);
    return query && ok ? { kind: 'search', query, ...open } : undefined;
  },
  task: (params) => {
    const taskId = params.id('taskId');
    return taskId ? { kind: 'task', taskId } : undefined;
  },
  calendar: (params, now) => {
    const view = params.oneOf('view', ['month', 'agenda'] as const);
    const { ok, ...open } = panel(params);
    return view && ok ? { kind: 'calendar', view, month: monthOf(now), ...open } : undefined;
  },
  crm: (params) => {
    const tab = params.oneOf('tab', ['contacts', 'accounts'] as const);
    const record = params.optional('recordId');
    const { ok, ...open } = panel(params);
    if (!tab || !record.ok || !ok) return undefined;
    return { kind: 'crm', tab, ...open, ...(record.value !== undefined ? { recordId: record.value } : {}) };
  },
  changes: () => ({ kind: 'changes' }),
  settings: () => ({ kind: 'settings' }),
};

function isKind(kind: string): kind is RouteKind {
  return Object.prototype.hasOwnProperty.call(RESTORE, kind);
}

/**
 * The route a kept place reopens, or undefined (Home is opened): none kept, an unknown kind, or
 * parameters that are not the kind's.
 */
export function routeOfPlace(place: Place | null | undefined, now = new Date()): Route | undefined {
  if (!place || typeof place.kind !== 'string' || !isKind(place.kind)) return undefined;
  const params = new Params(place);
  for (const param of NOT_KEPT[place.kind] ?? []) params.skip(param);
  const route = RESTORE[place.kind](params, now);
  return route && params.done ? route : undefined;
}
