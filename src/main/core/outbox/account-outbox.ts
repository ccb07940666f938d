import { ZodError } from 'zod';
import { describeZodError } from '../../../shared/errors';
import type { EventName, EventPayload } from '../../../shared/ipc/events';
import type { EditableFields } from '../../../shared/ipc/outbox';
import type { ServiceClient } from '../api/client';
import type { Cache } from '../cache/cache';
import type { DependencyEnd } from '../cache/repos/dependencies';
import { cacheChangeOf, entityOf, itemName, localIdColumnsOf, takeTheirs, type Entities } from '../entities';
import { HandlerError } from '../errors';
import type { ListedItems, PendingEntity, PendingFields } from '../sync/pending';
import { copiesOfUnfolded, type AnyListedLookUp, type CreatedAmong } from './kinds/support';
import { classifyServiceError } from './classify';
import { correctedPayload, correctionError } from './correction';
import { taskKinds } from './kinds/tasks';
import { dependencyEndsOf } from './kinds/calendar';
import type { KindFactory, KindModules } from './kinds/support';
import type { FileSender } from '../attachments/sender';
import { attachmentKinds } from './kinds/attachments';
import {
  DEFAULT_FRESH_MS,
  Outbox,
  OutboxError,
  type ConflictPolicy,
  type OutboxOptions,
  type OutboxStatus,
  type PreSendCheck,
  type Reloaded,
  type ServiceItem,
  type SubmitOptions,
  type SubmitResult,
} from './outbox';
import { RejectedError } from '../api/errors';
import { cacheRemapper, healCacheRemaps } from './remap-cache';
import { isTempId } from '../local-ids';
import type { EntryState, OutboxEntry } from './types';
import { Listeners } from '../listeners';
import type { ServiceClockState } from '../api/service-clock';

/**
 * What each kinds module of the app makes: its kinds and the look-ups of what they create (every
 * module adds itself to `KindModules`).
 */
type KindModule = KindModules[keyof KindModules];

/** Every operation kind of the app, as the kinds' modules define them. */
type AppKind = KindModule['kinds'][number];

/**
 * Compiles only when every entity whose lists sync checks for unfolded creates (`ListedItems`)
 * has a create that some kinds module declares a look-up for (`lookUps`).
 */
const everyListedEntityLookedUp: Record<
  Exclude<keyof ListedItems, KindModule['lookUps'][number]['entity']>,
  never
> = {};

/** The name of an operation kind: what `write` takes (a misspelt one does not compile). */
export type KindName = AppKind['name'];

/** The payload a kind takes, as its own `parse` answers it. */
export type KindPayload<K extends KindName> =
  Extract<AppKind, { name: K }> extends { parse(payload: unknown): infer P } ? P : never;

/** Tuning and test doubles of the queue, handed to it as they are. */
export type OutboxTuning = Pick<
  OutboxOptions<ServiceClient>,
  | 'clock'
  | 'timers'
  | 'random'
  | 'newId'
  | 'concurrency'
  | 'backoff'
  | 'tickMs'
  | 'log'
  | 'lookUpDelayMs'
  | 'maxFoldFailures'
  | 'undoHoldMs'
>;

/** What the engine's caller may set of the account's outbox. */
export interface AccountOutboxSettings extends OutboxTuning {
  /**
   * The check before a send (rule 7): what a change meets when the service changed what it
   * writes (default `mine`), read each time so a setting applies at once; and how recently an
   * item must have been read to be sent without a read (default `DEFAULT_FRESH_MS`).
   */
  conflictPolicy?: () => ConflictPolicy;
  freshMs?: number;
  /** False: changes are sent unchecked (unit tests of the kinds, which count requests). */
  checkBeforeSend?: boolean;
}

export interface AccountOutboxOptions extends AccountOutboxSettings {
  cache: Cache;
  client: ServiceClient;
  /** See `OutboxOptions.sendClient`. */
  sendClient?: ServiceClient;
  /** The account's acting user. */
  userId: string;
  /** The service's clock: look-up windows and the stamps of local changes (see `KindDeps`). */
  serviceClock?: ServiceClockState;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  /** Dropped files: registers the kinds that upload and reference them. */
  files?: FileSender;
  /**
   * The kinds modules besides the tasks' (and the attachments', made from the tasks'), as the
   * handler modules name them (`kindFactories` of `handlers/index.ts`).
   */
  kindModules: readonly KindFactory[];
  /**
   * Every resource's descriptor, as the handler modules name them (`ENTITIES` of
   * `handlers/index.ts`): the views a change refreshes, the columns a remap rewrites, the check
   * before a send, "take theirs" and a conflict's item name.
   */
  entities: Entities;
}

/** Fetches the service's version of an item a reload settled. */
export type FetchReloaded = (item: ReloadedItem) => Promise<void>;

/**
 * What a reload settled: the entry's item, and for a dependency its ends (real ids; those never
 * created left out), whose dependency lists hold it: a pull never fetches those.
 */
export interface ReloadedItem extends Reloaded {
  dependencyEnds: DependencyEnd[];
}

/**
 * The service's item for the check before a send (rule 7), read as its resource's descriptor
 * says (`check.one`): null when the service no longer has it, undefined for an entity whose
 * changes go unchecked.
 */
async function readForCheck(
  entities: Entities,
  client: ServiceClient,
  entity: string,
  id: string,
): Promise<ServiceItem | null | undefined> {
  const reads = entityOf(entities, entity)?.check;
  if (!reads) return undefined;
  try {
    return await reads.one(client, id);
  } catch (err) {
    if (err instanceof RejectedError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The app's outbox: the generic queue with every operation kind of the service, the cache
 * remap, the rule-7 port for sync, the events to the renderer, and errors turned into IPC
 * errors for the handlers.
 */
export function createAccountOutbox(options: AccountOutboxOptions) {
  const {
    cache,
    client,
    sendClient,
    userId,
    serviceClock,
    emit,
    files,
    conflictPolicy,
    freshMs,
    checkBeforeSend,
    kindModules,
    entities,
    ...tuning
  } = options;
  const kindDeps = { cache, userId, ...(serviceClock ? { serviceClock } : {}) };
  const tasks = taskKinds(kindDeps);
  const attachments = files
    ? attachmentKinds({
        ...options,
        cache,
        files,
        taskKinds: tasks.kinds,
        taskCreatedAmong: tasks.createdAmong,
      })
    : undefined;
  const modules: readonly KindModule[] = [
    tasks,
    ...kindModules.map((make) => make(kindDeps)),
    ...(attachments ? [attachments] : []),
  ];
  const log = options.log ?? (() => {});
  const requestFailed = new Listeners<[err: unknown]>('outbox request failure', log);
  const sent = new Listeners<[]>('outbox sent', log);
  const itemKept = new Listeners<[item: ReloadedItem]>('outbox item kept', log);
  const remapCache = cacheRemapper(cache.db, localIdColumnsOf(entities));
  // Before anything reads the cache: remaps a crash between the two files' commits lost.
  const healed = healCacheRemaps(cache.db, remapCache);
  if (healed)
    log(`outbox: ${healed} acknowledged create(s) remapped again in the cache (a crash lost the remap)`);
  const outbox = new Outbox<ServiceClient>({
    ...tuning,
    db: cache.db,
    client,
    ...(sendClient ? { sendClient } : {}),
    kinds: modules.flatMap((m): readonly AppKind[] => m.kinds),
    classify: classifyServiceError,
    remapCache,
    takeTheirs: (entity, id, field, value, self) => {
      const theirs = {
        submit: (kind: string, payload: unknown) => void self.submit(kind, payload),
        newLocalRowId: () => self.newLocalRowId(),
        cache,
      };
      if (!takeTheirs(entities, theirs, entity, id, field, value))
        throw new OutboxError(
          'invalid-argument',
          `Cannot take the service's value of ${entity} ${field}`,
          'id',
        );
    },
    ...(checkBeforeSend === false
      ? {}
      : {
          check: {
            read: (client, entity, id) => readForCheck(entities, client, entity, id),
            // Several items in one request where the descriptor can (`check.along`: a task's project list).
            readAlong: async (client, entity, id, along) =>
              entityOf(entities, entity)?.check?.along?.(cache, client, id, along),
            policy: conflictPolicy ?? (() => 'mine'),
            freshMs: freshMs ?? DEFAULT_FRESH_MS,
          } satisfies PreSendCheck<ServiceClient>,
        }),
    onItemKept: (entity, id) => itemKept.emit({ entity, id, dependencyEnds: [] }),
    onRequestFailure: (err) => requestFailed.emit(err),
    onSent: () => sent.emit(),
  });
  outbox.onDidChange((status) => emit('outbox.onDidChange', status));
  outbox.onDidRemapId((remap) => emit('outbox.onDidRemapId', remap));
  outbox.onDidChangeCache((keys, tables) => {
    const change = cacheChangeOf(entities, keys, tables);
    if (change.entities.length) emit('cache.onDidChange', change);
  });

  /** The create look-ups of every kinds module, each naming one of the kinds above. */
  const lookUps: readonly AnyListedLookUp[] = modules.flatMap((m): readonly AnyListedLookUp[] => m.lookUps);
  const kindNames = new Set(modules.flatMap((m) => m.kinds.map((k): string => k.name)));
  for (const { entity, kind } of lookUps)
    if (!kindNames.has(kind)) throw new Error(`The look-up of ${entity} creates names no kind ${kind}`);
  void everyListedEntityLookedUp;

  /**
   * The service's copies, among `items` (a list sync stores), of creates of `entity` it applied
   * whose answer has not folded here: the unfolded entries of every kind that creates one, oldest
   * first (the order a look-up would take them in), each found by its own kind's test.
   */
  function unfoldedCopies<E extends keyof ListedItems>(
    entity: E,
    items: readonly ListedItems[E][],
  ): Set<string> {
    // The look-ups of `entity` take its items (`ListedLookUp<E>`); the filter on the union cannot say so.
    const tests = new Map(
      lookUps
        .filter((l) => l.entity === entity)
        .map((l) => [l.kind, l.among as unknown as CreatedAmong<ListedItems[E]>] as const),
    );
    const unfolded = [...tests.keys()]
      .flatMap((kind) => outbox.unfolded(kind))
      .sort((a, b) => a.entry.id - b.entry.id);
    return copiesOfUnfolded(unfolded, items, (list, payload, entry, taken) =>
      tests.get(entry.kind)?.(list, payload, entry, taken),
    );
  }

  /** Rule 7 port for sync. Entity names are the sync's; they are also the outbox's key prefixes. */
  const pending: PendingFields = {
    pendingFieldsFor: (entity: PendingEntity, id: string) => outbox.pendingFieldsFor(entity, id),
    localValuesOf: (entity: PendingEntity, id: string) => outbox.localValuesOf(entity, id),
    isPendingStructural: (entity: PendingEntity, id: string) => outbox.isPendingStructural(entity, id),
    pendingStructuralAmong: (entity: PendingEntity, ids: readonly string[]) =>
      outbox.pendingStructuralAmong(entity, ids),
    noteServerValues: (
      entity: PendingEntity,
      id: string,
      values: Record<string, unknown>,
      source?: { at?: string | null },
    ) => void outbox.noteServerValues(entity, id, values, source),
    noteSeen: (entity: PendingEntity, id: string) => outbox.noteSeen(entity, id),
    noteSeenAll: (entity: PendingEntity, ids: readonly string[]) => outbox.noteSeenAll(entity, ids),
    restoreLocalChanges: () => {
      outbox.restoreLocalChanges();
    },
    pendingCount: () => outbox.status().pending,
    openCount: () => {
      const { pending: waiting, failed, stuck } = outbox.status();
      return waiting + failed + stuck;
    },
    tokenNeeded: () => outbox.status().paused === 'token-needed',
    ackMark: () => outbox.ackMark(),
    ackedSince: (entity: PendingEntity, id: string, mark: number) => outbox.ackedSince(entity, id, mark),
    copiesOfUnfoldedCreates: unfoldedCopies,
  };

  /** Runs an outbox call for a handler: bad input and refusals become IPC errors. */
  function guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ZodError) {
        const { field, message } = describeZodError(err);
        throw new HandlerError('invalid-argument', message, field);
      }
      if (err instanceof OutboxError) throw new HandlerError(err.type, err.message, err.field);
      throw err;
    }
  }

  const accountOutbox = {
    pending,
    /** Replay: starts it (rule 3), and stops it waiting for the sends under way. */
    start: () => outbox.start(),
    stop: () => outbox.stop(),
    /** The service can be reached again: replay now (rule 3). */
    reconnected: () => outbox.reconnected(),
    status: (): OutboxStatus => outbox.status(),
    entries: (state?: EntryState): OutboxEntry[] => outbox.entries(state),
    /** Acknowledged entries still kept (see `EntryStore`). */
    doneEntries: (): OutboxEntry[] => outbox.store.list('done'),
    /** Each waiting entry's holder: the entry it waits behind (one query for them all). */
    holders: (): Map<number, OutboxEntry> => outbox.holders(),
    /** How a person reads an entry in a list of changes. */
    describe: (entry: OutboxEntry): string => outbox.describe(entry),
    listConflicts: () => outbox.listConflicts(),
    onDidRemapId: (listener: Parameters<typeof outbox.onDidRemapId>[0]) => outbox.onDidRemapId(listener),
    onDidChange: (listener: (status: OutboxStatus) => void) => outbox.onDidChange(listener),
    /** A request of a send failed (before the failure is handled): sync shows Offline at once. */
    onDidFailRequest: (listener: (err: unknown) => void) => requestFailed.add(listener),
    /** A change was acknowledged. */
    onDidSend: (listener: () => void) => sent.add(listener),
    /** "Take theirs" on a held delete kept the item: the service's version is to be fetched. */
    onDidKeepItem: (listener: (item: ReloadedItem) => void) => itemKept.add(listener),
    /** Queues a change of kind `kind` (rule 1); bad input and refusals become IPC errors. */
    write: <K extends KindName>(kind: K, payload: KindPayload<K>, options?: SubmitOptions): SubmitResult =>
      guard(() => outbox.submit(kind, payload, options)),
    /**
     * Queues a change read back from a file of pending changes: its kind is checked by name and
     * its payload by the kind's own parse, at run time.
     */
    writeStored: (kind: string, payload: unknown): SubmitResult => guard(() => outbox.submit(kind, payload)),
    retry: (id: number): OutboxStatus => guard(() => (outbox.retry(id), outbox.status())),
    edit: (id: number, payload: unknown): OutboxStatus =>
      guard(() => (outbox.edit(id, payload), outbox.status())),
    /** `edit` with some of the entry's editable fields corrected (see `correction.ts`). */
    correct: (id: number, fields: EditableFields): OutboxStatus =>
      guard(() => {
        const entry = outbox.store.get(id);
        if (!entry) throw new OutboxError('not-found', `No waiting change ${id}`, 'id');
        const { payload, part } = correctedPayload(entry.payload, fields);
        try {
          outbox.edit(id, payload);
        } catch (err) {
          throw err instanceof ZodError ? correctionError(err, part) : err;
        }
        return outbox.status();
      }),
    discard: (id: number): OutboxStatus => guard(() => (outbox.discard(id), outbox.status())),
    tryAgain: (id: number): OutboxStatus => guard(() => (outbox.tryAgain(id), outbox.status())),
    /**
     * Settles a stuck entry, then fetches its item with `fetchItem`; a fetch that fails (offline)
     * is left to the next pull.
     */
    reload: async (id: number, fetchItem: FetchReloaded): Promise<OutboxStatus> => {
      const entry = outbox.entries('stuck').find((e) => e.id === id);
      const ends = entry ? dependencyEndsOf(entry) : [];
      const item = guard(() => outbox.reload(id));
      const dependencyEnds = ends
        .map((end) => ({ ...end, id: outbox.realIdOf(end.id) }))
        .filter((end) => !isTempId(end.id));
      try {
        await fetchItem({ ...item, dependencyEnds });
      } catch (err) {
        log(
          `outbox: fetching ${item.entity} ${item.id ?? '(created)'} after a reload failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      return outbox.status();
    },
    resolveConflict: (id: number, choice: 'mine' | 'theirs'): OutboxStatus =>
      guard(() => (outbox.resolveConflict(id, choice), outbox.status())),
    realIdOf: (id: string) => outbox.realIdOf(id),
    /** The name of an item a conflict is about, as the cache holds it (null when not cached). */
    itemName: (entity: string, id: string): string | null => itemName(entities, cache, entity, id),
    newTempId: () => outbox.newTempId(),
    newLocalRowId: () => outbox.newLocalRowId(),
    taskDeleteScope: (id: string) => tasks.deleteScope(id),
  };
  queues.set(accountOutbox, outbox);
  return accountOutbox;
}

export type AccountOutbox = ReturnType<typeof createAccountOutbox>;

/** The queue inside each account outbox: private to it, reached by tests through `queueOf`. */
const queues = new WeakMap<AccountOutbox, Outbox<ServiceClient>>();

/** Tests only (see `testing.ts`): the queue inside an account outbox, its stores and replay. */
export function queueOf(accountOutbox: AccountOutbox): Outbox<ServiceClient> {
  const queue = queues.get(accountOutbox);
  if (!queue) throw new Error('queueOf: not an account outbox');
  return queue;
}
