import { DownloadCache } from '../attachments/downloads';
import { AttachmentFiles } from '../attachments/files';
import { fileHandlers } from '../handlers/files';
import { linkHandlers } from '../handlers/links';
import { draftHandlers } from '../handlers/drafts';
import { DEFAULT_DOWNLOAD_CACHE_MIB } from '../../../shared/ipc/settings';
import {
  accountKey,
  cacheFileFor,
  createEngine,
  serviceClientFor,
  type Engine,
  type EngineOptions,
} from '../engine';
import { attachmentHandlers } from '../handlers/attachments';
import { mergeHandlerMaps } from '../handlers/registry';
import { calendarWriteHandlers } from '../handlers/calendar-write';
import { timeWriteHandlers } from '../handlers/time';
import { crmWriteHandlers } from '../handlers/crm-write';
import { outboxHandlers } from '../handlers/outbox';
import { pendingTransferHandlers } from '../handlers/pending-transfer';
import { projectsWriteHandlers } from '../handlers/projects-write';
import { tasksWriteHandlers } from '../handlers/tasks-write';
import type { HandlerMap } from '../handlers/types';
import { DEFAULT_TIMEOUT_MS } from '../api/http';
import { fetchReloaded } from '../entities';
import type { PendingFields } from '../sync/pending';
import { createAccountOutbox, type AccountOutbox, type AccountOutboxOptions } from './account-outbox';

export interface WorkdeskEngineOptions extends Omit<EngineOptions, 'pending'> {
  /** Tuning and test doubles of the outbox (clock, timers, jitter, ids, concurrency). */
  outbox?: Omit<
    AccountOutboxOptions,
    'cache' | 'client' | 'sendClient' | 'userId' | 'emit' | 'files' | 'serviceClock'
  >;
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

/**
 * Request timeouts a create waits for its answer before it gives up. The service has no
 * idempotency key: a create it still holds when the look-up runs is made twice (finding 16,
 * seen with the service held several timeouts at load ~30), so a create is waited for longer
 * than a read. Not much longer: a connection that died without a word (a network that went away
 * mid-request) holds the create, and every later change to its item, for this long before the
 * look-up: four timeouts are two minutes at the default 30 s.
 */
export const SEND_PATIENCE = 4;

export interface WorkdeskEngine extends Engine {
  outbox: AccountOutbox;
  files: AttachmentFiles;
  downloads: DownloadCache;
}

/**
 * The account engine with its outbox: the engine's client, cache, sync and read handlers, plus
 * the outbox (its tables are in the cache file), the write handlers, the rule-7 port handed to
 * sync, and replay on start-up, on the timer and on reconnect (rule 3).
 */
export async function createWorkdeskEngine(options: WorkdeskEngineOptions): Promise<WorkdeskEngine> {
  // Sync needs the port at creation; the outbox needs the engine's database: bind late.
  const late: { port?: PendingFields } = {};
  const pending: PendingFields = {
    pendingFieldsFor: (entity, id) => late.port?.pendingFieldsFor(entity, id) ?? new Set(),
    localValuesOf: (entity, id) => late.port?.localValuesOf?.(entity, id) ?? {},
    isPendingStructural: (entity, id) => late.port?.isPendingStructural(entity, id) ?? false,
    noteServerValues: (entity, id, values, source) =>
      late.port?.noteServerValues?.(entity, id, values, source),
    noteSeen: (entity, id) => late.port?.noteSeen?.(entity, id),
    restoreLocalChanges: () => late.port?.restoreLocalChanges?.(),
    pendingCount: () => late.port?.pendingCount?.() ?? 0,
    tokenNeeded: () => late.port?.tokenNeeded?.() ?? false,
    ackMark: () => late.port?.ackMark?.() ?? 0,
    ackedSince: (entity, id, mark) => late.port?.ackedSince?.(entity, id, mark) ?? new Set(),
    copiesOfUnfoldedCreates: (entity, items) =>
      late.port?.copiesOfUnfoldedCreates?.(entity, items) ?? new Set(),
  };
  const {
    outbox: outboxOptions,
    autoStart,
    attachments,
    downloads: downloadOptions,
    sendTimeoutMs,
    ...engineOptions
  } = options;
  const engine = await createEngine({ ...engineOptions, pending, autoStart: false });
  const downloads = new DownloadCache({
    dir:
      downloadOptions?.dir ??
      cacheFileFor(options.dataDir, options.connection).replace(/\.sqlite$/, '.downloads'),
    maxBytes: downloadOptions?.maxBytes ?? DEFAULT_DOWNLOAD_CACHE_MIB * 1024 * 1024,
    onProgress: (progress) => engine.events.emit('attachments.onDidDownload', progress),
    ...(options.log ? { log: options.log } : {}),
  });
  const files = new AttachmentFiles({
    keep: (meta, path) => downloads.adopt(meta.fileId, meta, path),
    dir:
      attachments?.spoolDir ??
      cacheFileFor(options.dataDir, options.connection).replace(/\.sqlite$/, '.spool'),
    db: engine.cache.db,
    onProgress: (status) => engine.events.emit('attachments.onDidProgress', status),
    ...(attachments?.maxFileBytes ? { maxFileBytes: attachments.maxFileBytes } : {}),
    ...(attachments?.concurrency ? { concurrency: attachments.concurrency } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  // Sends still waiting for an answer are given up on when the engine closes.
  const closing = new AbortController();
  const baseFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const timeoutMs = options.connection.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sendClient = serviceClientFor(options.connection, {
    timeoutMs: sendTimeoutMs ?? SEND_PATIENCE * timeoutMs,
    fetch: (input, init) =>
      baseFetch(input, {
        ...init,
        signal: init.signal ? AbortSignal.any([init.signal, closing.signal]) : closing.signal,
      }),
    log: options.log ?? (() => {}),
    // A create's answer is the freshest stamp there is: the service clock learns from it.
    serviceClock: engine.serviceClock,
  });
  const outbox = createAccountOutbox({
    files: files.sender,
    // Rule 6: when a request ends without an answer (the connection failed, or the send client
    // gave up), the service may still be working on it; a look-up gives it two request
    // timeouts from then before concluding.
    lookUpDelayMs: 2 * timeoutMs,
    ...outboxOptions,
    ...(options.log && !outboxOptions?.log ? { log: options.log } : {}),
    fetchItem: (item) => fetchReloaded(engine.sync, item),
    // The status tells the truth at once: a send refused at the connection shows Offline (sync
    // probes from then); a send that goes through while sync thinks offline makes it probe now.
    onRequestFailure: (err) => engine.sync.notifyOffline(err),
    onSent: () => {
      if (!engine.sync.status().online) engine.sync.notifyOnline();
    },
    cache: engine.cache,
    client: engine.client,
    sendClient,
    userId: options.connection.userId,
    serviceClock: engine.serviceClock,
    emit: (name, payload) => engine.events.emit(name, payload),
  });
  late.port = outbox.pending;
  let online = engine.sync.status().online;
  const offStatus = engine.sync.onStatus((status) => {
    if (status.online && !online) outbox.outbox.reconnected();
    online = status.online;
  });
  // The sync status carries the outbox's "token needed": re-emitted when that flips.
  let paused = outbox.outbox.status().paused;
  const offOutbox = outbox.outbox.onDidChange((status) => {
    if (status.paused === paused) return;
    paused = status.paused;
    engine.sync.refresh();
  });
  const unsubscribe = (): void => {
    offStatus();
    offOutbox();
  };
  const handlers: Partial<HandlerMap> = mergeHandlerMaps([
    engine.handlers,
    tasksWriteHandlers({ outbox, cache: engine.cache }),
    projectsWriteHandlers({ outbox, cache: engine.cache }),
    calendarWriteHandlers({ outbox }),
    timeWriteHandlers({ outbox }),
    crmWriteHandlers({ outbox }),
    outboxHandlers({ outbox }),
    pendingTransferHandlers({
      outbox,
      account: {
        key: accountKey(options.connection),
        baseUrl: options.connection.baseUrl,
        userId: options.connection.userId,
      },
    }),
    attachmentHandlers({ files, outbox, cache: engine.cache, emit: (n, p) => engine.events.emit(n, p) }),
    fileHandlers({ downloads, spool: files.spool, client: engine.client, cache: engine.cache }),
    linkHandlers({ cache: engine.cache, realIdOf: (id) => outbox.realIdOf(id) }),
    draftHandlers({ cache: engine.cache }),
  ]);
  await files.sweep(outbox.outbox.entries());
  outbox.outbox.start();
  if (autoStart ?? true) engine.sync.start();
  return {
    ...engine,
    handlers,
    outbox,
    files,
    downloads,
    async close() {
      unsubscribe();
      closing.abort();
      await outbox.outbox.stop();
      await files.close();
      await downloads.close();
      await engine.close();
    },
  };
}
