import { z } from 'zod';
import { channel } from './channel';
import { ServiceClock } from '../service-clock';
import { lazySchema } from '../lazy-schema';

export const SyncPhase = lazySchema(() =>
  z.enum(['idle', 'org', 'projects', 'tasks', 'events', 'crm', 'documents', 'details']),
);
export type SyncPhase = z.infer<typeof SyncPhase>;

/**
 * Something the service answered that could not be read: items of a list skipped (the rest were
 * read), or a whole read that failed while the other parts of the sync went on.
 */
export const ReadProblem = lazySchema(() =>
  z.object({
    /** What was read: the request's path, e.g. `/project/P1/tasks`. */
    key: z.string(),
    /** What the path holds, plural and singular: "tasks of project Alpha", "task of project Alpha". */
    what: z.string(),
    one: z.string(),
    /** Items skipped; null when the whole read failed. */
    count: z.number().int().min(0).nullable(),
    /** Items the answer held (null when the whole read failed). */
    total: z.number().int().min(0).nullable(),
    /** The first field at fault (`status.name`), null when the read failed as a whole. */
    field: z.string().nullable(),
    /** Why: the first skipped item's error, or the failed read's. */
    reason: z.string(),
    /** The id of the first skipped item, when it had one. */
    itemId: z.string().nullable(),
    /** When it was seen (the core's clock, local time). */
    at: z.string(),
  }),
);
export type ReadProblem = z.infer<typeof ReadProblem>;

/** The sentence the status bar and Settings show: "3 tasks of project Alpha could not be read". */
export function describeReadProblem(p: ReadProblem): string {
  if (p.count === null) return `The ${p.what} could not be read`;
  return `${p.count} ${p.count === 1 ? p.one : p.what}${p.total !== null && p.total > p.count ? ` (of ${p.total})` : ''} could not be read`;
}

/**
 * How far a first sync (a cache no pull completed in) has come, and what is usable already: the
 * folder tree once the project list is stored, My Work and Action required once the acting
 * user's own lists are, then the projects whose task lists are stored, of those the tree holds.
 */
export const InitialSyncProgress = lazySchema(() =>
  z
    .object({
      treeReady: z.boolean(),
      myWorkReady: z.boolean(),
      /** Projects (folders too) whose tasks are stored, of `projectsTotal` in the tree. */
      projectsDone: z.number().int().min(0),
      projectsTotal: z.number().int().min(0),
      /**
       * The project lists are asked for: the acting user's own lists are stored, given up on, or
       * past their head start. Set once, then true.
       */
      projectListsAsked: z.boolean().optional(),
    })
    .refine((p) => p.projectsDone <= p.projectsTotal, {
      message: 'projectsDone must not exceed projectsTotal',
      path: ['projectsDone'],
    }),
);
export type InitialSyncProgress = z.infer<typeof InitialSyncProgress>;

/** The status bar's words for a first sync's progress: "Syncing: 40 of 200 projects — My Work ready". */
export function describeInitialSync(p: InitialSyncProgress): string {
  const ready = p.myWorkReady ? ' — My Work ready' : '';
  if (!p.treeReady) return `Syncing: reading the folder tree${ready}`;
  if (p.projectsDone < p.projectsTotal)
    return `Syncing: ${p.projectsDone.toLocaleString('en-US')} of ${p.projectsTotal.toLocaleString('en-US')} projects${ready}`;
  return 'Syncing: messages — every project ready';
}

/**
 * How full the status bar's bar is during a sync, so the bar and the words agree. A first sync
 * counts its stages as the user sees them: the folder tree to 10 %, the project lists to 80 % by
 * projects stored, then the messages by requests done; any other sync, its requests done of
 * those known so far.
 */
export function syncPercent(status: Pick<SyncStatus, 'done' | 'total' | 'initialSync'>): number {
  const byRequests = status.total ? Math.min(1, status.done / status.total) : 0;
  const p = status.initialSync;
  if (!p) return Math.round(byRequests * 100);
  if (!p.treeReady) return 0;
  if (p.projectsDone < p.projectsTotal) return Math.round(10 + (70 * p.projectsDone) / p.projectsTotal);
  return Math.round(80 + 20 * byRequests);
}

export const SyncStatus = lazySchema(() =>
  z.object({
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
    /**
     * What the service answered that could not be read, per list or part, kept until a read of it
     * succeeds (this account's; stored in its cache across restarts).
     */
    readProblems: z.array(ReadProblem).default([]),
    /**
     * The clock the account's service stamps its moments on (zone-less in every answer and in the
     * cache): the renderer reads displayed times on it. Absent: the spec's local time.
     */
    serviceClock: ServiceClock.optional(),
    /** While a first sync runs: how far it has come (absent otherwise). */
    initialSync: InitialSyncProgress.optional(),
  }),
);
export type SyncStatus = z.infer<typeof SyncStatus>;

export const syncChannels = {
  'sync.status': channel(
    () => z.object({}).strict(),
    () => SyncStatus,
  ),
  /** Starts a sync (or joins the running one); with `wait` it answers when the run ends. */
  'sync.now': channel(
    () => z.object({ wait: z.boolean().default(false) }).strict(),
    () => SyncStatus,
  ),
};
