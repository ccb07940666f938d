// The steps every write handler shares: ids translated to real ones, a change queued through the
// outbox (rule 1: applied to the cache and stored in one transaction), and the answer the
// renderer gets at once. The outbox sends the change later.
import type { AccountOutbox, KindName, KindPayload } from '../outbox/account-outbox';
import type { SubmitOptions } from '../outbox/outbox';

/** What a write answers: the entry it queued, null when it changed nothing. */
export interface Queued {
  entryId: number | null;
  /** The change put back what a waiting one made (an undo): both withdrawn, nothing is sent. */
  withdrawn?: true;
}

/** What a create answers: the item's local id (real once the service made it) and its entry. */
export interface Created extends Queued {
  id: string;
}

/** The write side of the handlers of one account. */
export function writer(outbox: AccountOutbox) {
  /** An id that may be the local one of an item created offline, as the service knows it now. */
  const id = (value: string): string => outbox.realIdOf(value);
  return {
    id,
    /** `id` of an optional field (`null` kept: it clears the field). */
    opt: <T extends string | null | undefined>(value: T): T =>
      (typeof value === 'string' ? id(value) : value) as T,
    ids: (values: string[] | undefined): string[] | undefined => values?.map(id),
    /** Queues a change of kind `kind`. */
    queue<K extends KindName>(kind: K, payload: KindPayload<K>, options?: SubmitOptions): Queued {
      const result = outbox.write(kind, payload, options);
      return { entryId: result.entryId ?? null, ...(result.withdrawn ? { withdrawn: true as const } : {}) };
    },
    /** Queues a create under a fresh local id that `payload` is given. */
    create<K extends KindName>(kind: K, payload: (tempId: string) => KindPayload<K>): Created {
      const tempId = outbox.newTempId();
      return { id: tempId, entryId: outbox.write(kind, payload(tempId)).entryId ?? null };
    },
  };
}

/** The fields of `value` that are set: an absent field is left alone by an update (rule 8). */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * What an update replaced, for its undo: each field of `fields` whose value differs between the
 * cache's row before the write and after it, with the value before (exact, whatever the view
 * showed). Undefined when nothing changed or the item is not in the cache.
 */
export function replacedOf(
  before: Readonly<Record<string, unknown>> | null | undefined,
  after: Readonly<Record<string, unknown>> | null | undefined,
  fields: readonly string[],
): Record<string, unknown> | undefined {
  if (!before || !after) return undefined;
  const replaced: Record<string, unknown> = {};
  for (const field of fields) {
    const was = before[field] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(after[field] ?? null)) replaced[field] = was;
  }
  return Object.keys(replaced).length ? replaced : undefined;
}

/** A write's answer with what it replaced, when it replaced anything. */
export function withReplaced<Q extends Queued>(queued: Q, replaced: Record<string, unknown> | undefined) {
  return replaced ? { ...queued, replaced } : queued;
}
