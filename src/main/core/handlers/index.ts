// The one registry of an account's modules: each IPC domain's module is listed once here, with
// its handler maps (read and write), the outbox kinds its writes queue, the descriptors of the
// resources it is the home of and their cache repositories. The list is typed so that a channel
// of the contract that no module handles (and that the app, accounts or print side does not
// own), a kinds module or a repository no module names, or a resource no module describes (or
// two do) does not compile.
import type { accountsChannels } from '../../../shared/ipc/accounts';
import type { appChannels } from '../../../shared/ipc/app';
import type { ChannelName, DeclaredTwice, Merged, ShellChannel } from '../../../shared/ipc/contract';
import type { EventName, EventPayload } from '../../../shared/ipc/events';
import type { settingsChannels } from '../../../shared/ipc/settings';
import type { ResourceName } from '../../../shared/entities';
import type { ServiceClient } from '../api/client';
import type { DownloadCache } from '../attachments/downloads';
import type { AttachmentFiles } from '../attachments/files';
import { createCache, type Cache, type RepoFactories, type ResourceRepos } from '../cache/cache';
import type { CacheDb } from '../cache/db';
import { createCalendarEventsRepo } from '../cache/repos/calendar-events';
import { createCrmRepo } from '../cache/repos/crm';
import { createDependenciesRepo } from '../cache/repos/dependencies';
import { createMessagesRepo } from '../cache/repos/messages';
import { createOrgRepo } from '../cache/repos/org';
import { createProjectPartsRepo } from '../cache/repos/project-parts';
import { createProjectsRepo } from '../cache/repos/projects';
import { createTasksRepo } from '../cache/repos/tasks';
import { dependency, event } from '../entities/calendar';
import { crmAccount, crmContact } from '../entities/crm';
import { pullPartsOf, type Entities } from '../entities/index';
import { customField, projectTemplate, status, tag, taskType, user } from '../entities/org';
import { document, project } from '../entities/projects';
import { message, task, taskTag } from '../entities/tasks';
import type { PullPart } from '../sync/pull';
import type { AccountOutbox, FetchReloaded } from '../outbox/account-outbox';
import { calendarKinds } from '../outbox/kinds/calendar';
import { crmKinds } from '../outbox/kinds/crm';
import { projectKinds } from '../outbox/kinds/projects';
import type { KindFactory, KindModules } from '../outbox/kinds/support';
import { attachmentHandlers } from './attachments';
import { calendarReadHandlers } from './calendar-read';
import { calendarWriteHandlers } from './calendar-write';
import { crmReadHandlers } from './crm-read';
import { crmWriteHandlers } from './crm-write';
import { dependencyReadHandlers } from './dependencies-read';
import { draftHandlers } from './drafts';
import { fileHandlers } from './files';
import { inboxHandlers } from './inbox';
import { linkHandlers } from './links';
import { orgReadHandlers } from './org-read';
import { outboxHandlers } from './outbox';
import { pendingTransferHandlers, type TransferAccount } from './pending-transfer';
import { projectReadHandlers } from './projects-read';
import { projectsWriteHandlers } from './projects-write';
import type { ReadDeps } from './read-deps';
import { mergeHandlerMaps } from './registry';
import { searchReadHandlers } from './search-read';
import { syncHandlers } from './sync-read';
import { taskReadHandlers } from './tasks-read';
import { tasksWriteHandlers } from './tasks-write';
import { timeHandlers } from './time';
import type { HandlerMap } from './types';
import { updatesHandlers } from './updates';

export type { ReadDeps } from './read-deps';

/** What the write side's handlers are built from: the whole engine of one account. */
export interface EngineDeps extends ReadDeps {
  clock: () => Date;
  outbox: AccountOutbox;
  client: ServiceClient;
  files: AttachmentFiles;
  downloads: DownloadCache;
  /** Fetches the service's version of an item a reload settled. */
  fetchItem: FetchReloaded;
  /** The account an export of pending changes names. */
  account: TransferAccount;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
}

/**
 * One IPC domain's handlers: `read` is built by every engine (the read engine too, which has no
 * outbox), `write` only by the full engine; `kinds`, the outbox's kinds module its writes queue
 * (given to the outbox by the engine); `entities`, the descriptors (`entities/`) of the resources
 * it is the home of, by their names (gathered into `ENTITIES`); `repos`, the factories of their
 * cache repositories, by their names on the cache (gathered into `REPOSITORIES`).
 */
export interface HandlerModule {
  kinds?: KindFactory;
  entities?: Partial<Entities>;
  repos?: Partial<RepoFactories>;
  read?: (deps: ReadDeps) => Partial<HandlerMap>;
  write?: (deps: EngineDeps) => Partial<HandlerMap>;
}

/** The channels a module's maps declare. */
type ModuleChannels<M> =
  | (M extends { read: (deps: never) => infer R } ? keyof R : never)
  | (M extends { write: (deps: never) => infer W } ? keyof W : never);

/**
 * Channels handled outside an account's engine: by the app (`core.ts`), its accounts and settings
 * (`accounts/session.ts`), or the Electron shell (`SHELL_CHANNELS` of the contract).
 */
type OutsideEngine =
  keyof typeof appChannels | keyof typeof accountsChannels | keyof typeof settingsChannels | ShellChannel;

/** The channels of the contract no module of `Ms` handles. */
export type Unhandled<Ms extends readonly HandlerModule[]> = Exclude<
  ChannelName,
  ModuleChannels<Ms[number]> | OutsideEngine
>;

/**
 * Every IPC domain of an account's engine, once. The order of the descriptors they name is the
 * order a pull starts their parts in, phase by phase (requests queue at the gate in that order):
 * a project's task lists first among the parts that need the project tree.
 */
export const HANDLER_MODULES = [
  // The tasks' kinds the outbox makes itself: the attachments' kinds are made from them.
  {
    read: taskReadHandlers,
    write: tasksWriteHandlers,
    entities: { task, message, taskTag },
    repos: { tasks: createTasksRepo, messages: createMessagesRepo },
  },
  {
    read: projectReadHandlers,
    write: projectsWriteHandlers,
    kinds: projectKinds,
    entities: { project, document },
    repos: { projects: createProjectsRepo, projectParts: createProjectPartsRepo },
  },
  {
    read: calendarReadHandlers,
    write: calendarWriteHandlers,
    kinds: calendarKinds,
    entities: { event, dependency },
    repos: { events: createCalendarEventsRepo, dependencies: createDependenciesRepo },
  },
  timeHandlers,
  {
    read: crmReadHandlers,
    write: crmWriteHandlers,
    kinds: crmKinds,
    entities: { crmContact, crmAccount },
    repos: { crm: createCrmRepo },
  },
  { read: dependencyReadHandlers },
  {
    read: orgReadHandlers,
    entities: { customField, user, status, taskType, projectTemplate, tag },
    repos: { org: createOrgRepo },
  },
  { read: searchReadHandlers },
  { read: syncHandlers },
  { read: inboxHandlers },
  { read: updatesHandlers },
  { write: outboxHandlers },
  { write: pendingTransferHandlers },
  { write: attachmentHandlers },
  { write: (deps) => fileHandlers({ ...deps, spool: deps.files.spool }) },
  { write: (deps) => linkHandlers({ cache: deps.cache, realIdOf: (id) => deps.outbox.realIdOf(id) }) },
  // Drafts keep their own clock (milliseconds), not the engine's.
  { write: ({ cache }) => draftHandlers({ cache }) },
] as const satisfies readonly HandlerModule[];

/**
 * Compiles only when the modules above handle every channel of the engine: a missing one is
 * named as a missing property.
 */
const everyChannelHandled: Record<Unhandled<typeof HANDLER_MODULES>, never> = {};
void everyChannelHandled;

const modules: readonly HandlerModule[] = HANDLER_MODULES;

/** The descriptors a handler module names (none: an empty record). */
type DescriptorsOf<M> = M extends { entities: infer E extends object } ? E : Record<never, never>;

/** The resources a handler module describes. */
type DescribedBy<M> = M extends { entities: infer E } ? keyof E & ResourceName : never;

/** The resources no module of `Ms` describes. */
export type Undescribed<Ms extends readonly HandlerModule[]> = Exclude<ResourceName, DescribedBy<Ms[number]>>;

/** The resources more than one module of `Ms` describes (the later would replace the first). */
export type DescribedTwice<Ms extends readonly unknown[]> = DeclaredTwice<{
  [I in keyof Ms]: DescriptorsOf<Ms[I]>;
}>;

/** Compiles only when every resource is described by one module: a missing one is named. */
const everyResourceDescribed: Record<Undescribed<typeof HANDLER_MODULES>, never> = {};
const noResourceDescribedTwice: Record<DescribedTwice<typeof HANDLER_MODULES>, never> = {};
void everyResourceDescribed;
void noResourceDescribedTwice;

/**
 * Every resource's descriptor, from the modules that name them, in their order: what the root
 * hands the outbox and sync (`Entities` checks each descriptor against its resource's name).
 */
export const ENTITIES: Entities = Object.assign({}, ...modules.map((m) => m.entities ?? {})) as Merged<
  DescriptorsOf<(typeof HANDLER_MODULES)[number]>
>;

/** Every part of a full pull, in the order of `ENTITIES` (`sync/pull.ts` runs them phase by phase). */
export const PULL_PARTS: readonly PullPart[] = pullPartsOf(ENTITIES);

/** The repository factories a handler module names (none: an empty record). */
type FactoriesOf<M> = M extends { repos: infer R extends object } ? R : Record<never, never>;

/** The repositories a handler module names. */
type ReposOf<M> = M extends { repos: infer R } ? keyof R & keyof ResourceRepos : never;

/** The repositories of the cache (`ResourceRepos`) no module of `Ms` names. */
export type UnnamedRepos<Ms extends readonly HandlerModule[]> = Exclude<
  keyof ResourceRepos,
  ReposOf<Ms[number]>
>;

/** The repositories more than one module of `Ms` names. */
export type ReposNamedTwice<Ms extends readonly unknown[]> = DeclaredTwice<{
  [I in keyof Ms]: FactoriesOf<Ms[I]>;
}>;

/** Compiles only when every repository a repo file adds to the cache is named by one module. */
const everyRepoNamed: Record<UnnamedRepos<typeof HANDLER_MODULES>, never> = {};
const noRepoNamedTwice: Record<ReposNamedTwice<typeof HANDLER_MODULES>, never> = {};
void everyRepoNamed;
void noRepoNamedTwice;

/** Every resource repository's factory, from the modules that name them: what the root builds the cache with. */
export const REPOSITORIES: RepoFactories = Object.assign({}, ...modules.map((m) => m.repos ?? {})) as Merged<
  FactoriesOf<(typeof HANDLER_MODULES)[number]>
>;

/** An account's cache over `db` with every repository, as the engine builds it. */
export function accountCache(db: CacheDb): Cache {
  return createCache(db, REPOSITORIES);
}

/** The kinds modules the handler modules name, in their order: what the engine gives the outbox. */
export const KIND_FACTORIES: readonly KindFactory[] = modules.flatMap((m) => (m.kinds ? [m.kinds] : []));

/** The kinds modules some handler module names. */
type NamedKinds = ReturnType<Extract<(typeof HANDLER_MODULES)[number], { kinds: KindFactory }>['kinds']>;

/**
 * The kinds modules (`KindModules`) no handler module names, besides the two the outbox makes
 * itself: a kinds module written and not listed does not compile.
 */
export type UnlistedKinds<Named> = Exclude<
  { [K in keyof KindModules]: KindModules[K] extends Named ? never : K }[keyof KindModules],
  'tasks' | 'attachments'
>;
const everyKindModuleListed: Record<UnlistedKinds<NamedKinds>, never> = {};
void everyKindModuleListed;

/** Every read-side handler map of one account, merged. */
export function readHandlers(deps: ReadDeps): Partial<HandlerMap> {
  return mergeHandlerMaps(modules.flatMap((m) => (m.read ? [m.read(deps)] : [])));
}

/** Every handler map of one account's engine, read and write, merged. */
export function engineHandlers(deps: EngineDeps): Partial<HandlerMap> {
  return mergeHandlerMaps(
    modules.flatMap((m) => [...(m.read ? [m.read(deps)] : []), ...(m.write ? [m.write(deps)] : [])]),
  );
}
