import { isResourceName } from '../../../shared/entities';
import type { CacheChange, CacheEntity } from '../../../shared/ipc/events';
import type { Cache } from '../cache/cache';
import type { DependencyEnd } from '../cache/repos/dependencies';
import type { PullPart } from '../sync/pull';
import type { Sync } from '../sync/sync';
import { crmAccount, crmContact } from './crm';
import { dependency, event } from './calendar';
import { customField, projectTemplate, status, tag, taskType, user } from './org';
import { document, project } from './projects';
import { message, task, taskTag } from './tasks';
import { timeReport } from './time-reports';
import type { Entities, EntityDescriptor, TheirsContext } from './types';

export type {
  CacheTable,
  CheckedItem,
  Entities,
  EntityDescriptor,
  SendCheckReads,
  TheirsContext,
} from './types';

/**
 * Every resource's descriptor. The order is the order a pull starts their parts in, phase by
 * phase (requests queue at the gate in that order).
 */
export const ENTITIES: Entities = {
  customField,
  user,
  status,
  taskType,
  projectTemplate,
  tag,
  project,
  task,
  document,
  event,
  timeReport,
  crmContact,
  crmAccount,
  message,
  taskTag,
  dependency,
};

const descriptors: readonly EntityDescriptor<keyof Entities>[] = Object.values(ENTITIES);

/** The descriptor of an entity named in an outbox key, a conflict or an entry; undefined for another name. */
export function entityOf(name: string): EntityDescriptor<keyof Entities> | undefined {
  return isResourceName(name) ? ENTITIES[name] : undefined;
}

/** Every part of a full pull (`sync/pull.ts` runs them phase by phase). */
export const PULL_PARTS: readonly PullPart[] = descriptors.flatMap((d) => d.pull);

/** The views a change of the outbox keys (`entity:id`) touches, with the ids of the items named. */
export function cacheChangeOf(keys: readonly string[]): CacheChange {
  const entities = new Set<CacheEntity>();
  const ids: Partial<Record<CacheEntity, string[]>> = {};
  for (const key of keys) {
    const at = key.indexOf(':');
    const descriptor = entityOf(key.slice(0, at));
    if (!descriptor) continue;
    for (const e of descriptor.views) entities.add(e);
    if (descriptor.idsOf) (ids[descriptor.idsOf] ??= []).push(key.slice(at + 1));
  }
  return { entities: [...entities], ids };
}

/** The cache columns that may hold a local id (see `CacheTable`), for the outbox's remap. */
export const LOCAL_ID_COLUMNS = {
  /** Tables whose primary key is an item id that may be local (created offline). */
  ids: descriptors.flatMap((d) => d.tables.flatMap((t) => (t.localId ? [[t.name, t.localId] as const] : []))),
  /** Columns that refer to such an item. */
  refs: descriptors.flatMap((d) => d.tables.flatMap((t) => (t.refs ?? []).map((c) => [t.name, c] as const))),
  /** JSON columns holding arrays of such ids. */
  json: descriptors.flatMap((d) =>
    d.tables.flatMap((t) => (t.jsonRefs ?? []).map((c) => [t.name, c] as const)),
  ),
};

/**
 * "Take theirs" of a conflict on `field` of an item: queues the change that puts the service's
 * value back. False when that field of that entity cannot be taken.
 */
export function takeTheirs(
  ctx: TheirsContext,
  entity: string,
  id: string,
  field: string,
  value: unknown,
): boolean {
  return entityOf(entity)?.takeTheirs?.(ctx, id, field, value) ?? false;
}

/** The name of an item a conflict is about, as the cache holds it (null when not cached). */
export function itemName(cache: Cache, entity: string, id: string): string | null {
  return entityOf(entity)?.nameOf?.(cache, id) ?? null;
}

/**
 * Brings in the service's version of an item a reload settled: a dependency's by fetching the
 * dependencies of its ends (a pull never fetches them), else the item's own fetch where it has
 * one, else (an event, a create whose real id is unknown) a whole pull.
 */
export async function fetchReloaded(
  sync: Pick<Sync, 'onDemand' | 'now'>,
  item: { entity: string; id: string | null; dependencyEnds: readonly DependencyEnd[] },
): Promise<void> {
  const { onDemand } = sync;
  if (item.dependencyEnds.length) {
    await Promise.all(
      item.dependencyEnds.map(({ kind, id }) => onDemand.run(ENTITIES[kind].dependencies(id))),
    );
    return;
  }
  const fetch = item.id !== null ? entityOf(item.entity)?.fetch : undefined;
  if (fetch && item.id !== null) await onDemand.run(fetch(item.id));
  else await sync.now();
}
