// The composition root of an account: the only module that sees every layer of the core (see
// "Architecture" in the README). It builds in layer order and binds nothing late.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DataNotice } from '../../shared/ipc/app';
import type { SyncStatus } from '../../shared/ipc/sync';
import { DEFAULT_DOWNLOAD_CACHE_MIB } from '../../shared/ipc/settings';
import { createServiceClient, type ServiceClient } from './api/client';
import { DEFAULT_TIMEOUT_MS, type FetchLike } from './api/http';
import { createServiceClock, type ServiceClockOptions, type ServiceClockState } from './api/service-clock';
import { DownloadCache } from './attachments/downloads';
import { AttachmentFiles } from './attachments/files';
import type { Cache } from './cache/cache';
import { closeAccountDb, openAccountDb, type CacheDb } from './cache/db';
import { startSearchIndexing, type SearchIndexing } from './cache/repos/search-indexing';
import { EventHub } from './event-hub';
import { fetchReloaded } from './entities';
import {
  accountCache,
  engineHandlers,
  ENTITIES,
  KIND_FACTORIES,
  PULL_PARTS,
  readHandlers,
} from './handlers/index';
import type { HandlerMap } from './handlers/types';
import {
  createAccountOutbox,
  type AccountOutbox,
  type AccountOutboxSettings,
  type ReloadedItem,
} from './outbox/account-outbox';
import { noPending, type PendingFields } from './sync/pending';
import { createSync, type Sync, type SyncOptions } from './sync/sync';

export interface EngineConnection {
  /** The service address, ending with `/2.0`. */
  baseUrl: string;
  token: string;
  /** `svc-api-token` (default) or `gd-api-token` for GoodDay's service. */
  tokenHeader?: string;
  /** The user this account acts as. */
  userId: string;
  timeoutMs?: number;
  /**
   * Names the cache file instead of the base URL. The local workspace sets it: its bundled
   * service listens on a new port every start, and its cache (and queued changes) must stay.
   */
  cacheKey?: string;
}

/** What opens an account: its files, its service and the sync's tuning. */
export interface ReadEngineOptions {
  /** Folder of the account caches; each account gets its own file in it. */
  dataDir: string;
  connection: EngineConnection;
  fetch?: FetchLike;
  clock?: () => Date;
  log?: (message: string) => void;
  /** Rule 7 port sync asks before it overwrites a row (default: nothing pending). */
  pending?: PendingFields;
  /** Tuning of the sync (concurrency, interval, event window). */
  sync?: Pick<
    SyncOptions,
    'concurrency' | 'intervalMs' | 'probeIntervalMs' | 'eventWindow' | 'retry' | 'myListsHeadStartMs'
  >;
  /** Start the sync schedule at once (default true). */
  autoStart?: boolean;
  /**
   * The account's service clock: its setting and what an earlier run learnt (default: learnt
   * from this run's answers, not saved). The local workspace's is `local`.
   */
  serviceClock?: Omit<ServiceClockOptions, 'log'>;
}

/** An account's engine without its outbox: sync and reads alone (tests of sync, read benches). */
export interface ReadEngine {
  db: CacheDb;
  client: ServiceClient;
  cache: Cache;
  sync: Sync;
  /** Every handler map of this account, merged. */
  handlers: Partial<HandlerMap>;
  /** `cache.onDidChange` and `sync.onDidChangeStatus`; forward with `events.onAny`. */
  events: EventHub;
  /** The clock the service stamps its moments on (the client's answers teach it). */
  serviceClock: ServiceClockState;

  /** What opening the account's files found damaged and did about it. */
  notices: readonly DataNotice[];
  /**
   * Stops the outbox, the files and the sync, then closes the cache file. `beforeDbClose` runs
   * between the two: nothing writes the cache any more, and it can still be read (the record of
   * the first screen is read there, so it is exactly what the closed file holds).
   */
  close(beforeDbClose?: () => Promise<void>): Promise<void>;
}

export interface EngineOptions extends Omit<ReadEngineOptions, 'pending'> {
  /** Tuning and test doubles of the outbox (clock, timers, jitter, ids, concurrency, the check). */
  outbox?: AccountOutboxSettings;
  /**
   * How long a create waits for its answer (default `SEND_PATIENCE` request timeouts): until
   * then the service may still apply it, so it is neither looked up nor sent again (rule 6).
   */
  sendTimeoutMs?: number;
  /** Dropped files: per-file size cap, spool folder (default beside the cache file), PUTs at once. */
  attachments?: { maxFileBytes?: number; spoolDir?: string; concurrency?: number };
  /** Received files: their folder (default beside the cache file) and cap (default 500 MiB). */
  downloads?: { dir?: string; maxBytes?: number };
}

/** An account's engine: the read engine's parts, its outbox, and its sent and received files. */
export interface Engine extends ReadEngine {
  outbox: AccountOutbox;
  files: AttachmentFiles;
  downloads: DownloadCache;
}

/**
 * Request timeouts a create waits for its answer before it gives up. The service has no
 * idempotency key: a create it still holds when the look-up runs is made twice (seen with the
 * service held several timeouts at load ~30), so a create is waited for longer than a read. Not
 * much longer: a connection that died without a word (a network that went away mid-request)
 * holds the create, and every later change to its item, for this long before the look-up: four
 * timeouts are two minutes at the default 30 s.
 */
export const SEND_PATIENCE = 4;

/** The hash that names an account's files (its address and user, never its token). */
export function accountKey(connection: Pick<EngineConnection, 'baseUrl' | 'userId' | 'cacheKey'>): string {
  const place = connection.cacheKey ?? connection.baseUrl.replace(/\/+$/, '');
  return createHash('sha256').update(`${place}\n${connection.userId}`).digest('hex').slice(0, 16);
}

/** The cache file of one account: named from its address and user, never from the token. */
export function cacheFileFor(
  dataDir: string,
  connection: Pick<EngineConnection, 'baseUrl' | 'userId' | 'cacheKey'>,
): string {
  return join(dataDir, `cache-${accountKey(connection)}.sqlite`);
}

/** The outbox file of one account (its unsent changes), beside its cache file. */
export function outboxFileFor(
  dataDir: string,
  connection: Pick<EngineConnection, 'baseUrl' | 'userId' | 'cacheKey'>,
): string {
  return join(dataDir, `outbox-${accountKey(connection)}.sqlite`);
}

/** The service client of an account; `timeoutMs` overrides the connection's. */
export function serviceClientFor(
  connection: EngineConnection,
  options: {
    fetch?: FetchLike | undefined;
    log: (message: string) => void;
    timeoutMs?: number;
    serviceClock?: ServiceClockState;
  },
): ServiceClient {
  const timeoutMs = options.timeoutMs ?? connection.timeoutMs;
  return createServiceClient({
    baseUrl: connection.baseUrl,
    token: connection.token,
    ...(connection.tokenHeader ? { tokenHeader: connection.tokenHeader } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.serviceClock ? { onAnswer: options.serviceClock.observe } : {}),
    log: options.log,
  });
}

/** The parts every engine of an account stands on, in the order they are made. */
interface AccountParts {
  log: (message: string) => void;
  clock: () => Date;
  db: CacheDb;
  notices: readonly DataNotice[];
  serviceClock: ServiceClockState;
  client: ServiceClient;
  cache: Cache;
  events: EventHub;
  /** Tasks stored since the full-text index was brought up to date go into it in the background. */
  indexing: SearchIndexing;
}

/** Opens the account's files (cache and outbox) and its service client. */
function openAccount(options: ReadEngineOptions | EngineOptions): AccountParts {
  const log = options.log ?? (() => {});
  const clock = options.clock ?? (() => new Date());
  const { connection } = options;
  const { db, notices } = openAccountDb(
    { cache: cacheFileFor(options.dataDir, connection), outbox: outboxFileFor(options.dataDir, connection) },
    { clock, log },
  );
  const serviceClock = createServiceClock({ ...options.serviceClock, log });
  const client = serviceClientFor(connection, { fetch: options.fetch, log, serviceClock });
  const cache = accountCache(db);
  const events = new EventHub(log);
  const indexing = startSearchIndexing(cache.search, cache.transaction, log);
  events.onAny((name) => {
    if (name === 'cache.onDidChange') indexing.kick();
  });
  return { log, clock, db, notices, serviceClock, client, cache, events, indexing };
}

/** The account's sync over the rule-7 port given; its status goes out on the account's events. */
function syncFor(
  parts: AccountParts,
  pending: PendingFields,
  options: ReadEngineOptions | EngineOptions,
): { sync: Sync; unsubscribe: () => void } {
  const { cache, client, clock, log, events, serviceClock } = parts;
  const sync = createSync({
    cache,
    client,
    pending,
    userId: options.connection.userId,
    clock,
    log,
    emitChange: (change) => events.emit('cache.onDidChange', change),
    pullParts: PULL_PARTS,
    ...options.sync,
  });
  // The status carries the service clock the renderer reads displayed times on.
  const withClock = <S extends object>(status: S) => ({ ...status, serviceClock: serviceClock.current() });
  const offStatus = sync.onStatus((status) => events.emit('sync.onDidChangeStatus', withClock(status)));
  // A first sync's My Work is stored before any task is indexed (see `SearchIndexing.hold`); if
  // my lists could not be read (or take longer than their head start), the hold ends once the
  // project lists are asked for: nothing is gained by holding then.
  const holdIndexing = ({ initialSync: first }: SyncStatus) =>
    parts.indexing.hold(first !== undefined && !first.myWorkReady && !first.projectListsAsked);
  holdIndexing(sync.status());
  const offIndexing = sync.onStatus(holdIndexing);
  const offClock = serviceClock.onChange(() =>
    events.emit('sync.onDidChangeStatus', withClock(sync.status())),
  );
  return {
    sync,
    unsubscribe: () => {
      offStatus();
      offClock();
      offIndexing();
    },
  };
}

/**
 * An account's engine without its outbox: service client, cache, sync and read handlers, with
 * the rule-7 port given (default: nothing pending).
 */
export async function createReadEngine(options: ReadEngineOptions): Promise<ReadEngine> {
  const parts = openAccount(options);
  const { sync, unsubscribe } = syncFor(parts, options.pending ?? noPending, options);
  const { cache, log, clock, serviceClock } = parts;
  const handlers = readHandlers({ cache, sync, userId: options.connection.userId, log, clock, serviceClock });
  if (options.autoStart ?? true) sync.start();
  return readEngineOf(parts, { sync, unsubscribe }, handlers);
}

/**
 * The read engine's fields, the one object both engines are: the full engine adds its outbox and
 * files to it. Closing stops what `closeFirst` stops (the full engine's outbox and files), then
 * the sync, then the files of the account.
 */
function readEngineOf(
  parts: AccountParts,
  { sync, unsubscribe }: { sync: Sync; unsubscribe: () => void },
  handlers: Partial<HandlerMap>,
  closeFirst: () => Promise<void> = async () => {},
): ReadEngine {
  const { db, client, cache, events, serviceClock, notices, indexing } = parts;
  return {
    db,
    client,
    cache,
    sync,
    handlers,
    events,
    serviceClock,
    notices,
    async close(beforeDbClose) {
      await closeFirst();
      unsubscribe();
      await sync.stop();
      indexing.stop();
      try {
        await beforeDbClose?.();
      } finally {
        closeAccountDb(db);
      }
    },
  };
}

/**
 * One account's engine, built in layer order with nothing bound late: the account's files and
 * client, its cache, the sent and received files, the outbox (its stores, kinds and rule-7 port;
 * not started), the sync over that port, then the handlers. The outbox tells sync what it meets
 * through its events. Runs under plain Node; the core calls it for the local workspace and for
 * each remote account.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const { connection } = options;
  const parts = openAccount(options);
  const { log, db, client, cache, events, serviceClock } = parts;

  const downloads = new DownloadCache({
    dir:
      options.downloads?.dir ?? cacheFileFor(options.dataDir, connection).replace(/\.sqlite$/, '.downloads'),
    maxBytes: options.downloads?.maxBytes ?? DEFAULT_DOWNLOAD_CACHE_MIB * 1024 * 1024,
    onProgress: (progress) => events.emit('attachments.onDidDownload', progress),
    log,
  });
  const files = new AttachmentFiles({
    keep: (meta, path) => downloads.adopt(meta.fileId, meta, path),
    dir:
      options.attachments?.spoolDir ??
      cacheFileFor(options.dataDir, connection).replace(/\.sqlite$/, '.spool'),
    db,
    onProgress: (status) => events.emit('attachments.onDidProgress', status),
    ...(options.attachments?.maxFileBytes ? { maxFileBytes: options.attachments.maxFileBytes } : {}),
    ...(options.attachments?.concurrency ? { concurrency: options.attachments.concurrency } : {}),
    log,
  });

  // Sends still waiting for an answer are given up on when the engine closes.
  const closing = new AbortController();
  const baseFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const timeoutMs = connection.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sendClient = serviceClientFor(connection, {
    timeoutMs: options.sendTimeoutMs ?? SEND_PATIENCE * timeoutMs,
    fetch: (input, init) =>
      baseFetch(input, {
        ...init,
        signal: init.signal ? AbortSignal.any([init.signal, closing.signal]) : closing.signal,
      }),
    log,
    // A create's answer is the freshest stamp there is: the service clock learns from it.
    serviceClock,
  });
  const outbox = createAccountOutbox({
    // Rule 6: when a request ends without an answer (the connection failed, or the send client
    // gave up), the service may still be working on it; a look-up gives it two request
    // timeouts from then before concluding.
    lookUpDelayMs: 2 * timeoutMs,
    log,
    ...options.outbox,
    files: files.sender,
    cache,
    client,
    sendClient,
    userId: connection.userId,
    serviceClock,
    emit: (name, payload) => events.emit(name, payload),
    kindModules: KIND_FACTORIES,
    entities: ENTITIES,
  });

  const synced = syncFor(parts, outbox.pending, options);
  const { sync } = synced;
  const fetchItem = (item: ReloadedItem) => fetchReloaded(ENTITIES, sync, item);
  const offOutbox = [
    // The status tells the truth at once: a send refused at the connection shows Offline (sync
    // probes from then); a send that goes through while sync thinks offline makes it probe now.
    outbox.onDidFailRequest((err) => sync.notifyOffline(err)),
    outbox.onDidSend(() => {
      if (!sync.status().online) sync.notifyOnline();
    }),
    outbox.onDidKeepItem((item) => {
      void fetchItem(item).catch((err: unknown) =>
        log(
          `outbox: fetching ${item.entity} ${item.id} kept over its delete failed: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    }),
  ];
  let online = sync.status().online;
  const offReconnect = sync.onStatus((status) => {
    if (status.online && !online) outbox.reconnected();
    online = status.online;
  });
  // The sync status carries the outbox's "token needed": re-emitted when that flips.
  let paused = outbox.status().paused;
  const offPaused = outbox.onDidChange((status) => {
    if (status.paused === paused) return;
    paused = status.paused;
    sync.refresh();
  });

  const handlers = engineHandlers({
    cache,
    sync,
    userId: connection.userId,
    log,
    clock: parts.clock,
    serviceClock,
    outbox,
    client,
    files,
    downloads,
    fetchItem,
    account: { key: accountKey(connection), baseUrl: connection.baseUrl, userId: connection.userId },
    emit: (n, p) => events.emit(n, p),
  });

  await files.sweep(outbox.entries());
  outbox.start();
  if (options.autoStart ?? true) sync.start();
  const engine = readEngineOf(parts, synced, handlers, async () => {
    for (const off of offOutbox) off();
    offReconnect();
    offPaused();
    closing.abort();
    await outbox.stop();
    await files.close();
    await downloads.close();
  });
  return { ...engine, outbox, files, downloads };
}
