/**
 * Rule 7 port: what the outbox holds for an entity, asked by a pull before it overwrites a
 * cached row. The outbox implements it; until then `noPending` says "nothing pending".
 *
 * Field names are the API's (e.g. `name`, `assignedToUserId`, `status` for a task).
 */
export type PendingEntity =
  'task' | 'project' | 'message' | 'event' | 'document' | 'crmContact' | 'crmAccount' | 'dependency';

export interface PendingFields {
  /** Fields of this entity with a local change not yet acknowledged by the service. */
  pendingFieldsFor(entity: PendingEntity, id: string): ReadonlySet<string>;
  /** True while a local create or delete of this entity waits: a pull neither removes nor re-adds it. */
  isPendingStructural(entity: PendingEntity, id: string): boolean;
  /**
   * Told the service's values of pending fields when a pull kept the local ones, so the outbox
   * can record a conflict when they differ from what it last saw. Runs inside the pull's
   * transaction: synchronous, no I/O beyond the same database.
   */
  noteServerValues?(entity: PendingEntity, id: string, values: Record<string, unknown>): void;
  /** Local changes waiting to be sent, for the sync status. */
  pendingCount?(): number;
}

const NONE: ReadonlySet<string> = new Set();

export const noPending: PendingFields = {
  pendingFieldsFor: () => NONE,
  isPendingStructural: () => false,
};

/**
 * Rule 7 applied to one incoming record: fields with a pending local change keep the cached
 * value; the service's values of those fields go to `noteServerValues`. Returns null when the
 * entity is pending create or delete (the pull leaves it alone).
 */
export function mergePending<T extends Record<string, unknown>>(
  pending: PendingFields,
  entity: PendingEntity,
  incoming: T,
  cached: () => Record<string, unknown> | null,
): T | null {
  const id = incoming.id as string;
  if (pending.isPendingStructural(entity, id)) return null;
  const fields = pending.pendingFieldsFor(entity, id);
  if (!fields.size) return incoming;
  const local = cached();
  if (!local) return incoming;
  const merged: Record<string, unknown> = { ...incoming };
  const server: Record<string, unknown> = {};
  for (const field of fields) {
    server[field] = incoming[field];
    if (field in local) merged[field] = local[field];
  }
  pending.noteServerValues?.(entity, id, server);
  return merged as T;
}
