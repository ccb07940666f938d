/**
 * The resources Workdesk knows, one entry each: the names the core and the renderer share. The
 * core's descriptor of each (`src/main/core/entities/`) is keyed by these names, so a resource
 * added here and not described there (or the other way round) does not compile.
 *
 * - `noun`: how a message names one item of it when its name is not known ("a task").
 * - `cacheEntities`: the cache's views it is the home of. A `cache.onDidChange` names these, and
 *   a view reads again when one it shows is named (`CacheEntity` is their union).
 * - `outbox`: written offline through the outbox. Its name is then an outbox key prefix
 *   (`task:123`), a conflict's and a remapped id's `entity`, and what a pull asks the outbox
 *   about before it replaces a cached row (rule 7).
 */
export const RESOURCES = {
  task: { noun: 'a task', cacheEntities: ['tasks'], outbox: true },
  /** A task's tag links (the tags themselves are `tag`). */
  taskTag: { noun: "a task's tags", cacheEntities: [], outbox: true },
  project: { noun: 'a project', cacheEntities: ['projects', 'members', 'history'], outbox: true },
  /** A task's messages: comments, replies, status notes. */
  message: { noun: 'a message', cacheEntities: ['messages'], outbox: true },
  event: { noun: 'an event', cacheEntities: ['events'], outbox: true },
  /** Project documents: read only, but a pull asks the outbox as for the others. */
  document: { noun: 'a document', cacheEntities: ['documents'], outbox: true },
  crmContact: { noun: 'a contact', cacheEntities: ['crmContacts'], outbox: true },
  crmAccount: { noun: 'an account', cacheEntities: ['crmAccounts'], outbox: true },
  dependency: { noun: 'a dependency', cacheEntities: ['dependencies'], outbox: true },
  timeReport: { noun: 'a time report', cacheEntities: ['timeReports'], outbox: true },
  customField: { noun: 'a custom field', cacheEntities: ['customFields'], outbox: false },
  user: { noun: 'a user', cacheEntities: ['users'], outbox: false },
  status: { noun: 'a status', cacheEntities: ['statuses'], outbox: false },
  taskType: { noun: 'a task type', cacheEntities: ['taskTypes'], outbox: false },
  tag: { noun: 'a tag', cacheEntities: ['tags'], outbox: false },
  /** Read into the project views (a change of them is a change of `projects`). */
  projectTemplate: { noun: 'a project template', cacheEntities: [], outbox: false },
} as const satisfies Record<string, { noun: string; cacheEntities: readonly string[]; outbox: boolean }>;

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
