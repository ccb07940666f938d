import { z } from 'zod';
import { accountsEvents } from './accounts';
import { settingsEvents } from './settings';
import { SyncStatus } from './sync';
import { OutboxStatus } from './outbox';
import { DownloadProgress, UploadsStatus } from './attachments';
import { DataNotice } from './app';
import { CACHE_ENTITIES } from '../entities';
import { timerEvents } from './time';
import { lazySchema } from '../lazy-schema';

/** What the native menus (and their shortcuts) ask the renderer to do. */
export const MenuCommand = lazySchema(() => z.enum(['new-task', 'search', 'sync-now', 'settings']));
export type MenuCommand = z.infer<typeof MenuCommand>;

/** What a cache change touched, so views showing those entities read again (see `RESOURCES`). */
export const CacheEntity = lazySchema(() => z.enum(CACHE_ENTITIES));
export type CacheEntity = z.infer<typeof CacheEntity>;

export const CacheChange = lazySchema(() =>
  z.object({
    entities: z.array(CacheEntity),
    /** Ids per entity when the change touched a few known items; absent means "any of them". */
    ids: z.partialRecord(CacheEntity, z.array(z.string())).optional(),
  }),
);
export type CacheChange = z.infer<typeof CacheChange>;

/**
 * An item created offline was acknowledged: its local id is now the service's. Views holding
 * the local id (an open detail, history entries) swap it. `entity` is the outbox's entity name
 * (`task`, `project`, `event`, ...).
 */
export const IdRemap = lazySchema(() =>
  z.object({ entity: z.string(), tempId: z.string(), realId: z.string() }),
);
export type IdRemap = z.infer<typeof IdRemap>;

/**
 * Push events from the core to the renderer, declared once. Names are `onDidX`-style.
 * Later domains add their events here.
 */
export const events = {
  'app.onDidLog': lazySchema(() =>
    z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string() }),
  ),
  'app.onDidRequestCommand': lazySchema(() => z.object({ command: MenuCommand })),
  /** A system notification about a task was clicked: the renderer opens the task. */
  'app.onDidRequestOpenTask': lazySchema(() => z.object({ taskId: z.string().min(1) })),
  /** A Workdesk or service link was opened (command line, the OS, the tray): the renderer resolves it. */
  'app.onDidOpenLink': lazySchema(() => z.object({ link: z.string().min(1).max(4096) })),
  /** A damaged file was moved aside and made again (see `app.notices`). */
  'app.onDidNotice': DataNotice,
  ...accountsEvents,
  ...settingsEvents,
  'cache.onDidChange': CacheChange,
  'sync.onDidChangeStatus': SyncStatus,
  'outbox.onDidChange': OutboxStatus,
  'outbox.onDidRemapId': IdRemap,
  /** Per-file and overall upload progress of dropped files. */
  'attachments.onDidProgress': UploadsStatus,
  'attachments.onDidDownload': DownloadProgress,
  ...timerEvents,
};

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const eventNames = Object.keys(events) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
