import { z } from 'zod';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

/** The outbox as the status bar shows it. */
export const OutboxStatus = lazySchema(() =>
  z.object({
    /** Changes not yet acknowledged by the service (waiting or sent without an answer). */
    pending: z.number().int().min(0),
    /** Of those, sent with no answer yet. */
    inFlight: z.number().int().min(0),
    /** Changes the service rejected, waiting for retry, edit or discard. */
    failed: z.number().int().min(0),
    /**
     * Changes the service applied whose answer could not be stored here, again and again: no longer
     * retried on their own, waiting for "try again" or "reload from the service".
     */
    stuck: z.number().int().min(0),
    /** Unresolved conflicts in the journal. */
    conflicts: z.number().int().min(0),
    /** `token-needed` after a 401: nothing is sent until a token is given. */
    paused: z.enum(['token-needed']).nullable(),
    /** When the service last acknowledged a change of this client (ms since the epoch), since start-up. */
    lastSentAt: z.number().nullable().default(null),
  }),
);
export type OutboxStatus = z.infer<typeof OutboxStatus>;

/**
 * What a person can correct in a queued change: the fields an update changes, the fields a
 * create was given, a message's text; plain values only (text, number, yes/no, cleared).
 */
export const EditableFields = lazySchema(() =>
  z.record(z.string(), z.union([z.string().max(200_000), z.number(), z.boolean(), z.null()])),
);
export type EditableFields = z.infer<typeof EditableFields>;

/** The refused or stuck change an entry waits behind (rule 2: its chain stops there). */
export const EntryHolder = lazySchema(() =>
  z.object({
    id: z.number().int(),
    label: z.string(),
    /**
     * `failed`: refused by the service; `stuck`: applied, its answer never stored (needs
     * attention); `held`: waiting for the user's decision on a conflict.
     */
    state: z.enum(['failed', 'stuck', 'held']),
  }),
);
export type EntryHolder = z.infer<typeof EntryHolder>;

export const OutboxEntryView = lazySchema(() =>
  z.object({
    id: z.number().int(),
    /** The operation kind, e.g. `task.update`. */
    kind: z.string(),
    /** A short label, e.g. `Edit task (title)`. */
    label: z.string(),
    /** The item it is about, `entity:id`. */
    entityKey: z.string(),
    /** `stuck`: applied by the service, its answer never stored here; it needs attention. */
    state: z.enum(['pending', 'in_flight', 'failed', 'stuck']),
    attempts: z.number().int(),
    /** ms since the epoch. */
    nextAttemptAt: z.number(),
    createdAt: z.number(),
    errorType: z.string().nullable(),
    /** The service's `errorMessage` for a rejected change, or the last retry (or fold) failure. */
    errorMessage: z.string().nullable(),
    /** What `outbox.edit` takes back, changed. */
    payload: z.unknown(),
    /** What `outbox.correct` takes back, changed; null when the change has nothing to correct. */
    fields: EditableFields.nullable(),
    /**
     * The refused or stuck change that holds this one back (it shares a chain with it, directly or
     * through changes it holds): nothing goes until that one is retried, corrected or discarded.
     */
    heldBy: EntryHolder.nullable(),
  }),
);
export type OutboxEntryView = z.infer<typeof OutboxEntryView>;

export const ConflictView = lazySchema(() =>
  z.object({
    id: z.number().int(),
    entity: z.string(),
    entityId: z.string(),
    field: z.string(),
    /** The field, or `*` for the whole item: a delete held because the item changed since it was read. */
    localValue: z.unknown(),
    /** The service's value (for `*`: the changed fields' values). */
    remoteValue: z.unknown(),
    /** ms since the epoch. */
    detectedAt: z.number(),
    /** Who changed it on the service (a user id), when the service says so. */
    remoteBy: z.string().nullable().default(null),
    /** When it changed on the service (the service's timestamp), when the service says so. */
    remoteAt: z.string().nullable().default(null),
    /** The item's name as the cache holds it, for "Priority of 'X' …". */
    itemName: z.string().nullable().default(null),
  }),
);
export type ConflictView = z.infer<typeof ConflictView>;

const EntryId = lazySchema(() => z.object({ id: z.number().int().min(1) }).strict());

export const outboxChannels = {
  'outbox.status': channel(
    () => z.object({}).strict(),
    () => OutboxStatus,
  ),
  /** Changes waiting or sent without an answer, oldest first. */
  'outbox.pending': channel(
    () => z.object({}).strict(),
    () => z.array(OutboxEntryView),
  ),
  'outbox.failed': channel(
    () => z.object({}).strict(),
    () => z.array(OutboxEntryView),
  ),
  'outbox.retry': channel(
    () => EntryId,
    () => OutboxStatus,
  ),
  'outbox.edit': channel(
    () => EntryId.extend({ payload: z.unknown() }).strict(),
    () => OutboxStatus,
  ),
  /**
   * A refused or waiting change (an update or a create alike) with some of its `fields`
   * corrected, checked by the same schema as a new one, and queued again; a create keeps its
   * local id, so the changes waiting for its item still find it.
   */
  'outbox.correct': channel(
    () => EntryId.extend({ fields: EditableFields }).strict(),
    () => OutboxStatus,
  ),
  'outbox.discard': channel(
    () => EntryId,
    () => OutboxStatus,
  ),
  /** Changes that need attention (`stuck`), oldest first. */
  'outbox.stuck': channel(
    () => z.object({}).strict(),
    () => z.array(OutboxEntryView),
  ),
  /** A stuck change back to automatic retry, tried now; nothing new is sent for it. */
  'outbox.tryAgain': channel(
    () => EntryId,
    () => OutboxStatus,
  ),
  /**
   * A stuck change settled as the service holds it: its local change dropped and its item fetched
   * again (all of sync for a create); answers once the fetch ended, whether or not it could run.
   */
  'outbox.reload': channel(
    () => EntryId,
    () => OutboxStatus,
  ),
  'conflicts.list': channel(
    () => z.object({}).strict(),
    () => z.array(ConflictView),
  ),
  'conflicts.resolve': channel(
    () => z.object({ id: z.number().int().min(1), choice: z.enum(['mine', 'theirs']) }).strict(),
    () => OutboxStatus,
  ),
};
