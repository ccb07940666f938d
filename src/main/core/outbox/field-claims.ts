import type { Db } from './types';

export interface FieldChange {
  /** The value the cache held before the change (the service's, as far as the cache knows). */
  readonly from: unknown;
  /** The local value. */
  readonly to: unknown;
}

export interface Conflict {
  readonly id: number;
  readonly entity: string;
  readonly entityId: string;
  readonly field: string;
  readonly localValue: unknown;
  readonly remoteValue: unknown;
  readonly detectedAt: number;
  readonly resolution: 'mine' | 'theirs' | null;
  /** Who changed it on the service (a user id), when the service says so. */
  readonly remoteBy: string | null;
  /** When it changed on the service (the service's timestamp), when the service says so. */
  readonly remoteAt: string | null;
}

/** Who changed an item on the service and when, as far as the service tells. */
export interface RemoteSource {
  readonly by?: string | null;
  readonly at?: string | null;
}

/**
 * The field of a journal entry about a whole item: a delete of it waits while the service holds
 * changes made since it was read (`remoteValue` holds the changed fields' values there).
 */
export const WHOLE_ITEM = '*';

interface ClaimRow {
  entity: string;
  entity_id: string;
  field: string;
  entry_id: number;
  base: string;
  value: string;
}

interface ConflictRow {
  id: number;
  entity: string;
  entity_id: string;
  field: string;
  local_value: string;
  remote_value: string;
  detected_at: number;
  resolution: 'mine' | 'theirs' | null;
  remote_by: string | null;
  remote_at: string | null;
}

/**
 * Which entity fields have a pending local change, and the service value each replaced (rule 7).
 * Several open entries may claim one field; the earliest claim holds the base, so rolling back
 * any of them never restores a value that was itself only local.
 */
export class FieldClaims {
  readonly #stmts;

  constructor(db: Db) {
    this.#stmts = {
      baseOf: db
        .prepare(
          `SELECT base FROM outbox_field_claims WHERE entity = ? AND entity_id = ? AND field = ?
         ORDER BY entry_id LIMIT 1`,
        )
        .pluck(),
      upsert: db.prepare(
        `INSERT INTO outbox_field_claims (entity, entity_id, field, entry_id, base, value) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET value = excluded.value`,
      ),
      localOf: db
        .prepare(
          `SELECT value FROM outbox_field_claims WHERE entity = ? AND entity_id = ? AND field = ?
         ORDER BY entry_id DESC LIMIT 1`,
        )
        .pluck(),
      holdsValue: db
        .prepare(
          `SELECT EXISTS (SELECT 1 FROM outbox_field_claims WHERE entity = ? AND entity_id = ? AND field = ? AND value = ?)`,
        )
        .pluck(),
      fieldsOf: db
        .prepare('SELECT DISTINCT field FROM outbox_field_claims WHERE entity = ? AND entity_id = ?')
        .pluck(),
      idsOf: db.prepare('SELECT DISTINCT entity_id FROM outbox_field_claims WHERE entity = ?').pluck(),
      ofEntry: db.prepare('SELECT * FROM outbox_field_claims WHERE entry_id = ?'),
      othersOnField: db
        .prepare(
          `SELECT count(*) FROM outbox_field_claims WHERE entity = ? AND entity_id = ? AND field = ? AND entry_id <> ?`,
        )
        .pluck(),
      passBase: db.prepare(
        `UPDATE outbox_field_claims SET base = ? WHERE entity = ? AND entity_id = ? AND field = ?`,
      ),
      dropEntry: db.prepare('DELETE FROM outbox_field_claims WHERE entry_id = ?'),
      moveEntry: db.prepare('UPDATE OR IGNORE outbox_field_claims SET entry_id = ? WHERE entry_id = ?'),
      // The later entry's local value wins on a field both claim (the merged entry sends it).
      moveValues: db.prepare(
        `UPDATE outbox_field_claims AS t SET value = l.value FROM outbox_field_claims AS l
         WHERE t.entry_id = ? AND l.entry_id = ? AND l.entity = t.entity AND l.entity_id = t.entity_id AND l.field = t.field`,
      ),
      before: db
        .prepare(
          `SELECT value FROM outbox_field_claims WHERE entity = ? AND entity_id = ? AND field = ? AND entry_id < ?
           ORDER BY entry_id DESC LIMIT 1`,
        )
        .pluck(),
    };
  }

  claim(entryId: number, entity: string, id: string, changes: Readonly<Record<string, FieldChange>>): void {
    for (const [field, change] of Object.entries(changes)) {
      const earlier = this.#stmts.baseOf.get(entity, id, field) as string | undefined;
      this.#stmts.upsert.run(entity, id, field, entryId, earlier ?? encode(change.from), encode(change.to));
    }
  }

  /** The local value of a claimed field: what the latest open entry set. */
  localOf(entity: string, id: string, field: string): { value: unknown } | undefined {
    const value = this.#stmts.localOf.get(entity, id, field) as string | undefined;
    return value === undefined ? undefined : { value: decode(value) };
  }

  /** True when an open entry of this client sets the field to `value`: the service showing it is that change landing. */
  holdsValue(entity: string, id: string, field: string, value: unknown): boolean {
    return this.#stmts.holdsValue.get(entity, id, field, encode(value)) === 1;
  }

  fieldsOf(entity: string, id: string): string[] {
    return this.#stmts.fieldsOf.all(entity, id) as string[];
  }

  /** Ids of the items of an entity with a pending change of some field. */
  idsOf(entity: string): string[] {
    return this.#stmts.idsOf.all(entity) as string[];
  }

  baseOf(entity: string, id: string, field: string): { value: unknown } | undefined {
    const base = this.#stmts.baseOf.get(entity, id, field) as string | undefined;
    return base === undefined ? undefined : { value: decode(base) };
  }

  /** The service now holds `value` for a claimed field: a later rollback restores that. */
  rebase(entity: string, id: string, field: string, value: unknown): void {
    this.#stmts.passBase.run(encode(value), entity, id, field);
  }

  /**
   * Drops the claims of one entry. Answers, per entity, the fields no other entry claims, with
   * their base values: the values a rollback writes back.
   */
  release(entryId: number): Map<string, { entity: string; id: string; values: Record<string, unknown> }> {
    const restore = new Map<string, { entity: string; id: string; values: Record<string, unknown> }>();
    for (const row of this.#stmts.ofEntry.all(entryId) as ClaimRow[]) {
      const others = this.#stmts.othersOnField.get(row.entity, row.entity_id, row.field, entryId) as number;
      if (others > 0) continue;
      const key = `${row.entity}:${row.entity_id}`;
      const slot = restore.get(key) ?? { entity: row.entity, id: row.entity_id, values: {} };
      slot.values[row.field] = decode(row.base);
      restore.set(key, slot);
    }
    this.#stmts.dropEntry.run(entryId);
    return restore;
  }

  /** The fields one entry claims. */
  ofEntry(entryId: number): { entity: string; id: string; field: string }[] {
    return (this.#stmts.ofEntry.all(entryId) as ClaimRow[]).map((r) => ({
      entity: r.entity,
      id: r.entity_id,
      field: r.field,
    }));
  }

  /**
   * Acknowledged: the entry's fields are the service's now, so a later entry on the same field
   * starts from this entry's value; a fetch that shows it is this client's own change, not a
   * conflict, and a rollback of the later entry restores it.
   */
  settle(entryId: number): void {
    for (const row of this.#stmts.ofEntry.all(entryId) as ClaimRow[])
      this.#stmts.passBase.run(row.value, row.entity, row.entity_id, row.field);
    this.#stmts.dropEntry.run(entryId);
  }

  /**
   * True when a later entry (`laterId`, just applied) puts every field an earlier one
   * (`earlierId`) changed back to the value it had before that entry, and changes nothing else:
   * together the two change nothing, so both can be withdrawn (an undo of a change not yet sent).
   * "Before" is the value of the latest entry older than `earlierId` on the field, else the base.
   */
  cancels(earlierId: number, laterId: number): boolean {
    const earlier = this.#stmts.ofEntry.all(earlierId) as ClaimRow[];
    const later = this.#stmts.ofEntry.all(laterId) as ClaimRow[];
    if (earlier.length === 0) return false;
    const own = new Map(earlier.map((r) => [`${r.entity}\u0000${r.entity_id}\u0000${r.field}`, r]));
    if (later.some((r) => !own.has(`${r.entity}\u0000${r.entity_id}\u0000${r.field}`))) return false;
    const latest = new Map(later.map((r) => [`${r.entity}\u0000${r.entity_id}\u0000${r.field}`, r.value]));
    return earlier.every((r) => {
      const key = `${r.entity}\u0000${r.entity_id}\u0000${r.field}`;
      const before =
        (this.#stmts.before.get(r.entity, r.entity_id, r.field, earlierId) as string | undefined) ?? r.base;
      return sameValue(decode(latest.get(key) ?? r.value), decode(before));
    });
  }

  /** A merged entry's claims move to the entry it was merged into (earlier bases win). */
  move(fromEntryId: number, toEntryId: number): void {
    this.#stmts.moveValues.run(toEntryId, fromEntryId);
    this.#stmts.moveEntry.run(toEntryId, fromEntryId);
    this.#stmts.dropEntry.run(fromEntryId);
  }
}

/** The conflict journal (rule 7): the service changed a field with a pending local change. */
export class ConflictJournal {
  readonly #stmts;

  constructor(db: Db) {
    this.#stmts = {
      record: db.prepare(
        `INSERT INTO outbox_conflicts (entity, entity_id, field, local_value, remote_value, detected_at, remote_by, remote_at)
         VALUES (@entity, @id, @field, @local, @remote, @now, @by, @at)
         ON CONFLICT (entity, entity_id, field) WHERE resolution IS NULL
         DO UPDATE SET local_value = @local, remote_value = @remote, detected_at = @now, remote_by = @by, remote_at = @at`,
      ),
      openOn: db.prepare(
        'SELECT * FROM outbox_conflicts WHERE resolution IS NULL AND entity = ? AND entity_id = ? AND field = ?',
      ),
      lastResolved: db.prepare(
        `SELECT * FROM outbox_conflicts WHERE resolution = ? AND entity = ? AND entity_id = ? AND field = ?
         ORDER BY id DESC LIMIT 1`,
      ),
      list: db.prepare('SELECT * FROM outbox_conflicts WHERE resolution IS NULL ORDER BY detected_at, id'),
      openCount: db.prepare('SELECT count(*) FROM outbox_conflicts WHERE resolution IS NULL').pluck(),
      listAll: db.prepare('SELECT * FROM outbox_conflicts ORDER BY detected_at, id'),
      get: db.prepare('SELECT * FROM outbox_conflicts WHERE id = ?'),
      resolve: db.prepare('UPDATE outbox_conflicts SET resolution = ?, resolved_at = ? WHERE id = ?'),
    };
  }

  record(
    entity: string,
    id: string,
    field: string,
    local: unknown,
    remote: unknown,
    now: number,
    source: RemoteSource = {},
  ): void {
    this.#stmts.record.run({
      entity,
      id,
      field,
      local: encode(local),
      remote: encode(remote),
      now,
      by: source.by ?? null,
      at: source.at ?? null,
    });
  }

  /** The unresolved conflict on one field of an item, if any. */
  openOn(entity: string, id: string, field: string): Conflict | undefined {
    const row = this.#stmts.openOn.get(entity, id, field) as ConflictRow | undefined;
    return row && toConflict(row);
  }

  /** The latest conflict on a field the user resolved with `resolution`. */
  lastResolved(
    entity: string,
    id: string,
    field: string,
    resolution: 'mine' | 'theirs',
  ): Conflict | undefined {
    const row = this.#stmts.lastResolved.get(resolution, entity, id, field) as ConflictRow | undefined;
    return row && toConflict(row);
  }

  openCount(): number {
    return this.#stmts.openCount.get() as number;
  }

  list(includeResolved = false): Conflict[] {
    const rows = (includeResolved ? this.#stmts.listAll : this.#stmts.list).all() as ConflictRow[];
    return rows.map(toConflict);
  }

  get(id: number): Conflict | undefined {
    const row = this.#stmts.get.get(id) as ConflictRow | undefined;
    return row && toConflict(row);
  }

  markResolved(id: number, resolution: 'mine' | 'theirs', now: number): void {
    this.#stmts.resolve.run(resolution, now, id);
  }
}

function toConflict(row: ConflictRow): Conflict {
  return {
    id: row.id,
    entity: row.entity,
    entityId: row.entity_id,
    field: row.field,
    localValue: decode(row.local_value),
    remoteValue: decode(row.remote_value),
    detectedAt: row.detected_at,
    resolution: row.resolution,
    remoteBy: row.remote_by ?? null,
    remoteAt: row.remote_at ?? null,
  };
}

function encode(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value);
}

function decode(text: string): unknown {
  return JSON.parse(text) as unknown;
}

/** Structural equality of JSON values (field values of the cache), key order aside. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}
