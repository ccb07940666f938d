import { LOCAL_ROW_PREFIX } from '../local-ids';
import type { Db, EntryState, OutboxEntry, StructuralEntry } from './types';

interface EntryRow {
  id: number;
  kind: string;
  entity_key: string;
  payload: string;
  undo: string | null;
  state: EntryState;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  error_type: string | null;
  error_message: string | null;
  created_temp_id: string | null;
  created_at: number;
  updated_at: number;
  fold_failures: number;
  answered_at: number | null;
}

export interface NewEntry {
  kind: string;
  keys: readonly string[];
  payload: unknown;
  createdTempId: string | null;
  now: number;
}

export interface EntryCounts {
  pending: number;
  inFlight: number;
  failed: number;
  stuck: number;
}

/**
 * The entries table behind prepared statements. Every method is synchronous and expects the
 * caller to hold a transaction when it does more than one write.
 */
export class EntryStore {
  readonly #db: Db;
  readonly #stmts;

  constructor(db: Db) {
    this.#db = db;
    this.#stmts = {
      insert: db.prepare(
        `INSERT INTO outbox_entries (kind, entity_key, payload, state, next_attempt_at, created_temp_id, created_at, updated_at)
         VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)`,
      ),
      insertKey: db.prepare('INSERT OR IGNORE INTO outbox_entry_keys (key, entry_id) VALUES (?, ?)'),
      keysOf: db.prepare('SELECT key FROM outbox_entry_keys WHERE entry_id = ?').pluck(),
      get: db.prepare('SELECT * FROM outbox_entries WHERE id = ?'),
      setPayload: db.prepare('UPDATE outbox_entries SET payload = ?, undo = ?, updated_at = ? WHERE id = ?'),
      lastOpenOnKey: db
        .prepare(
          `SELECT max(k.entry_id) FROM outbox_entry_keys k JOIN outbox_entries e ON e.id = k.entry_id
         WHERE k.key = ? AND k.entry_id < ? AND e.state <> 'done'`,
        )
        .pluck(),
      ready: db.prepare(
        `SELECT e.* FROM outbox_entries e
         WHERE e.state IN ('pending', 'in_flight') AND e.next_attempt_at <= ?
           AND NOT EXISTS (
             SELECT 1 FROM outbox_entry_keys k1
             JOIN outbox_entry_keys k2 ON k2.key = k1.key AND k2.entry_id < k1.entry_id
             WHERE k1.entry_id = e.id)
         ORDER BY e.id LIMIT ?`,
      ),
      earliest: db
        .prepare(
          `SELECT min(next_attempt_at) FROM outbox_entries WHERE state IN ('pending', 'in_flight') AND next_attempt_at > ?`,
        )
        .pluck(),
      markSending: db.prepare(
        `UPDATE outbox_entries SET state = 'in_flight', attempts = attempts + 1, sent_at = ?, next_attempt_at = ?,
         updated_at = ? WHERE id = ?`,
      ),
      markDone: db.prepare(
        `UPDATE outbox_entries SET state = 'done', error_type = NULL, error_message = NULL, updated_at = ? WHERE id = ?`,
      ),
      dropKeys: db.prepare('DELETE FROM outbox_entry_keys WHERE entry_id = ?'),
      reschedule: db.prepare(
        `UPDATE outbox_entries SET state = ?, next_attempt_at = ?, error_type = ?, error_message = ?, updated_at = ?,
         attempts = coalesce(?, attempts) WHERE id = ? AND state IN ('pending', 'in_flight')`,
      ),
      markFailed: db.prepare(
        `UPDATE outbox_entries SET state = 'failed', error_type = ?, error_message = ?, updated_at = ?
         WHERE id = ? AND state IN ('pending', 'in_flight')`,
      ),
      foldFailed: db.prepare(
        `UPDATE outbox_entries SET state = ?, next_attempt_at = ?, error_type = ?, error_message = ?, updated_at = ?,
         attempts = ?, fold_failures = fold_failures + 1, answered_at = coalesce(answered_at, ?)
         WHERE id = ? AND state IN ('pending', 'in_flight')`,
      ),
      markStuck: db.prepare(
        `UPDATE outbox_entries SET state = 'stuck', error_type = ?, error_message = ?, updated_at = ?
         WHERE id = ? AND state IN ('pending', 'in_flight')`,
      ),
      unstick: db.prepare(
        `UPDATE outbox_entries SET state = 'in_flight', attempts = 0, fold_failures = 0, next_attempt_at = ?,
         updated_at = ? WHERE id = ? AND state = 'stuck'`,
      ),
      requeue: db.prepare(
        `UPDATE outbox_entries SET state = 'pending', attempts = 0, next_attempt_at = ?, error_type = NULL,
         error_message = NULL, updated_at = ? WHERE id = ?`,
      ),
      delete: db.prepare('DELETE FROM outbox_entries WHERE id = ?'),
      // Asked after every change of an entry (the status bar): counting the open entries' index
      // by group is about a third of the cost of summing a test per row.
      counts: db.prepare(
        `SELECT state, count(*) AS n FROM outbox_entries WHERE state <> 'done' GROUP BY state`,
      ),
      listOpen: db.prepare(`SELECT * FROM outbox_entries WHERE state <> 'done' ORDER BY id`),
      listState: db.prepare(`SELECT * FROM outbox_entries WHERE state = ? ORDER BY id`),
      // A held entry waits for the user, not for a time: neither a reconnect nor a start-up sends it;
      // nor do they cut an undo window short.
      dueNow: db.prepare(
        `UPDATE outbox_entries SET next_attempt_at = ? WHERE state IN ('pending', 'in_flight') AND next_attempt_at > ?
         AND error_type IS NOT 'held' AND error_type IS NOT '${UNDO_WINDOW}'`,
      ),
      notBefore: db.prepare(
        `UPDATE outbox_entries SET next_attempt_at = max(next_attempt_at, ?), error_type = '${UNDO_WINDOW}',
         error_message = 'Waits a few seconds so it can be undone' WHERE id = ? AND state = 'pending'`,
      ),
      release: db.prepare(
        `UPDATE outbox_entries SET next_attempt_at = ?, error_type = NULL, error_message = NULL, updated_at = ?
         WHERE id = ? AND state IN ('pending', 'in_flight') AND error_type = 'held'`,
      ),
      openOnKey: db.prepare(
        `SELECT e.* FROM outbox_entries e JOIN outbox_entry_keys k ON k.entry_id = e.id
         WHERE k.key = ? AND e.state <> 'done' ORDER BY e.id`,
      ),
      // Asked for every list sync stores: `state <> 'done'` lets it search the open entries'
      // index instead of scanning every entry kept.
      unfolded: db.prepare(
        `SELECT * FROM outbox_entries WHERE kind = ? AND state <> 'done'
         AND answered_at IS NOT NULL AND state IN ('in_flight', 'stuck') ORDER BY id`,
      ),
      // The open entries that can make an item structural (see `Outbox.pendingStructuralAmong`):
      // creates, and the kinds that delete something. A backlog of edits is not read.
      openStructural: db.prepare(
        `SELECT id, kind, entity_key, created_temp_id, payload FROM outbox_entries WHERE state <> 'done'
         AND (created_temp_id IS NOT NULL OR kind IN (SELECT value FROM json_each(?))) ORDER BY id`,
      ),
      structural: db
        .prepare(
          `SELECT EXISTS (SELECT 1 FROM outbox_entries WHERE state <> 'done' AND (
           created_temp_id = @id
           OR (entity_key = @key AND kind IN (SELECT value FROM json_each(@kinds)))
           OR (@draft AND instr(payload, json_quote(@id)) > 0)))`,
        )
        .pluck(),
      // Walks each chain forward from every refused or stuck entry, one step to the next open
      // entry on each of its keys (keys rows exist only for open entries), so a chain of n
      // entries costs n look-ups, not n²; the oldest holder wins.
      holders: db.prepare(
        `WITH RECURSIVE held (id, holder) AS (
           SELECT id, id FROM outbox_entries WHERE state IN ('failed', 'stuck') OR error_type = 'held'
           UNION
           SELECT next.entry_id, held.holder FROM held
           JOIN outbox_entry_keys k ON k.entry_id = held.id
           JOIN outbox_entry_keys next ON next.key = k.key AND next.entry_id = (
             SELECT min(n.entry_id) FROM outbox_entry_keys n WHERE n.key = k.key AND n.entry_id > held.id))
         SELECT id, min(holder) AS holder FROM held WHERE id <> holder GROUP BY id`,
      ),
      pruneDone: db.prepare(`DELETE FROM outbox_entries WHERE state = 'done' AND updated_at < ?`),
    };
  }

  /**
   * Runs `write` (one statement or one transaction) with a commit that does not wait for the
   * outbox file's log to reach the disk (`synchronous=NORMAL` for that commit; the file's own
   * setting, FULL, is put back after it). In WAL mode such a commit survives a crash of the
   * process (it is in the operating system's hands) and only a power cut or a crash of the
   * machine can lose it; the next synced commit puts it on disk with its own, as the log is
   * one file written in order. Which writes may be so is the outbox's rule 6 on the disk
   * (README, "Rule 6 and the disk"). Inside a transaction `write` just runs: the transaction's
   * commit decides (SQLite refuses to change the setting inside one).
   */
  unsynced<T>(write: () => T): T {
    // Through `pragma` each time, never a prepared statement: SQLite applies a PRAGMA setting,
    // and reads it for a query, when the statement is prepared, not when it runs.
    if (this.#db.inTransaction) return write();
    const level = this.#db.pragma('main.synchronous', { simple: true }) as number;
    if (level <= SYNC_NORMAL) return write();
    this.#db.exec(`PRAGMA main.synchronous = ${SYNC_NORMAL}`);
    try {
      return write();
    } finally {
      this.#db.exec(`PRAGMA main.synchronous = ${level}`);
    }
  }

  insert(entry: NewEntry): number {
    const s = this.#stmts;
    const id = Number(
      s.insert.run(
        entry.kind,
        entry.keys[0] ?? '',
        JSON.stringify(entry.payload),
        entry.now,
        entry.createdTempId,
        entry.now,
        entry.now,
      ).lastInsertRowid,
    );
    for (const key of entry.keys) s.insertKey.run(key, id);
    return id;
  }

  /** Puts an entry in more chains (keys learnt while applying it). */
  addKeys(id: number, keys: readonly string[]): void {
    for (const key of keys) this.#stmts.insertKey.run(key, id);
  }

  get(id: number): OutboxEntry | undefined {
    const row = this.#stmts.get.get(id) as EntryRow | undefined;
    return row && this.#toEntry(row);
  }

  setPayload(id: number, payload: unknown, undo: unknown, now: number): void {
    this.#stmts.setPayload.run(
      JSON.stringify(payload),
      undo === undefined ? null : JSON.stringify(undo),
      now,
      id,
    );
  }

  /** The id of the last open entry on `key` before entry `before`, if any. */
  lastOpenBefore(key: string, before: number): number | undefined {
    const id = this.#stmts.lastOpenOnKey.get(key, before) as number | null;
    return id ?? undefined;
  }

  /** Open entries on `key`, oldest first. */
  openOn(key: string): OutboxEntry[] {
    return (this.#stmts.openOnKey.all(key) as EntryRow[]).map((r) => this.#toEntry(r));
  }

  /** Open entries of `kind` the service answered as applied whose answer has not folded. */
  unfolded(kind: string): OutboxEntry[] {
    return (this.#stmts.unfolded.all(kind) as EntryRow[]).map((r) => this.#toEntry(r));
  }

  /** Entries whose time has come and that no earlier open entry on a shared key holds back. */
  ready(now: number, limit: number): OutboxEntry[] {
    return (this.#stmts.ready.all(now, limit) as EntryRow[]).map((r) => this.#toEntry(r));
  }

  /** The next time a waiting entry comes due, after `now` (entries due already wait on others). */
  earliestAttemptAfter(now: number): number | undefined {
    return (this.#stmts.earliest.get(now) as number | null) ?? undefined;
  }

  /**
   * Marks an entry "sent, outcome unknown" before its request leaves (rule 6). Its next attempt
   * is pushed out by `guardMs` so only a restart (which makes everything due) or a settled
   * answer brings it back; the request has its own timeout well inside that.
   */
  markSending(id: number, now: number, guardMs: number): void {
    this.#stmts.markSending.run(now, now + guardMs, now, id);
  }

  markDone(id: number, now: number): void {
    this.#stmts.markDone.run(now, id);
    // Keys only order open entries; a done entry holds nothing back.
    this.#stmts.dropKeys.run(id);
  }

  /**
   * Sets when an open entry is tried next; `attempts`, when given, is the count of attempts so
   * far. A done or failed entry is left as it is: answers false.
   */
  reschedule(
    id: number,
    state: 'pending' | 'in_flight',
    nextAttemptAt: number,
    errorType: string,
    message: string,
    now: number,
    attempts?: number,
  ): boolean {
    return (
      this.#stmts.reschedule.run(state, nextAttemptAt, errorType, message, now, attempts ?? null, id)
        .changes > 0
    );
  }

  /** Marks an open entry rejected; a done or failed one is left as it is: answers false. */
  markFailed(id: number, errorType: string, message: string, now: number): boolean {
    return this.#stmts.markFailed.run(errorType, message, now, id).changes > 0;
  }

  /**
   * An acknowledged answer of an open entry failed to fold: counts the failure and marks that the
   * service holds the change; the entry stays `in_flight` until `nextAttemptAt`, or leaves
   * automatic retry as `stuck` when `stuck` is true. A done entry is left as it is: answers false.
   */
  foldFailed(
    id: number,
    failure: { message: string; attempts: number; nextAttemptAt: number; stuck: boolean },
    now: number,
  ): boolean {
    const state = failure.stuck ? 'stuck' : 'in_flight';
    return (
      this.#stmts.foldFailed.run(
        state,
        failure.nextAttemptAt,
        'fold-failed',
        failure.message,
        now,
        failure.attempts,
        now,
        id,
      ).changes > 0
    );
  }

  /** Takes an open entry out of automatic retry; a done or failed one is left: answers false. */
  markStuck(id: number, errorType: string, message: string, now: number): boolean {
    return this.#stmts.markStuck.run(errorType, message, now, id).changes > 0;
  }

  /**
   * Gives a stuck entry back to automatic retry, due now, its counts reset; it stays "outcome
   * known applied" (`answeredAt`), so its next attempt looks it up or resends an idempotent
   * request, never a create. Answers false when the entry is not stuck.
   */
  unstick(id: number, now: number): boolean {
    return this.#stmts.unstick.run(now, now, id).changes > 0;
  }

  /**
   * Keeps a waiting entry from sending before `at` (ms): the time an undo has to withdraw it.
   * Marked `undo-window`, so neither a reconnect nor a start-up makes it due earlier.
   */
  notBefore(id: number, at: number): void {
    this.#stmts.notBefore.run(at, id);
  }

  requeue(id: number, now: number): void {
    this.#stmts.requeue.run(now, now, id);
  }

  delete(id: number): void {
    this.#stmts.delete.run(id);
  }

  counts(): EntryCounts {
    const counts: EntryCounts = { pending: 0, inFlight: 0, failed: 0, stuck: 0 };
    for (const { state, n } of this.#stmts.counts.all() as { state: EntryState; n: number }[]) {
      if (state === 'in_flight') counts.inFlight = n;
      else if (state !== 'done') counts[state] = n;
    }
    return counts;
  }

  /**
   * The open entries that are creates or of one of `kinds` (a JSON array of kind names), with only
   * what tells which items they create or remove: the payload (parsed) and the keys are read only
   * for the kinds in `withPayload`, so a backlog of creates costs one row each.
   */
  openStructural(kinds: string, withPayload: ReadonlySet<string>): StructuralEntry[] {
    const rows = this.#stmts.openStructural.all(kinds) as Pick<
      EntryRow,
      'id' | 'kind' | 'entity_key' | 'created_temp_id' | 'payload'
    >[];
    return rows.map((row) => {
      const entry: StructuralEntry = {
        kind: row.kind,
        entityKey: row.entity_key,
        createdTempId: row.created_temp_id,
      };
      if (withPayload.has(row.kind)) {
        entry.payload = JSON.parse(row.payload) as unknown;
        entry.keys = [row.entity_key, ...(this.#stmts.keysOf.all(row.id) as string[])];
      }
      return entry;
    });
  }

  list(state?: EntryState): OutboxEntry[] {
    const rows = (state ? this.#stmts.listState.all(state) : this.#stmts.listOpen.all()) as EntryRow[];
    return rows.map((r) => this.#toEntry(r));
  }

  /**
   * Holds an open entry until the user decides (rule 7: the service changed what it would
   * overwrite, and the policy asks): it keeps its state and its optimistic change, stops its
   * chain, and no retry, reconnect or start-up sends it; `release` does.
   */
  hold(id: number, state: 'pending' | 'in_flight', message: string, now: number): boolean {
    return this.reschedule(id, state, HELD_UNTIL, 'held', message, now);
  }

  /** A held entry is due now; false when it was not held. */
  release(id: number, now: number): boolean {
    return this.#stmts.release.run(now, now, id).changes > 0;
  }

  /** Makes every waiting retry due now (reconnect, start-up, new token). */
  allDueNow(now: number): void {
    this.#stmts.dueNow.run(now, now);
  }

  /** See `Outbox.isPendingStructural`. */
  isStructural(key: string, id: string, deleteKinds: readonly string[]): boolean {
    return (
      this.#stmts.structural.get({
        id,
        key,
        kinds: JSON.stringify(deleteKinds),
        draft: id.startsWith(LOCAL_ROW_PREFIX) ? 1 : 0,
      }) === 1
    );
  }

  /**
   * For every open entry held back by a refused or stuck one (directly, or behind entries it
   * holds), the id of the oldest such holder: what it waits for until the user acts (rule 2).
   */
  holders(): Map<number, number> {
    const rows = this.#stmts.holders.all() as { id: number; holder: number }[];
    return new Map(rows.map((r) => [r.id, r.holder]));
  }

  pruneDone(before: number): void {
    this.#stmts.pruneDone.run(before);
  }

  get db(): Db {
    return this.#db;
  }

  #toEntry(row: EntryRow): OutboxEntry {
    const others = (this.#stmts.keysOf.all(row.id) as string[]).filter((k) => k !== row.entity_key);
    return {
      id: row.id,
      kind: row.kind,
      entityKey: row.entity_key,
      keys: [row.entity_key, ...others],
      payload: JSON.parse(row.payload) as unknown,
      undo: row.undo === null ? undefined : (JSON.parse(row.undo) as unknown),
      state: row.state,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      sentAt: row.sent_at,
      errorType: row.error_type,
      errorMessage: row.error_message,
      createdTempId: row.created_temp_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      foldFailures: row.fold_failures,
      answeredAt: row.answered_at,
    };
  }
}

/** SQLite's `synchronous` levels: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const SYNC_NORMAL = 1;

/** The next attempt of a held entry: never, until it is released (a date far beyond any clock). */
export const HELD_UNTIL = 8_640_000_000_000_000;

/** The error type of an entry in its undo window (`EntryStore.notBefore`): waiting, not failing. */
export const UNDO_WINDOW = 'undo-window';
