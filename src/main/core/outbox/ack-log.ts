/**
 * What the outbox acknowledged recently, per entity and field, stamped with a sequence number.
 *
 * A fetch that started before an acknowledgement may answer the service's state from before
 * it; once the entry is done its claims are gone and rule 7 no longer protects the value. So a
 * fetch takes `mark()` before its first request and, when storing, asks `since(entity, id,
 * mark)` for what was acknowledged meanwhile: the cached values of those fields are newer than
 * the fetched ones.
 *
 * Kept in memory: a fetch does not outlive the process. Records are dropped after
 * `retentionMs`, far longer than any request may take.
 */
import { ACKED_ANY } from '../sync/pending';

export class AckLog {
  #seq = 0;
  readonly #entries = new Map<string, Map<string, { seq: number; at: number }>>();
  readonly #retentionMs: number;

  constructor(retentionMs = 60 * 60_000) {
    this.#retentionMs = retentionMs;
  }

  /** The current position: acknowledgements recorded after this answer to `since`. */
  mark(): number {
    return this.#seq;
  }

  record(entity: string, id: string, fields: Iterable<string>, now: number): void {
    this.#seq++;
    const key = `${entity}:${id}`;
    const slot = this.#entries.get(key) ?? new Map<string, { seq: number; at: number }>();
    for (const field of fields) slot.set(field, { seq: this.#seq, at: now });
    slot.set(ACKED_ANY, { seq: this.#seq, at: now });
    this.#entries.set(key, slot);
    if (this.#seq % 256 === 0) this.#prune(now);
  }

  /** Fields of the entity acknowledged after `mark` (`*`: created or deleted; `#`: anything). */
  since(entity: string, id: string, mark: number): ReadonlySet<string> {
    const slot = this.#entries.get(`${entity}:${id}`);
    const fields = new Set<string>();
    if (!slot) return fields;
    for (const [field, { seq }] of slot) if (seq > mark) fields.add(field);
    return fields;
  }

  #prune(now: number): void {
    for (const [key, slot] of this.#entries) {
      for (const [field, { at }] of slot) if (now - at > this.#retentionMs) slot.delete(field);
      if (!slot.size) this.#entries.delete(key);
    }
  }
}
