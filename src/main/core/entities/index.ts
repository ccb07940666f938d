import { isResourceName } from '../../../shared/entities';
import type { CacheChange, CacheEntity } from '../../../shared/ipc/events';
import type { Cache } from '../cache/cache';
import type { DependencyEnd } from '../cache/repos/dependencies';
import type { PullPart } from '../sync/pull';
import type { Sync } from '../sync/sync';
import type { Entities, EntityDescriptor, TheirsContext } from './types';

export type {
  CacheTable,
  CheckedItem,
  Entities,
  EntityDescriptor,
  SendCheckReads,
  TheirsContext,
} from './types';

// What the core derives from the resources' descriptors. The descriptors themselves are listed
// by the modules that name them (`handlers/index.ts`, `HANDLER_MODULES`), where the root reads
// them from (`ENTITIES`) and hands them down: the outbox and sync are given them, never import
// the list.

/** The descriptor of an entity named in an outbox key, a conflict or an entry; undefined for another name. */
export function entityOf(entities: Entities, name: string): EntityDescriptor<keyof Entities> | undefined {
  return isResourceName(name) ? entities[name] : undefined;
}

function descriptorsOf(entities: Entities): readonly EntityDescriptor<keyof Entities>[] {
  return Object.values(entities);
}

/**
 * Every part of a full pull (`sync/pull.ts` runs them phase by phase), in the order of the
 * descriptors: the order a pull starts them in, phase by phase (requests queue at the gate in
 * that order).
 */
export function pullPartsOf(entities: Entities): readonly PullPart[] {
  return descriptorsOf(entities).flatMap((d) => d.pull);
}

/**
 * The views a change of the outbox keys (`entity:id`) touches, with the ids of the items named;
 * and those of the cache `tables` whose rows an acknowledged create's remap rewrote (a time
 * report or a subtask that named the local id): the views of each table's resource and those
 * it is also shown in, any of their items (the rows rewritten are not named).
 */
export function cacheChangeOf(
  entities: Entities,
  keys: readonly string[],
  tables: readonly string[] = [],
): CacheChange {
  const views = new Set<CacheEntity>();
  const ids: Partial<Record<CacheEntity, string[]>> = {};
  for (const key of keys) {
    const at = key.indexOf(':');
    const descriptor = entityOf(entities, key.slice(0, at));
    if (!descriptor) continue;
    for (const e of descriptor.views) views.add(e);
    if (descriptor.idsOf) (ids[descriptor.idsOf] ??= []).push(key.slice(at + 1));
  }
  for (const descriptor of descriptorsOf(entities)) {
    const rewritten = descriptor.tables.filter((t) => tables.includes(t.name));
    if (!rewritten.length) continue;
    for (const e of [...descriptor.views, ...rewritten.flatMap((t) => t.shownIn ?? [])]) {
      views.add(e);
      delete ids[e];
    }
  }
  return { entities: [...views], ids };
}

/** The cache columns that may hold a local id (see `CacheTable`), for the outbox's remap. */
export interface LocalIdColumns {
  /** Tables whose primary key is an item id that may be local (created offline). */
  ids: readonly (readonly [table: string, column: string])[];
  /** Columns that refer to such an item. */
  refs: readonly (readonly [table: string, column: string])[];
  /** JSON columns holding arrays of such ids. */
  json: readonly (readonly [table: string, column: string])[];
}

export function localIdColumnsOf(entities: Entities): LocalIdColumns {
  const tables = descriptorsOf(entities).flatMap((d) => d.tables);
  return {
    ids: tables.flatMap((t) => (t.localId ? [[t.name, t.localId] as const] : [])),
    refs: tables.flatMap((t) => (t.refs ?? []).map((c) => [t.name, c] as const)),
    json: tables.flatMap((t) => (t.jsonRefs ?? []).map((c) => [t.name, c] as const)),
  };
}

/**
 * "Take theirs" of a conflict on `field` of an item: queues the change that puts the service's
 * value back. False when that field of that entity cannot be taken.
 */
export function takeTheirs(
  entities: Entities,
  ctx: TheirsContext,
  entity: string,
  id: string,
  field: string,
  value: unknown,
): boolean {
  return entityOf(entities, entity)?.takeTheirs?.(ctx, id, field, value) ?? false;
}

/** The name of an item a conflict is about, as the cache holds it (null when not cached). */
export function itemName(entities: Entities, cache: Cache, entity: string, id: string): string | null {
  return entityOf(entities, entity)?.nameOf?.(cache, id) ?? null;
}

/**
 * Brings in the service's version of an item a reload settled: a dependency's by fetching the
 * dependencies of its ends (a pull never fetches them), else the item's own fetch where it has
 * one, else (an event, a create whose real id is unknown) a whole pull.
 */
export async function fetchReloaded(
  entities: Entities,
  sync: Pick<Sync, 'onDemand' | 'now'>,
  item: { entity: string; id: string | null; dependencyEnds: readonly DependencyEnd[] },
): Promise<void> {
  const { onDemand } = sync;
  if (item.dependencyEnds.length) {
    await Promise.all(
      item.dependencyEnds.map(({ kind, id }) => onDemand.run(entities[kind].dependencies(id))),
    );
    return;
  }
  const fetch = item.id !== null ? entityOf(entities, item.entity)?.fetch : undefined;
  if (fetch && item.id !== null) await onDemand.run(fetch(item.id));
  else await sync.now();
}
