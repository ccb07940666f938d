import { AttachmentFiles } from '../attachments/files';
import { cacheFileFor, createEngine, type Engine, type EngineOptions } from '../engine';
import { attachmentHandlers } from '../handlers/attachments';
import { mergeHandlerMaps } from '../handlers/registry';
import { calendarWriteHandlers } from '../handlers/calendar-write';
import { crmWriteHandlers } from '../handlers/crm-write';
import { outboxHandlers } from '../handlers/outbox';
import { projectsWriteHandlers } from '../handlers/projects-write';
import { tasksWriteHandlers } from '../handlers/tasks-write';
import type { HandlerMap } from '../handlers/types';
import { DEFAULT_TIMEOUT_MS } from '../api/http';
import type { PendingFields } from '../sync/pending';
import type { Sync } from '../sync/sync';
import type { Reloaded } from './outbox';
import { createWorkdeskOutbox, type WorkdeskOutbox, type WorkdeskOutboxOptions } from './workdesk-outbox';

export interface WorkdeskEngineOptions extends Omit<EngineOptions, 'pending'> {
  /** Tuning and test doubles of the outbox (clock, timers, jitter, ids, concurrency). */
  outbox?: Omit<WorkdeskOutboxOptions, 'cache' | 'client' | 'userId' | 'emit' | 'files'>;
  /** Dropped files: per-file size cap, spool folder (default beside the cache file), PUTs at once. */
  attachments?: { maxFileBytes?: number; spoolDir?: string; concurrency?: number };
}

export interface WorkdeskEngine extends Engine {
  outbox: WorkdeskOutbox;
  files: AttachmentFiles;
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
    isPendingStructural: (entity, id) => late.port?.isPendingStructural(entity, id) ?? false,
    noteServerValues: (entity, id, values) => late.port?.noteServerValues?.(entity, id, values),
    pendingCount: () => late.port?.pendingCount?.() ?? 0,
    tokenNeeded: () => late.port?.tokenNeeded?.() ?? false,
    ackMark: () => late.port?.ackMark?.() ?? 0,
    ackedSince: (entity, id, mark) => late.port?.ackedSince?.(entity, id, mark) ?? new Set(),
    copiesOfUnfoldedCreates: (tasks) => late.port?.copiesOfUnfoldedCreates?.(tasks) ?? new Set(),
  };
  const { outbox: outboxOptions, autoStart, attachments, ...engineOptions } = options;
  const engine = await createEngine({ ...engineOptions, pending, autoStart: false });
  const files = new AttachmentFiles({
    dir:
      attachments?.spoolDir ??
      cacheFileFor(options.dataDir, options.connection).replace(/\.sqlite$/, '.spool'),
    db: engine.cache.db,
    onProgress: (status) => engine.events.emit('attachments.onDidProgress', status),
    ...(attachments?.maxFileBytes ? { maxFileBytes: attachments.maxFileBytes } : {}),
    ...(attachments?.concurrency ? { concurrency: attachments.concurrency } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const outbox = createWorkdeskOutbox({
    files: files.sender,
    // Rule 6: the client gives up on a send after one request timeout, and the service may
    // still be working on it then; a look-up gives it as long again before concluding.
    lookUpDelayMs: 2 * (options.connection.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    ...outboxOptions,
    ...(options.log && !outboxOptions?.log ? { log: options.log } : {}),
    fetchItem: (item) => fetchReloaded(engine.sync, item),
    cache: engine.cache,
    client: engine.client,
    userId: options.connection.userId,
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
    projectsWriteHandlers({ outbox }),
    calendarWriteHandlers({ outbox }),
    crmWriteHandlers({ outbox }),
    outboxHandlers({ outbox }),
    attachmentHandlers({ files, outbox, cache: engine.cache, emit: (n, p) => engine.events.emit(n, p) }),
  ]);
  await files.sweep(outbox.outbox.entries());
  outbox.outbox.start();
  if (autoStart ?? true) engine.sync.start();
  return {
    ...engine,
    handlers,
    outbox,
    files,
    async close() {
      unsubscribe();
      await outbox.outbox.stop();
      await files.close();
      await engine.close();
    },
  };
}

/**
 * Brings in the service's version of an item a reload settled: the one-item fetch of sync where
 * there is one, else (an event, a dependency, a create whose real id is unknown) a whole pull.
 */
async function fetchReloaded(sync: Sync, item: Reloaded): Promise<void> {
  const { onDemand } = sync;
  if (item.id !== null) {
    switch (item.entity) {
      case 'task':
        await onDemand.task(item.id);
        return;
      case 'project':
        await onDemand.project(item.id);
        return;
      case 'crmContact':
        await onDemand.contact(item.id);
        return;
      case 'crmAccount':
        await onDemand.account(item.id);
        return;
    }
  }
  await sync.now();
}
