import { z } from 'zod';
import {
  END_BEFORE_START_MESSAGE,
  endNotBeforeStart,
  formatLocalTimestamp,
} from '../../../../shared/api/common';
import { DependencyKind } from '../../../../shared/ipc/tasks';
import type { ServiceClient } from '../../api/client';
import { RejectedError } from '../../api/errors';
import type { Cache } from '../../cache/cache';
import { sameValue, type FieldChange } from '../field-claims';
import { OutboxError } from '../outbox';
import { isTempId, TEMP_ID_PREFIX, TempIdMap } from '../temp-ids';
import type { ApplyContext, OperationKind, OutboxEntry, RollbackContext } from '../types';

/** What every real operation kind is built with. */
export interface KindDeps {
  cache: Cache;
  /** The account's acting user: `userId`/`fromUserId`/`createdByUserId` of every request. */
  userId: string;
}

export type Kind<P, R = unknown> = OperationKind<P, R, ServiceClient>;

/**
 * A look-up accepts items the service stamped from this long before the send: the two clocks
 * are not the same clock. Items already claimed by another create are never taken.
 */
export const LOOKUP_SLACK_MS = 5 * 60_000;

/** The service's zone-less local timestamp of a moment (ms). */
export function stampOf(ms: number): string {
  return formatLocalTimestamp(new Date(ms));
}

/** The earliest `momentCreated` a look-up accepts for an entry sent at `sentAt`. */
export function lookUpFloor(sentAt: number | null): string {
  return stampOf((sentAt ?? 0) - LOOKUP_SLACK_MS).replace(' ', 'T');
}

/** Compares zone-less timestamps written with `T` or a space. */
export function notBefore(moment: string, floor: string): boolean {
  return moment.replace(' ', 'T') >= floor;
}

/**
 * The look-up of a create among the items the service lists: of those `matches` accepts,
 * stamped no earlier than the floor for `sentAt` and not taken by another create, the earliest.
 */
export function earliestCreated<T extends { id: string }>(
  items: readonly T[],
  options: { sentAt: number | null; momentOf: (item: T) => string; isMapped: (id: string) => boolean },
  matches: (item: T) => boolean,
): T | undefined {
  const { momentOf, isMapped } = options;
  const floor = lookUpFloor(options.sentAt);
  return items
    .filter((item) => matches(item) && notBefore(momentOf(item), floor) && !isMapped(item.id))
    .sort((a, b) => (momentOf(a) < momentOf(b) ? -1 : 1))[0];
}

/** A create's look-up test over a list: the item it made, not one `taken` already. */
export type CreatedAmong<T> = (
  items: readonly T[],
  payload: unknown,
  entry: OutboxEntry,
  taken: (id: string) => boolean,
) => T | undefined;

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
  const stmt = cache.db.prepare('SELECT 1 FROM outbox_id_map WHERE real_id = ?').pluck();
  return (id) => stmt.get(id) !== undefined;
}

export function tempIdMap(cache: Cache): TempIdMap {
  return new TempIdMap(cache.db);
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
 * delete removed it here, this client's waiting changes in it) and than `pendingBases` (the
 * service's values under those waiting changes, which it keeps if they are refused); a field
 * either side lacks is not judged.
 */
export function changedOnService(
  base: Readonly<Record<string, unknown>>,
  item: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  pendingBases: Readonly<Record<string, unknown>> = {},
): string[] {
  return fields.filter(
    (f) =>
      f in base &&
      f in item &&
      !sameValue(base[f] ?? null, item[f] ?? null) &&
      !(f in pendingBases && sameValue(pendingBases[f] ?? null, item[f] ?? null)),
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
export function customFieldsKind<P extends { values: FieldValue[] }>(spec: {
  name: string;
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
}): Kind<P, void> {
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
    merge: (a, b) => {
      const byId = new Map(a.values.map((v) => [v.id, v]));
      for (const v of b.values) byId.set(v.id, v);
      return { ...a, values: [...byId.values()] };
    },
  };
}
