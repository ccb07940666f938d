import type { TaskMessage } from '../../../shared/api/messages';
import type { OutboxEntity } from '../../../shared/entities';

/**
 * Rule 7 port: what the outbox holds for an entity, asked by a pull before it overwrites a
 * cached row. The outbox implements it; until then `noPending` says "nothing pending".
 *
 * The entities are the resources the outbox writes (`RESOURCES` in `src/shared/entities.ts`):
 * for `taskTag` (a task's tag links) the id is the task's, field names are tag ids, values
 * true/false. Other field names are the API's (e.g. `name`, `assignedToUserId`, `status` for a
 * task).
 */
export type PendingEntity = OutboxEntity;

/** A message as a task's message list answers it, with the task it was listed for. */
export type ListedMessage = TaskMessage & { taskId: string };

/**
 * The messages a task's message list answered, each with that task: the answer's own objects,
 * each given its task in place (no copy: a first sync reads 60,000 messages), so they are the
 * caller's to give.
 */
export function listedMessages(taskId: string, messages: TaskMessage[]): ListedMessage[] {
  for (const m of messages) (m as ListedMessage).taskId = taskId;
  return messages as ListedMessage[];
}

/**
 * The items of the lists sync stores, by the entity a local create makes (`copiesOfUnfoldedCreates`):
 * a task's messages each with the task they were listed for, an item's dependencies with both ends.
 * Each resource's descriptor file adds its entry (module augmentation: `entities/tasks.ts`,
 * `projects.ts`, `calendar.ts`, `crm.ts`, `time-reports.ts`), so this file names no resource.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by augmentation
export interface ListedItems {}

/** Field of `ackedSince`: the item itself was created or deleted. */
export const ACKED_ITEM = '*';
/** Field of `ackedSince`: some change of the item was acknowledged. */
export const ACKED_ANY = '#';

export interface PendingFields {
  /** Fields of this entity with a local change not yet acknowledged by the service. */
  pendingFieldsFor(entity: PendingEntity, id: string): ReadonlySet<string>;
  /**
   * The local value of each field of this entity with a pending change (what the latest open
   * entry set): what a pull keeps when the cache has no row of the entity (a cache made again).
   */
  localValuesOf?(entity: PendingEntity, id: string): Record<string, unknown>;
  /** True while a local create or delete of this entity waits: a pull neither removes nor re-adds it. */
  isPendingStructural(entity: PendingEntity, id: string): boolean;
  /** The ids among `ids` for which `isPendingStructural` is true, read at once (a slice of a list). */
  pendingStructuralAmong?(entity: PendingEntity, ids: readonly string[]): ReadonlySet<string>;
  /**
   * Told the service's values of pending fields when a pull kept the local ones, so the outbox
   * can record a conflict when they differ from what it last saw. Runs inside the pull's
   * transaction: synchronous, no I/O beyond the same database.
   */
  noteServerValues?(
    entity: PendingEntity,
    id: string,
    values: Record<string, unknown>,
    source?: { at?: string | null },
  ): void;
  /**
   * The service's values of this item were just read and merged (rule 7): a change of it sent
   * soon after needs no read of its own first.
   */
  noteSeen?(entity: PendingEntity, id: string): void;
  /** As `noteSeen` for every one of `ids`, read at once (a large list: one note, not one per item). */
  noteSeenAll?(entity: PendingEntity, ids: readonly string[]): void;
  /**
   * Ids among `items` (a list of `entity` the service answered) that the service made for local
   * creates (or posted messages) whose answer has not folded here (rule 6's look-up finds them
   * so): their local rows (drafts) stand for them, so sync neither stores them nor keeps a copy
   * stored earlier (shown once).
   */
  copiesOfUnfoldedCreates?<E extends keyof ListedItems>(
    entity: E,
    items: readonly ListedItems[E][],
  ): ReadonlySet<string>;
  /**
   * Called by a pull that stored what it read in a cache no pull had completed in before (a new
   * cache, or one made again because its file was damaged, deleted or emptied): the outbox puts
   * its open entries' changes back on top, so the cache shows what the user typed (rule 7) and
   * the items created here, under their local ids. Runs synchronously, after the pull's writes.
   */
  restoreLocalChanges?(): void;
  /** Local changes waiting to be sent, for the sync status. */
  pendingCount?(): number;
  /**
   * Entries not done yet, in any state (waiting, sent, failed, stuck): with none, a pull has no
   * local change to merge and may leave rows it stored as they are (see `TaskFingerprints`).
   * A port without it is taken to hold some.
   */
  openCount?(): number;
  /** True while sending is paused because the service refused the token (rule 4, 401). */
  tokenNeeded?(): boolean;
  /** Taken before a fetch's first request: the outbox's acknowledgements so far. */
  ackMark?(): number;
  /**
   * Fields of this entity whose local change the service acknowledged after `mark` (plus
   * `ACKED_ITEM`, `ACKED_ANY`): a fetch that began before may hold older values, and the claims
   * that protected them are gone. The cache's values win for those.
   */
  ackedSince?(entity: PendingEntity, id: string, mark: number): ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

export const noPending: PendingFields = {
  pendingFieldsFor: () => NONE,
  isPendingStructural: () => false,
  openCount: () => 0,
};

/**
 * `pending` answering `isPendingStructural` for `ids` of `entity` from one read of the outbox
 * (`pendingStructuralAmong`), other questions as `pending` does. Made inside the transaction that
 * stores those items and used only there: no local change can come between the read and the
 * writes it decides.
 */
export function withStructuralOf(
  pending: PendingFields,
  entity: PendingEntity,
  ids: readonly string[],
): PendingFields {
  if (!pending.pendingStructuralAmong) return pending;
  const asked = new Set(ids);
  const structural = pending.pendingStructuralAmong(entity, ids);
  const isPendingStructural: PendingFields['isPendingStructural'] = (e, id) =>
    e === entity && asked.has(id) ? structural.has(id) : pending.isPendingStructural(e, id);
  // The port's other methods are called on the port itself (an object or a class instance).
  return new Proxy(pending, {
    get(target, property) {
      if (property === 'isPendingStructural') return isPendingStructural;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The acknowledgement mark a fetch takes before its first request (0 when the port has none). */
export function ackMark(pending: PendingFields): number {
  return pending.ackMark?.() ?? 0;
}

/** See `PendingFields.ackedSince`; nothing when no mark was taken. */
export function ackedSince(
  pending: PendingFields,
  entity: PendingEntity,
  id: string,
  mark: number | undefined,
): ReadonlySet<string> {
  return mark === undefined ? NONE : (pending.ackedSince?.(entity, id, mark) ?? NONE);
}

/**
 * Rule 7 applied to one incoming record: fields with a pending local change keep the cached
 * value (the outbox's local value when no row is cached); the service's values of those fields go to `noteServerValues`. Fields acknowledged
 * after `mark` (the fetch began before) keep the cached value too, without a conflict: the
 * fetched value is older. Returns null when the entity is pending create or delete, or was
 * created or deleted after `mark` (the pull leaves it alone).
 */
export function mergePending<T extends Record<string, unknown>>(
  pending: PendingFields,
  entity: PendingEntity,
  incoming: T,
  cached: () => Record<string, unknown> | null,
  mark?: number,
): T | null {
  const id = incoming.id as string;
  if (pending.isPendingStructural(entity, id)) return null;
  const acked = ackedSince(pending, entity, id, mark);
  if (acked.has(ACKED_ITEM)) return null;
  pending.noteSeen?.(entity, id);
  const fields = pending.pendingFieldsFor(entity, id);
  if (!fields.size && acked.size <= 1) return incoming;
  // No cached row (a cache made again while changes wait): the outbox's own record of them.
  const local = cached() ?? (fields.size ? (pending.localValuesOf?.(entity, id) ?? null) : null);
  if (!local) return incoming;
  const merged: Record<string, unknown> = { ...incoming };
  for (const field of acked) if (field in local) merged[field] = local[field];
  if (!fields.size) return merged as T;
  const server: Record<string, unknown> = {};
  for (const field of fields) {
    // A value fetched before this client's own change of the field was acknowledged is older
    // than the claim's base now: no one else's change, nothing to journal.
    if (!acked.has(field)) server[field] = incoming[field];
    if (field in local) merged[field] = local[field];
  }
  const at = incoming.recentActivityMoment;
  pending.noteServerValues?.(entity, id, server, { at: typeof at === 'string' ? at : null });
  return merged as T;
}

/**
 * Rule 7 for a task's tag links: the tags with a pending add or remove (or one acknowledged
 * after `mark`) keep their cached presence; the rest are the service's.
 */
export function mergePendingTags(
  pending: PendingFields,
  taskId: string,
  incoming: readonly string[],
  cachedHas: (tagId: string) => boolean,
  mark?: number,
): string[] {
  const claimed = pending.pendingFieldsFor('taskTag', taskId);
  const acked = ackedSince(pending, 'taskTag', taskId, mark);
  if (!claimed.size && acked.size <= 1) return [...incoming];
  const tags = new Set(incoming);
  const server: Record<string, unknown> = {};
  for (const tagId of [...claimed, ...acked]) {
    if (tagId === ACKED_ANY || tagId === ACKED_ITEM) continue;
    if (claimed.has(tagId)) server[tagId] = tags.has(tagId);
    if (cachedHas(tagId)) tags.add(tagId);
    else tags.delete(tagId);
  }
  if (claimed.size) pending.noteServerValues?.('taskTag', taskId, server);
  return [...tags];
}
