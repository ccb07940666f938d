import { CHANNEL_DOMAINS, type DeclaredTwice, type DomainResources, type Merged } from './ipc/contract';

/**
 * The resources Workdesk knows, one entry each: the names the core and the renderer share. Each
 * is declared by the IPC domain that is its home, in the domain's own module (`timeResources`
 * in `./ipc/time.ts`, named by its entry in `CHANNEL_DOMAINS`), and gathered here. The core's
 * descriptor of each (`src/main/core/entities/`) is keyed by these names, so a resource added
 * and not described there (or the other way round) does not compile.
 *
 * - `noun`: how a message names one item of it when its name is not known ("a task").
 * - `cacheEntities`: the cache's views it is the home of. A `cache.onDidChange` names these, and
 *   a view reads again when one it shows is named (`CacheEntity` is their union).
 * - `outbox`: written offline through the outbox. Its name is then an outbox key prefix
 *   (`task:123`), a conflict's and a remapped id's `entity`, and what a pull asks the outbox
 *   about before it replaces a cached row (rule 7).
 */
export const RESOURCES = Object.assign(
  {},
  ...CHANNEL_DOMAINS.map((d) => ('resources' in d ? d.resources : {})),
) as Merged<DomainResources<typeof CHANNEL_DOMAINS>[number]>;

/** The resources more than one domain declares (the later would replace the first). */
export type ResourcesDeclaredTwice<Ds extends readonly object[]> = DeclaredTwice<Ds>;

/** Compiles only when no resource is declared by two domains. */
const noResourceDeclaredTwice: Record<
  ResourcesDeclaredTwice<DomainResources<typeof CHANNEL_DOMAINS>>,
  never
> = {};
void noResourceDeclaredTwice;

type Resources = typeof RESOURCES;

export type ResourceName = keyof Resources;

/** The resources the outbox writes (see `outbox` above). */
export type OutboxEntity = {
  [R in ResourceName]: Resources[R]['outbox'] extends true ? R : never;
}[ResourceName];

/** A cache view a change names (see `cacheEntities` above). */
export type CacheEntity = Resources[ResourceName]['cacheEntities'][number];

export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** Every cache view, in the order of the resources. */
export const CACHE_ENTITIES = RESOURCE_NAMES.flatMap(
  (name): readonly CacheEntity[] => RESOURCES[name].cacheEntities,
) as [CacheEntity, ...CacheEntity[]];

export function isResourceName(name: string): name is ResourceName {
  return Object.prototype.hasOwnProperty.call(RESOURCES, name);
}

export function isOutboxEntity(name: string): name is OutboxEntity {
  return isResourceName(name) && RESOURCES[name].outbox;
}

/** "a task", "an event"; "an item" for a name that is no resource (an entity from an older build). */
export function entityNoun(entity: string): string {
  return isResourceName(entity) ? RESOURCES[entity].noun : 'an item';
}
