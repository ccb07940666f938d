import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createServiceClient, type ServiceClient } from './api/client';
import type { FetchLike } from './api/http';
import { createServiceClock, type ServiceClockOptions, type ServiceClockState } from './api/service-clock';
import { createCache, type Cache } from './cache/cache';
import { openAccountDb, type CacheDb } from './cache/db';
import type { DataNotice } from '../../shared/ipc/app';
import { EventHub } from './event-hub';
import { PULL_PARTS } from './entities';
import { readHandlers } from './handlers/read';
import type { HandlerMap } from './handlers/types';
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

export interface EngineOptions {
  /** Folder of the account caches; each account gets its own file in it. */
  dataDir: string;
  connection: EngineConnection;
  fetch?: FetchLike;
  clock?: () => Date;
  log?: (message: string) => void;
  /** Rule 7 port; the outbox passes its implementation. */
  pending?: PendingFields;
  /** Tuning of the sync (concurrency, interval, event window). */
  sync?: Pick<SyncOptions, 'concurrency' | 'intervalMs' | 'probeIntervalMs' | 'eventWindow' | 'retry'>;
  /** Start the sync schedule at once (default true). */
  autoStart?: boolean;
  /**
   * The account's service clock: its setting and what an earlier run learnt (default: learnt
   * from this run's answers, not saved). The local workspace's is `local`.
   */
  serviceClock?: Omit<ServiceClockOptions, 'log'>;
}

export interface Engine {
  db: CacheDb;
  client: ServiceClient;
  cache: Cache;
  sync: Sync;
  /** Every read handler map of this account, merged. */
  handlers: Partial<HandlerMap>;
  /** `cache.onDidChange` and `sync.onDidChangeStatus`; forward with `events.onAny`. */
  events: EventHub;
  /** The clock the service stamps its moments on (the client's answers teach it). */
  serviceClock: ServiceClockState;

  /** What opening the account's files found damaged and did about it. */
  notices: readonly DataNotice[];
  close(): Promise<void>;
}

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

/**
 * One account's engine: service client, cache, sync and read handlers, wired together. Runs
 * under plain Node; the shell calls it for the local workspace and for each remote account.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const log = options.log ?? (() => {});
  const clock = options.clock ?? (() => new Date());
  const { connection } = options;
  const { db, notices } = openAccountDb(
    { cache: cacheFileFor(options.dataDir, connection), outbox: outboxFileFor(options.dataDir, connection) },
    { clock, log },
  );
  const serviceClock = createServiceClock({ ...options.serviceClock, log });
  const client = serviceClientFor(connection, { fetch: options.fetch, log, serviceClock });
  const cache = createCache(db);
  const events = new EventHub(log);
  const sync = createSync({
    cache,
    client,
    pending: options.pending ?? noPending,
    userId: connection.userId,
    clock,
    log,
    emitChange: (change) => events.emit('cache.onDidChange', change),
    pullParts: PULL_PARTS,
    ...options.sync,
  });
  // The status carries the service clock the renderer reads displayed times on.
  const withClock = <S extends object>(status: S) => ({ ...status, serviceClock: serviceClock.current() });
  const offStatus = sync.onStatus((status) => events.emit('sync.onDidChangeStatus', withClock(status)));
  const offClock = serviceClock.onChange(() =>
    events.emit('sync.onDidChangeStatus', withClock(sync.status())),
  );
  const unsubscribe = (): void => {
    offStatus();
    offClock();
  };
  const handlers = readHandlers({ cache, sync, userId: connection.userId, log, clock, serviceClock });
  if (options.autoStart ?? true) sync.start();
  return {
    db,
    client,
    cache,
    sync,
    handlers,
    events,
    serviceClock,

    notices,
    async close() {
      unsubscribe();
      await sync.stop();
      db.close();
    },
  };
}
