import { z } from 'zod';
import { channel } from './channel';

export const SyncPhase = z.enum([
  'idle',
  'org',
  'projects',
  'tasks',
  'events',
  'crm',
  'documents',
  'details',
]);
export type SyncPhase = z.infer<typeof SyncPhase>;

export const SyncStatus = z.object({
  /** False after a request failed for a network reason, until one succeeds. */
  online: z.boolean(),
  running: z.boolean(),
  phase: SyncPhase,
  /** Progress of the current run: requests done of those known so far. */
  done: z.number().int().min(0),
  total: z.number().int().min(0),
  lastSyncedAt: z.string().nullable(),
  /** The last run's failure, token-free; null after a clean run. */
  lastError: z.string().nullable(),
  /** Local changes waiting in the outbox. */
  pendingCount: z.number().int().min(0),
  /**
   * The service refused the token (401): sending is paused and syncing fails until a new token
   * is given with `accounts.setToken`.
   */
  tokenNeeded: z.boolean().default(false),
  /** While offline: a reachability probe is under way ("Reconnecting…"). */
  probing: z.boolean().default(false),
  /** While offline: when the next probe runs (ISO moment), null when none is scheduled. */
  nextProbeAt: z.string().nullable().default(null),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const syncChannels = {
  'sync.status': channel(z.object({}).strict(), SyncStatus),
  /** Starts a sync (or joins the running one); with `wait` it answers when the run ends. */
  'sync.now': channel(z.object({ wait: z.boolean().default(false) }).strict(), SyncStatus),
};
