// The one registry of an account's handler maps, read and write: each IPC domain's module is
// listed once here, and the list is typed so that a channel of the contract that no module
// handles (and that the app, accounts or print side does not own) does not compile.
import type { accountsChannels } from '../../../shared/ipc/accounts';
import type { appChannels } from '../../../shared/ipc/app';
import type { ChannelName, ShellChannel } from '../../../shared/ipc/contract';
import type { EventName, EventPayload } from '../../../shared/ipc/events';
import type { settingsChannels } from '../../../shared/ipc/settings';
import type { ServiceClient } from '../api/client';
import type { DownloadCache } from '../attachments/downloads';
import type { AttachmentFiles } from '../attachments/files';
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
 * (given to the outbox by the engine).
 */
export interface HandlerModule {
  kinds?: KindFactory;
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

/** Every IPC domain of an account's engine, once. */
export const HANDLER_MODULES = [
  { read: projectReadHandlers, write: projectsWriteHandlers, kinds: projectKinds },
  // The tasks' kinds the outbox makes itself: the attachments' kinds are made from them.
  { read: taskReadHandlers, write: tasksWriteHandlers },
  { read: calendarReadHandlers, write: calendarWriteHandlers, kinds: calendarKinds },
  timeHandlers,
  { read: crmReadHandlers, write: crmWriteHandlers, kinds: crmKinds },
  { read: dependencyReadHandlers },
  { read: orgReadHandlers },
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
