import { z } from 'zod';
import { END_BEFORE_START_MESSAGE, endNotBeforeStart } from '../../../../shared/api/common';
import { COMMUNICATION_FLOW } from '../../../../shared/api/messages';
import { instantOf, stampOn, type ServiceClock } from '../../../../shared/service-clock';
import { DependencyKind } from '../../../../shared/ipc/tasks';
import type { ServiceClient } from '../../api/client';
import type { ServiceClockState } from '../../api/service-clock';
import { RejectedError } from '../../api/errors';
import type { Cache } from '../../cache/cache';
import { sameValue, type FieldChange } from '../field-claims';
import { OutboxError } from '../outbox';
import { isTempId, TEMP_ID_PREFIX } from '../../local-ids';
import { mappedRealIds } from '../temp-ids';
import type { ApplyContext, OperationKind, OutboxEntry, RollbackContext } from '../types';
import type { ListedItems } from '../../sync/pending';

/** What every real operation kind is built with. */
export interface KindDeps {
  cache: Cache;
  /** The account's acting user: `userId`/`fromUserId`/`createdByUserId` of every request. */
  userId: string;
  /**
   * The service's clock: the stamps of local changes are written on it, and look-ups read the
   * service's stamps on it (unknown: either reading). Absent: the spec's local time.
   */
  serviceClock?: Pick<ServiceClockState, 'known' | 'current'>;
}

export type Kind<P, R = unknown, N extends string = string> = OperationKind<P, R, ServiceClient, N>;

/**
 * Every kinds module of the app, by name, as its factory makes it: each module's file adds its
 * own entry by module augmentation, so the outbox's `KindName` and `KindPayload` cover it without
 * the outbox naming it. The factories are handed to the outbox by the engine, from the handler
 * modules that name them (`handlers/index.ts`), except the tasks' and the attachments' (made from
 * the tasks'), which the outbox makes itself.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by augmentation
export interface KindModules {}

/** A kinds module's factory, as a handler module names it and the outbox is given it. */
export type KindFactory = (deps: KindDeps) => KindModules[keyof KindModules];

/**
 * A look-up accepts items the service stamped from this long before the send: the service's
 * machine and this one keep their own time.
 */
export const LOOKUP_SLACK_MS = 5 * 60_000;

/**
 * The zone-less stamp of a moment (ms) on the service's clock (`T` between date and time), for
 * the cached copy of a local change: it sorts and reads as the service's own stamps do.
 */
export function stampOf(ms: number, clock: ServiceClock = 'local'): string {
  return stampOn(ms, clock);
}

/** The clock to write the stamps of local changes on. */
export function clockOf(deps: Pick<KindDeps, 'serviceClock'>): ServiceClock {
  return deps.serviceClock?.current() ?? 'local';
}

/** The clock a look-up reads the service's stamps on: null while the engine has not learnt it. */
export function lookUpClock(deps: Pick<KindDeps, 'serviceClock'>): ServiceClock | null {
  return deps.serviceClock ? deps.serviceClock.known() : 'local';
}

/**
 * The instant of a service stamp for a look-up window `[floor, ceiling]`: its reading on the
 * clock when that is known. While it is not, the earliest reading inside the window (else -∞):
 * the item made by the create is found whichever clock the service keeps, and an older item of
 * the same name is taken only if it was made the zone's offset (hours) before the send, within
 * the window's minutes.
 */
export function lookUpInstant(
  moment: string,
  clock: ServiceClock | null,
  window: { floor: number; ceiling: number },
): number {
  if (clock) return instantOf(moment, clock) ?? Number.NEGATIVE_INFINITY;
  const inside = (['utc', 'local'] as const)
    .map((c) => instantOf(moment, c))
    .filter((at): at is number => at !== undefined && at >= window.floor && at <= window.ceiling);
  return inside.length ? Math.min(...inside) : Number.NEGATIVE_INFINITY;
}

/**
 * The look-up of a create among the items the service lists: of those `matches` accepts,
 * stamped (on the service's clock, `clock`; null while unknown) no earlier than `sentAt` less
 * the slack and not taken by another create, the earliest. While the clock is unknown the window
 * also ends at `now` (default: the system clock) plus the slack.
 */
export function earliestCreated<T extends { id: string }>(
  items: readonly T[],
  options: {
    sentAt: number | null;
    momentOf: (item: T) => string;
    isMapped: (id: string) => boolean;
    clock: ServiceClock | null;
    now?: number;
  },
  matches: (item: T) => boolean,
): T | undefined {
  const { momentOf, isMapped, clock } = options;
  const window = {
    floor: (options.sentAt ?? 0) - LOOKUP_SLACK_MS,
    ceiling: (options.now ?? Date.now()) + LOOKUP_SLACK_MS,
  };
  return items
    .map((item) => ({ item, at: lookUpInstant(momentOf(item), clock, window) }))
    .filter(({ item, at }) => matches(item) && at >= window.floor && !isMapped(item.id))
    .sort((a, b) => a.at - b.at)[0]?.item;
}

/**
 * A look-up's comparison of a field the live service may leave out of a list item (a message's
 * `communicationFlow` or `toUserId`): equal when the item carries it, accepted when it does not
 * (absent or null), so the look-up rests on what every service answers.
 */
export function sameIfListed<T>(listed: T | null | undefined, wanted: T): boolean {
  return listed === undefined || listed === null || listed === wanted;
}

/**
 * Whether a listed message's `communicationFlow` fits the one a post sent. The message list is
 * read leniently: a flow the answer leaves out (as the live service may) reads as a comment's (or
 * a status change's), so a reply may be listed as a comment: a reply's look-up takes either.
 */
export function sameFlow(listed: number | null | undefined, sent: number): boolean {
  if (sent === COMMUNICATION_FLOW.reply && listed === COMMUNICATION_FLOW.comment) return true;
  return sameIfListed(listed, sent);
}

/** A create's look-up test over a list: the item it made, not one `taken` already. */
export type CreatedAmong<T> = (
  items: readonly T[],
  payload: unknown,
  entry: OutboxEntry,
  taken: (id: string) => boolean,
) => T | undefined;

/**
 * A kind that makes an item of `entity` a list may hold (a create, a posted message), with its
 * look-up test over that list (the one its `lookUp` runs). While its entry is unfolded (the
 * service applied it, its answer not folded here: `Outbox.unfolded`), the service's copy in a
 * list sync stores is left out and the local row stands for it (`copiesOfUnfolded`). Each kinds
 * module declares its own in `lookUps`; the account outbox gathers them by entity.
 */
export interface ListedLookUp<E extends keyof ListedItems> {
  entity: E;
  kind: string;
  among: CreatedAmong<ListedItems[E]>;
}

/** Any entity's `ListedLookUp`. */
export type AnyListedLookUp = { [E in keyof ListedItems]: ListedLookUp<E> }[keyof ListedItems];

export function listedLookUp<E extends keyof ListedItems>(
  entity: E,
  kind: string,
  among: CreatedAmong<ListedItems[E]>,
): ListedLookUp<E> {
  return { entity, kind, among };
}

/**
 * A kind's look-up test given its parsed payload `p` (`taken` defaults to none), over a list of
 * any shape that has the fields it compares.
 */
export type FindCreated<T, P> = <U extends T>(
  items: readonly U[],
  p: P,
  entry: Pick<OutboxEntry, 'sentAt'>,
  taken?: (id: string) => boolean,
) => U | undefined;

/** A kind's look-up test over a stored payload, as `copiesOfUnfolded` asks it: parsed, then tested. */
export function createdAmongOf<T, P>(
  parse: (payload: unknown) => P,
  find: FindCreated<T, P>,
): <U extends T>(...args: Parameters<CreatedAmong<U>>) => U | undefined {
  return (items, payload, entry, taken) => find(items, parse(payload), entry, taken);
}

/**
 * Rule 6's test of a create whose item carries the service's creation stamp: of `items`, those
 * `matches` accepts for payload `p`, stamped (`momentOf`) no earlier than the send on the
 * service's clock (see `earliestCreated`), taken neither by another create (the id map) nor by
 * `taken`, nor among `excluded(p)` (ids the service listed before the send); the earliest.
 * `find` is the test for the kind's look-up; `createdAmong` the same over a stored payload.
 */
export function stampedCreate<T extends { id: string }, P>(
  deps: KindDeps,
  spec: {
    parse: (payload: unknown) => P;
    momentOf: (item: T) => string;
    matches: (item: T, p: P) => boolean;
    excluded?: (p: P) => readonly string[];
  },
): { find: FindCreated<T, P>; createdAmong: ReturnType<typeof createdAmongOf<T, P>> } {
  const isMapped = mappedIds(deps.cache);
  const find: FindCreated<T, P> = (items, p, entry, taken = () => false) => {
    const excluded = spec.excluded?.(p) ?? [];
    return earliestCreated(
      items,
      {
        sentAt: entry.sentAt,
        momentOf: spec.momentOf,
        isMapped: (id) => isMapped(id) || taken(id) || excluded.includes(id),
        clock: lookUpClock(deps),
      },
      (item) => spec.matches(item, p),
    );
  };
  return { find, createdAmong: createdAmongOf(spec.parse, find) };
}

/**
 * Of `items` (a list the service answered), the ids of the service's copies of `unfolded`
 * creates or posted messages (applied there, their answer not folded here: `Outbox.unfolded`),
 * each found by its kind's look-up test, so each item stands for one entry at most. The local
 * row (or a message's draft) stands for the item until "try again" folds it (the remap puts the
 * real id on it; a draft gives way at the next fetch of its task's messages) or "reload" settles
 * it (the local row goes, the next list brings the service's).
 */
export function copiesOfUnfolded<T extends { id: string }>(
  unfolded: readonly { entry: OutboxEntry; payload: unknown }[],
  items: readonly T[],
  find: CreatedAmong<T>,
): Set<string> {
  const copies = new Set<string>();
  for (const { entry, payload } of unfolded) {
    const found = find(items, payload, entry, (id) => copies.has(id));
    if (found) copies.add(found.id);
  }
  return copies;
}

/** A cached dependency as a delete's undo keeps it (see `DependencyRow` of the cache). */
export const DependencyRowSnapshot = z.object({
  id: z.string(),
  type: z.number().int(),
  predecessorKind: DependencyKind,
  predecessorId: z.string(),
  successorKind: DependencyKind,
  successorId: z.string(),
});

/** The local id a create's payload carries until the service names the item. */
export const TempId = z.string().startsWith(TEMP_ID_PREFIX);

/**
 * Answers whether a request was answered 404, i.e. the item is gone: for a delete's send, what
 * it asked for already holds; for a delete's look-up, the earlier delete was applied.
 */
export async function gone(request: () => Promise<unknown>): Promise<boolean> {
  try {
    await request();
    return false;
  } catch (err) {
    if (err instanceof RejectedError && err.status === 404) return true;
    throw err;
  }
}

/** Chain keys of the items a payload refers to that the service does not know yet (rule 5). */
export function tempKeys(entity: string, ...ids: (string | null | undefined)[]): string[] {
  return ids.filter(isTempId).map((id) => `${entity}:${id}`);
}

/** Real ids another create already took: a look-up must not pick them again. */
export function mappedIds(cache: Cache): (id: string) => boolean {
  return mappedRealIds(cache.db);
}

/**
 * Rule 8 for one record: the fields of `wanted` whose value differs from `current`, as claims
 * (from the cached value to the new one).
 */
export function changedFields(
  current: Readonly<Record<string, unknown>>,
  wanted: Readonly<Record<string, unknown>>,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [field, to] of Object.entries(wanted)) {
    if (to === undefined) continue;
    const from = current[field] ?? null;
    if (!sameValue(from, to)) changes[field] = { from, to };
  }
  return changes;
}

/**
 * Of `fields`, those the service's `item` holds with another value than `base` (the record as a
 * delete removed it here); a field either side lacks is not judged, nor one with a waiting change
 * of this client when the delete was made (`pendingBases`): the service may end with any of that
 * chain's values, as some are applied and some refused, and each of those changes was checked
 * before it was sent.
 */
export function changedOnService(
  base: Readonly<Record<string, unknown>>,
  item: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  pendingBases: Readonly<Record<string, unknown>> = {},
): string[] {
  return fields.filter(
    (f) => f in base && f in item && !(f in pendingBases) && !sameValue(base[f] ?? null, item[f] ?? null),
  );
}

/** The claim bases of `fields` of a record with a waiting local change (see `changedOnService`). */
export function pendingBasesOf(
  ctx: ApplyContext,
  entity: string,
  id: string,
  fields: readonly string[],
): Record<string, unknown> {
  const bases: Record<string, unknown> = {};
  for (const field of fields) {
    const base = ctx.baseOf(entity, id, field);
    if (base) bases[field] = base.value;
  }
  return bases;
}

type Range = { startDate?: string | null; endDate?: string | null };

/**
 * A change that sets one date of a task's or a project's range is checked against the other date
 * as the cache holds it (a pending local value included: the cache shows it), with the check a
 * change setting both gets from its schema (`endNotBeforeStart`): otherwise it is queued and the
 * service refuses it later. Throws naming the date the change sets.
 */
export function checkRange(current: Readonly<Record<string, unknown>>, changes: Range): void {
  const cached = (field: 'startDate' | 'endDate') => {
    const value = current[field];
    return typeof value === 'string' ? value : null;
  };
  const range = {
    startDate: changes.startDate !== undefined ? changes.startDate : cached('startDate'),
    endDate: changes.endDate !== undefined ? changes.endDate : cached('endDate'),
  };
  if (endNotBeforeStart(range)) return;
  const [field, message] =
    changes.endDate !== undefined
      ? ['endDate', `${END_BEFORE_START_MESSAGE} (${range.startDate})`]
      : ['startDate', `must not be after endDate (${range.endDate})`];
  throw new OutboxError('invalid-argument', `${field}: ${message}`, `changes.${field}`);
}

/** Writes back the base values a rollback releases, through the record's own writer. */
export function restoreReleased(
  ctx: RollbackContext,
  entity: string,
  write: (id: string, values: Record<string, unknown>) => void,
): void {
  for (const slot of ctx.releaseFields().values()) {
    if (slot.entity === entity) write(slot.id, slot.values);
  }
}

/** Claims the changes and writes them; answers false when nothing changed (no entry needed). */
export function applyChanges(
  ctx: ApplyContext,
  entity: string,
  id: string,
  changes: Record<string, FieldChange>,
  write: (id: string, values: Record<string, unknown>) => void,
): boolean {
  if (!Object.keys(changes).length) return false;
  ctx.claimFields(entity, id, changes);
  write(id, Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, c.to])));
  return true;
}

type FieldValue = { id: string; value?: unknown };

/**
 * The custom-field write of a record (task or project), the same on both: the new values go
 * into `customFieldsData` (null or absent removes one), only a real change is queued, and
 * unsent writes of one record merge field by field.
 */
export function customFieldsKind<P extends { values: FieldValue[] }, N extends string>(spec: {
  name: N;
  entity: 'task' | 'project';
  parse(payload: unknown): P;
  idOf(p: P): string;
  describe: string;
  record(id: string): Record<string, unknown>;
  write(id: string, values: Record<string, unknown>): void;
  send(
    client: ServiceClient,
    id: string,
    body: { userId: string; customFields: { id: string; value: unknown }[] },
  ): Promise<unknown>;
  userId: string;
}): Kind<P, void, N> {
  return {
    name: spec.name,
    parse: (p) => spec.parse(p),
    keysOf: (p) => [`${spec.entity}:${spec.idOf(p)}`],
    describe: () => spec.describe,
    apply: (ctx, p) => {
      const id = spec.idOf(p);
      const current = spec.record(id);
      const data = { ...(current.customFieldsData as Record<string, unknown>) };
      for (const { id: field, value } of p.values) {
        if (value === null || value === undefined) delete data[field];
        else data[field] = value;
      }
      const diff = changedFields(current, { customFieldsData: data });
      if (!applyChanges(ctx, spec.entity, id, diff, spec.write)) return { noop: true };
      return {};
    },
    send: async (client, p) => {
      await spec.send(client, spec.idOf(p), {
        userId: spec.userId,
        customFields: p.values.map((v) => ({ id: v.id, value: v.value ?? null })),
      });
    },
    fold: () => undefined,
    rollback: (ctx) => restoreReleased(ctx, spec.entity, spec.write),
    // Its whole effect is the claim on `customFieldsData`: an undo while it waits withdraws it.
    withdrawable: () => true,
    merge: (a, b) => {
      const byId = new Map(a.values.map((v) => [v.id, v]));
      for (const v of b.values) byId.set(v.id, v);
      return { ...a, values: [...byId.values()] };
    },
  };
}
