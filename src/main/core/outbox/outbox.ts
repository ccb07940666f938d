import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import { describeZodError } from '../../../shared/errors';
import { ACKED_ITEM } from '../sync/pending';
import { AckLog } from './ack-log';
import { backoffDelay, defaultBackoff, type BackoffPolicy } from './backoff';
import {
  ConflictJournal,
  FieldClaims,
  sameValue,
  WHOLE_ITEM,
  type Conflict,
  type FieldChange,
  type RemoteSource,
} from './field-claims';
import { Listeners } from '../listeners';
import { EntryStore } from './store';
import { LOCAL_ROW_PREFIX, isTempId, makeLocalRowId, makeTempId, tempIdsIn } from '../local-ids';
import { TempIdMap } from './temp-ids';
import type {
  ApplyContext,
  Classifier,
  Clock,
  Db,
  EntryState,
  OperationKind,
  OutboxEntry,
  RollbackContext,
  Timers,
} from './types';
import type { IdRemap } from '../../../shared/ipc/events';

/** A kind with its payload and result types erased; every payload goes through its `parse`. */
export type ErasedKind<C> = OperationKind<unknown, unknown, C>;

/**
 * What a change gets when the service changed a field it is about to write since the value it
 * replaced: `mine` sends it (the journal keeps the other value, the user can take it back),
 * `ask` holds it until the user decides. A delete of an item changed since it was read is held
 * whatever the policy.
 */
export type ConflictPolicy = 'mine' | 'ask';

/** An item as the service holds it now, in the API's field names, for the check before a send. */
export interface ServiceItem {
  readonly values: Readonly<Record<string, unknown>>;
  readonly source: RemoteSource;
}

/**
 * Rule 7 before a send (see README, "The check before a send"): how the outbox learns what the
 * service holds now for the items an update, custom-field change or delete is about to write.
 */
export interface PreSendCheck<C> {
  /**
   * The item as the service holds it now; null when the service no longer has it; undefined for
   * an entity this check does not read (its changes go unchecked).
   */
  read(client: C, entity: string, id: string): Promise<ServiceItem | null | undefined>;
  /**
   * Several items of one entity in one request, when `id` is due for a read and the items in
   * `along` (ids with pending changes, none read within `freshMs`) wait for one too: a task's
   * project list instead of a read per task. Answers the items it found, by id (one missing is
   * not known to be gone: it is read on its own when its turn comes), or undefined when one
   * request would not pay (then `id` is read alone).
   */
  readAlong?(
    client: C,
    entity: string,
    id: string,
    along: readonly string[],
  ): Promise<ReadonlyMap<string, ServiceItem> | undefined>;
  policy(): ConflictPolicy;
  /**
   * An item whose values were read from the service (by a pull, a fetch or this check) this
   * recently is not read again before a send (ms).
   */
  freshMs: number;
}

/**
 * Default of `PreSendCheck.freshMs`: a burst of edits, or an edit right after the item was
 * fetched, is sent without a read; anything older is read first.
 */
export const DEFAULT_FRESH_MS = 10_000;

export interface OutboxOptions<C> {
  db: Db;
  /** What kinds send with (the service client). */
  client: C;
  /**
   * What kinds with a look-up (creates) send with, default `client`: one that waits for an
   * answer far longer than `client` does. Rule 6 has no idempotency key, so a look-up that runs
   * while the service still holds the create finds nothing and the create is sent twice (seen
   * with the service held several timeouts); while the request is open, its answer is awaited instead, and no look-up runs.
   */
  sendClient?: C;
  kinds: readonly ErasedKind<C>[];
  classify: Classifier;
  clock?: Clock;
  timers?: Timers;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Source of the unique part of temp ids. */
  newId?: () => string;
  /** Requests in flight at once, across entities (rule 2). */
  concurrency?: number;
  backoff?: BackoffPolicy;
  /** Replay also runs on this period, whatever else happens (rule 3). */
  tickMs?: number;
  /**
   * Rewrites a temp id to the real one in the cache tables; runs in the acknowledging
   * transaction. Answers the tables whose rows referring to the item it rewrote (besides the
   * item's own), which `onDidChangeCache` names with the acknowledgement's keys.
   */
  remapCache?: (tempId: string, realId: string) => readonly string[];
  /**
   * "Take theirs" for one field: puts the service's value back in the cache and queues what
   * makes the service hold it again, on `queue` (this outbox); called in a transaction, per
   * entity type.
   */
  takeTheirs?: (
    entity: string,
    id: string,
    field: string,
    value: unknown,
    queue: Pick<Outbox<C>, 'submit' | 'newLocalRowId'>,
  ) => void;
  log?: (message: string) => void;
  /** The check before a send (rule 7); without it changes are sent unchecked. */
  check?: PreSendCheck<C>;
  /**
   * A request of an attempt failed (before the failure is handled): the engine tells sync, so a
   * refused connection shows Offline at once. `onSent`: a change was acknowledged.
   */
  onRequestFailure?: (err: unknown) => void;
  onSent?: () => void;
  /** "Take theirs" on a held delete kept the item: fetch the service's version of it. */
  onItemKept?: (entity: string, id: string) => void;
  /**
   * How long after a send, and after its request ended without an answer, a look-up may run:
   * until then the request may still be on its way to the service or being processed, and a
   * look-up that finds nothing would send the change twice (rule 6).
   */
  lookUpDelayMs?: number;
  /** Failed folds after which an acknowledged entry needs attention (default `MAX_FOLD_FAILURES`). */
  maxFoldFailures?: number;
  /**
   * How long an entry whose kind asks to be held for undo (`Applied.holdForUndo`, a task delete)
   * waits before it is sent (ms). Default 0, none: the app passes `TASK_DELETE_HOLD_MS`
   * (`accounts/host-session.ts`), so test harnesses that drain at once are not slowed.
   */
  undoHoldMs?: number;
}

export type PauseReason = 'token-needed';

export interface OutboxStatus {
  /** Entries waiting to be sent or whose outcome is not known yet. */
  pending: number;
  /** Of those, requests under way or sent with no answer. */
  inFlight: number;
  /** Entries the service rejected, waiting for the user. */
  failed: number;
  /** Entries the service applied whose answer never folded: out of automatic retry, waiting for the user. */
  stuck: number;
  /** Unresolved conflicts in the journal. */
  conflicts: number;
  paused: PauseReason | null;
  /** When a change was last acknowledged by the service (ms), since start-up; null before. */
  lastSentAt: number | null;
}

export interface SubmitResult {
  /** The entry holding the change; undefined when the change was a no-op. */
  entryId: number | undefined;
  /** True when the change joined an earlier unsent entry of the same entity. */
  merged: boolean;
  /**
   * True when the change put back what an earlier unsent entry changed (an undo): that entry
   * was withdrawn with its claims and nothing is sent for either.
   */
  withdrawn?: boolean;
}

export interface SubmitOptions {
  /**
   * The change takes back an earlier one (an undo): when that one still waits, and the two
   * together change nothing, both are withdrawn even when they are of two kinds (a tag added,
   * then removed). Changes of one kind that put every field back are withdrawn either way.
   */
  undo?: boolean;
}

export class OutboxError extends Error {
  constructor(
    readonly type: 'not-found' | 'invalid-argument' | 'conflict',
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Thrown by a `send` made of several requests once its write was answered: what failed came
 * after (e.g. the look-up of the new item's id), so the write must not be sent again. The entry
 * stays "outcome unknown" and its next attempt only looks the item up (rule 6).
 */
export class AppliedError extends Error {
  constructor(cause: unknown) {
    super(messageOf(cause), { cause });
  }
}

/** Runs the part of a `send` that follows its answered write; its failures are `AppliedError`s. */
export async function afterApplied<R>(rest: () => Promise<R>): Promise<R> {
  try {
    return await rest();
  } catch (err) {
    throw new AppliedError(err);
  }
}

/** What `reload` settled: the item to fetch again, `id` null when its real id is unknown (a create). */
export interface Reloaded {
  entity: string;
  id: string | null;
}

/**
 * The step of an attempt: looking an earlier request up, checking what the service holds now
 * (rule 7), preparing the send, sending.
 */
type Phase = 'lookup' | 'check' | 'prepare' | 'send';

const SEND_GUARD_MS = 10 * 60_000;
const DONE_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Failed folds of an acknowledged answer after which the entry leaves automatic retry and needs
 * the user's attention (`stuck`). A fold fails on our side (a cache constraint, a bug, a remap
 * that cannot apply): a passing cause (a disk error) clears within a few tries, which the backoff
 * spreads over half a minute or so; an answer that failed five times fails the same way every
 * time, and each retry costs the service a look-up (a create's lists the whole project), so
 * retrying it forever helps no one and tells the user nothing.
 */
export const MAX_FOLD_FAILURES = 5;

/**
 * The durable outbox: every local write is an entry stored with its optimistic change in one
 * transaction, replayed in order per entity, in parallel across entities, retried by class of
 * failure, and folded back into the cache when acknowledged. See DESIGN.md rules 1-8.
 */
export class Outbox<C> {
  readonly #db: Db;
  readonly #client: C;
  readonly #sendClient: C;
  readonly #kinds = new Map<string, ErasedKind<C>>();
  readonly #structuralKinds: string[] = [];
  /** The kinds that delete or remove something, as a JSON array (for the store's query). */
  readonly #removingKinds: string;
  /** The kinds whose payload names more items they remove (`removesAlso`). */
  readonly #alsoRemovingKinds: ReadonlySet<string>;
  readonly #classify: Classifier;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #random: () => number;
  readonly #newId: () => string;
  readonly #concurrency: number;
  readonly #backoff: BackoffPolicy;
  readonly #tickMs: number;
  readonly #remapCache: (tempId: string, realId: string) => readonly string[];
  readonly #takeTheirs: OutboxOptions<C>['takeTheirs'];
  readonly #log: (message: string) => void;
  readonly #lookUpDelayMs: number;
  readonly #undoHoldMs: number;
  readonly #maxFoldFailures: number;
  readonly #check: PreSendCheck<C> | undefined;
  readonly #onItemKept: ((entity: string, id: string) => void) | undefined;
  readonly #onRequestFailure: ((err: unknown) => void) | undefined;
  readonly #onSent: (() => void) | undefined;
  #lastSentAt: number | null = null;
  /**
   * When the service's values of an item (`entity:id`) were last read here: by a pull or fetch
   * (`noteSeen`) or by the check before a send. In memory: after a restart every item is read
   * before its first checked send.
   */
  readonly #seen = new Map<string, number>();
  /** The size of `#seen` at which its stale reads are next swept out (see `noteSeen`). */
  #seenPruneAt = SEEN_LIMIT;
  /**
   * Whole lists of items a pull read at once (`noteSeenAll`: a project's tasks met as stored),
   * oldest first, each with when it was read: one entry per list, not a key per item, so noting
   * 20,000 tasks costs nothing per task. The check before a send looks them up (a set made on
   * its first look); a list older than `freshMs` is dropped when the next one is noted.
   */
  readonly #seenLists: { entity: string; ids: readonly string[]; at: number; set?: Set<string> }[] = [];
  /**
   * Reads of several items at once (`PreSendCheck.readAlong`) under way, by item key: the first
   * send of an item among them waits for that read instead of making its own.
   */
  readonly #readingAlong = new Map<string, { startedAt: number; done: Promise<unknown> }>();
  /**
   * When the check's last read of an item began (its own, or one along with other items), by
   * `entity:id`: a retry needs a read begun once it was due again (see `#readCovers`).
   */
  readonly #checkedAt = new Map<string, number>();
  /**
   * When replay last (re)started or the network came back: every waiting entry is due again from
   * then, whatever its stored due time (a run stopped after its check leaves that time behind).
   */
  #dueAgainAt = 0;

  readonly store: EntryStore;
  readonly ids: TempIdMap;
  readonly claims: FieldClaims;
  readonly conflicts: ConflictJournal;
  /** Recent acknowledgements, for fetches that began before them (see `ackedSince`). */
  readonly acks = new AckLog();

  readonly #running = new Map<number, Promise<void>>();
  /**
   * When the last request of an entry with a look-up ended without an answer (its connection
   * failed, or the send client gave up), by entry id: the look-up gives the service
   * `lookUpDelayMs` from then, not only from the send. In memory: after a restart no request of
   * this process is open, and the stored send time is all there is.
   */
  readonly #endedAt = new Map<number, number>();
  readonly #statusListeners: Listeners<[status: OutboxStatus]>;
  readonly #cacheListeners: Listeners<[keys: readonly string[], tables: readonly string[]]>;
  readonly #remapListeners: Listeners<[remap: IdRemap]>;
  #paused: PauseReason | null = null;
  #started = false;
  #stopped = false;
  #timer: unknown;

  constructor(options: OutboxOptions<C>) {
    this.#db = options.db;
    this.#client = options.client;
    this.#sendClient = options.sendClient ?? options.client;
    for (const kind of options.kinds) {
      if (this.#kinds.has(kind.name)) throw new Error(`Two operation kinds named "${kind.name}"`);
      this.#kinds.set(kind.name, kind);
      if (kind.deletes) this.#structuralKinds.push(kind.name);
    }
    this.#removingKinds = JSON.stringify(
      options.kinds.filter((kind) => kind.deletes || kind.removesAlso).map((kind) => kind.name),
    );
    this.#alsoRemovingKinds = new Set(
      options.kinds.filter((kind) => kind.removesAlso).map((kind) => kind.name),
    );
    this.#classify = options.classify;
    this.#clock = options.clock ?? { now: () => Date.now() };
    this.#timers = options.timers ?? {
      set: (fn, ms) => setTimeout(fn, ms),
      clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    this.#random = options.random ?? Math.random;
    this.#newId = options.newId ?? randomUUID;
    this.#concurrency = Math.max(1, options.concurrency ?? 6);
    this.#backoff = options.backoff ?? defaultBackoff;
    this.#tickMs = options.tickMs ?? 30_000;
    this.#remapCache = options.remapCache ?? (() => []);
    this.#takeTheirs = options.takeTheirs;
    const log = options.log ?? (() => {});
    // A log that throws (its stream closed) must not fail the step it tells of.
    this.#log = (message) => {
      try {
        log(message);
      } catch {
        // Nothing is left to tell it with.
      }
    };
    this.#statusListeners = new Listeners('outbox status', this.#log);
    this.#cacheListeners = new Listeners('outbox cache', this.#log);
    this.#remapListeners = new Listeners('outbox remap', this.#log);
    this.#lookUpDelayMs = options.lookUpDelayMs ?? 0;
    this.#undoHoldMs = options.undoHoldMs ?? 0;
    this.#maxFoldFailures = Math.max(1, options.maxFoldFailures ?? MAX_FOLD_FAILURES);
    this.#check = options.check;
    this.#onItemKept = options.onItemKept;
    this.#onRequestFailure = options.onRequestFailure;
    this.#onSent = options.onSent;
    this.store = new EntryStore(this.#db);
    this.ids = new TempIdMap(this.#db);
    this.claims = new FieldClaims(this.#db);
    this.conflicts = new ConflictJournal(this.#db);
  }

  /** A fresh local id for an item created offline. */
  newTempId(): string {
    return makeTempId(this.#newId);
  }

  /** An id for a local-only row (e.g. a comment not sent yet) that nothing refers to. */
  newLocalRowId(): string {
    return makeLocalRowId(this.#newId);
  }

  /** The real id of an item created offline once the service acknowledged it. */
  realIdOf(id: string): string {
    return this.ids.resolve(id) ?? id;
  }

  /**
   * Applies a change locally and stores its entry, in one transaction (rule 1). Throws (and
   * changes nothing) when the payload is invalid or the kind refuses it.
   */
  submit(kindName: string, input: unknown, options: SubmitOptions = {}): SubmitResult {
    const kind = this.#kind(kindName);
    const payload = kind.parse(input);
    const now = this.#clock.now();
    const keys = kind.keysOf(payload);
    checkKeysCoverTempIds(kind.name, keys, payload);
    const result = this.#db.transaction((): SubmitResult & { keys: string[] } => {
      const id = this.store.insert({
        kind: kind.name,
        keys,
        payload,
        createdTempId: kind.createdIdOf?.(payload) ?? null,
        now,
      });
      const applied = kind.apply(this.#applyContext(id, now), payload) ?? {};
      if (applied.noop) {
        this.store.delete(id);
        return { entryId: undefined, merged: false, keys };
      }
      const stored = applied.payload ?? payload;
      if (applied.payload) {
        // Apply may learn more items the change touches (e.g. what a membership change hands
        // over): the entry joins their chains too.
        const learnt = kind.keysOf(stored).filter((k) => !keys.includes(k));
        checkKeysCoverTempIds(kind.name, [...keys, ...learnt], stored);
        if (learnt.length) {
          this.store.addKeys(id, learnt);
          keys.push(...learnt);
        }
      }
      // An undo of a change still waiting: together the two change nothing, nothing is sent.
      const cancelled = this.#cancelledBy(kind, stored, keys, id, options.undo === true);
      if (cancelled) {
        this.#withdraw(id, kind, stored);
        this.#withdraw(cancelled.entry.id, cancelled.kind, cancelled.payload);
        for (const k of cancelled.entry.keys) if (!keys.includes(k)) keys.push(k);
        return { entryId: undefined, merged: false, withdrawn: true, keys };
      }
      const target = this.#mergeTarget(kind, keys, id);
      if (target) {
        const merged = kind.merge?.(target.payload, stored);
        if (merged !== undefined) {
          this.store.setPayload(target.id, merged, target.undo, now);
          this.claims.move(id, target.id);
          this.store.delete(id);
          if (
            kind.withdrawable?.(merged, options.undo === true) &&
            this.claims.cancels(target.id, target.id)
          ) {
            this.#withdraw(target.id, kind, merged);
            return { entryId: undefined, merged: true, withdrawn: true, keys };
          }
          return { entryId: target.id, merged: true, keys };
        }
      }
      this.store.setPayload(id, stored, applied.undo, now);
      if (applied.holdForUndo && this.#undoHoldMs > 0) this.store.notBefore(id, now + this.#undoHoldMs);
      return { entryId: id, merged: false, keys };
    })();
    this.#emitCache(result.keys);
    this.#emitStatus();
    this.#pump();
    return {
      entryId: result.entryId,
      merged: result.merged,
      ...(result.withdrawn ? { withdrawn: true } : {}),
    };
  }

  /** Starts replay: now (rule 3: start-up), on the timer, and after every write. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stopped = false;
    const now = this.#clock.now();
    this.#dueAgainAt = now;
    this.#db.transaction(() => {
      this.store.pruneDone(now - DONE_RETENTION_MS);
      // After a restart nothing is under way: sent-but-unanswered entries are due for look-up.
      this.store.allDueNow(now);
    })();
    this.#pump();
  }

  /** Stops starting requests and waits for the ones under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#started = false;
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
    await this.idle();
  }

  /** The network is back (rule 3): every waiting retry is due now. */
  reconnected(): void {
    this.#dueAgainAt = this.#clock.now();
    this.store.allDueNow(this.#dueAgainAt);
    this.#pump();
  }

  /** A token was given after a 401: replay resumes. */
  resume(): void {
    if (this.#paused === null) return;
    this.#paused = null;
    this.#dueAgainAt = this.#clock.now();
    this.store.allDueNow(this.#dueAgainAt);
    this.#emitStatus();
    this.#pump();
  }

  /** Runs whatever is due now; for callers that know something changed. */
  kick(): void {
    this.#pump();
  }

  /** Resolves once no request is under way (entries waiting for a later time may remain). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }

  status(): OutboxStatus {
    const counts = this.store.counts();
    return {
      pending: counts.pending + counts.inFlight,
      inFlight: counts.inFlight,
      failed: counts.failed,
      stuck: counts.stuck,
      conflicts: this.conflicts.openCount(),
      paused: this.#paused,
      lastSentAt: this.#lastSentAt,
    };
  }

  entries(state?: EntryState): OutboxEntry[] {
    return this.store.list(state);
  }

  /**
   * The refused or stuck entry each held-back open entry waits for (see `EntryStore.holders`),
   * read in one query; an entry missing from the map waits for nothing the user must act on.
   */
  holders(): Map<number, OutboxEntry> {
    const byId = new Map<number, OutboxEntry | undefined>();
    const held = new Map<number, OutboxEntry>();
    for (const [id, holderId] of this.store.holders()) {
      if (!byId.has(holderId)) byId.set(holderId, this.store.get(holderId));
      const holder = byId.get(holderId);
      if (holder) held.set(id, holder);
    }
    return held;
  }

  describe(entry: OutboxEntry): string {
    const kind = this.#kinds.get(entry.kind);
    if (!kind) return entry.kind;
    try {
      return kind.describe(kind.parse(entry.payload));
    } catch {
      return entry.kind;
    }
  }

  /** Fields of an entity with a pending local change: sync leaves them alone (rule 7). */
  pendingFieldsFor(entity: string, id: string): ReadonlySet<string> {
    return new Set(this.claims.fieldsOf(entity, id));
  }

  /** The local value of each field of an entity with a pending change (the latest open entry's). */
  localValuesOf(entity: string, id: string): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const field of this.claims.fieldsOf(entity, id)) {
      const local = this.claims.localOf(entity, id, field);
      if (local) values[field] = local.value;
    }
    return values;
  }

  /** The acknowledgement position a fetch takes before its first request. */
  ackMark(): number {
    return this.acks.mark();
  }

  /**
   * Fields of an entity acknowledged after `mark` (plus `*` when the item was created or
   * deleted, `#` when anything about it was): data fetched before then may predate them.
   */
  ackedSince(entity: string, id: string, mark: number): ReadonlySet<string> {
    return this.acks.since(entity, id, mark);
  }

  /**
   * Sync saw the service's values of fields with a pending local change (and kept the local
   * ones). Where the service value moved away from the base the change started from, records a
   * conflict (local value kept by default, rule 7) and makes that service value the one a
   * rollback restores. Runs inside the sync's write transaction.
   */
  noteServerValues(
    entity: string,
    id: string,
    server: Readonly<Record<string, unknown>>,
    source: RemoteSource = {},
  ): string[] {
    const now = this.#clock.now();
    const recorded: string[] = [];
    for (const [field, remote] of Object.entries(server)) {
      const base = this.claims.baseOf(entity, id, field);
      if (!base || sameValue(base.value, remote)) continue;
      const local = this.claims.localOf(entity, id, field);
      // An earlier open change of this client that the service applied (its answer lost or not
      // yet read) is no one else's change: the base moves, nothing is journaled.
      const own = this.claims.holdsValue(entity, id, field, remote);
      if (local && !own && !sameValue(local.value, remote)) {
        this.conflicts.record(entity, id, field, local.value, remote, now, source);
        recorded.push(field);
      }
      this.claims.rebase(entity, id, field, remote);
    }
    if (recorded.length) this.#emitStatus();
    return recorded;
  }

  /**
   * A pull or fetch read the service's values of this item just now: a change of it sent within
   * `PreSendCheck.freshMs` needs no read first (those values were compared with its claims).
   */
  noteSeen(entity: string, id: string): void {
    const now = this.#clock.now();
    if (this.#seen.size >= this.#seenPruneAt) {
      const before = now - (this.#check?.freshMs ?? DEFAULT_FRESH_MS);
      for (const [key, at] of this.#seen) if (at < before) this.#seen.delete(key);
      // Reads still fresh are kept however many: the next sweep waits until the map has grown
      // as much again, so a pull noting more items than the limit costs one sweep, not one each.
      this.#seenPruneAt = Math.max(SEEN_LIMIT, this.#seen.size * 2);
    }
    this.#seen.set(`${entity}:${id}`, now);
  }

  /**
   * As `noteSeen` for each of `ids` (a list the pull read, all at this moment), kept as one entry
   * (see `#seenLists`). The array is held as given until it is older than `freshMs`.
   */
  noteSeenAll(entity: string, ids: readonly string[]): void {
    const now = this.#clock.now();
    const before = now - (this.#check?.freshMs ?? DEFAULT_FRESH_MS);
    const fresh = this.#seenLists.findIndex((list) => list.at >= before);
    this.#seenLists.splice(0, fresh < 0 ? this.#seenLists.length : fresh);
    if (ids.length) this.#seenLists.push({ entity, ids, at: now });
  }

  /** When the service's values of this item were last read here (`noteSeen`, `noteSeenAll`, the check). */
  #seenAt(entity: string, id: string): number | undefined {
    let at = this.#seen.get(`${entity}:${id}`);
    for (const list of this.#seenLists) {
      if (list.entity !== entity || (at !== undefined && list.at <= at)) continue;
      list.set ??= new Set(list.ids);
      if (list.set.has(id)) at = list.at;
    }
    return at;
  }

  /**
   * True while an open entry creates this item (its id is still local) or deletes it: a pull
   * neither removes nor re-adds it. Local-only rows (drafts) count while an entry names them.
   */
  isPendingStructural(entity: string, id: string): boolean {
    const key = `${entity}:${id}`;
    return (
      this.store.isStructural(key, id, this.#structuralKinds) ||
      this.store.openOn(key).some((entry) => this.#removedAlso(entry.kind, entry.payload).includes(key))
    );
  }

  /**
   * The ids among `ids` (of `entity`) for which `isPendingStructural` is true, from one read of
   * the open entries rather than two queries per id: what a pull asks for each slice of a list it
   * stores. The same three rules: an entry created the id (any entity, as the per-id check), a
   * delete of the item, an entry on the item's key that takes it along (`removesAlso`). Drafts'
   * ids (local rows, named in payloads) are asked one by one: no list the service answers holds
   * them.
   */
  pendingStructuralAmong(entity: string, ids: readonly string[]): Set<string> {
    const found = new Set<string>();
    // Only creates and removing kinds can make an item structural: a backlog of edits is not read.
    const open = ids.length ? this.store.openStructural(this.#removingKinds, this.#alsoRemovingKinds) : [];
    const prefix = `${entity}:`;
    const addKey = (key: string) => {
      if (key.startsWith(prefix)) found.add(key.slice(prefix.length));
    };
    for (const entry of open) {
      if (entry.createdTempId !== null) found.add(entry.createdTempId);
      if (this.#structuralKinds.includes(entry.kind)) addKey(entry.entityKey);
      if (entry.keys)
        for (const key of this.#removedAlso(entry.kind, entry.payload))
          if (entry.keys.includes(key)) addKey(key);
    }
    return new Set(
      ids.filter((id) =>
        id.startsWith(LOCAL_ROW_PREFIX) ? this.isPendingStructural(entity, id) : found.has(id),
      ),
    );
  }

  /**
   * Changes of `kindName` (creates, posted messages) the service applied whose answer has not
   * folded here (its fold failing, retried or needing attention): their local rows (a created
   * item, a message's draft) stand for items the service holds under ids not known here.
   * Payloads have their ids resolved as a send sees them, for the kind's own look-up test to find
   * those items in a list the service answered; unreadable ones are left out.
   */
  unfolded(kindName: string): { entry: OutboxEntry; payload: unknown }[] {
    const kind = this.#kinds.get(kindName);
    if (!kind) return [];
    return this.store.unfolded(kindName).flatMap((entry) => {
      try {
        return [{ entry, payload: this.ids.resolveIn(kind.parse(entry.payload)).payload }];
      } catch {
        // An unreadable entry fails when it is run; here it stands for nothing.
        return [];
      }
    });
  }

  listConflicts(): Conflict[] {
    return this.conflicts.list();
  }

  /** "keep mine" leaves the local value; "take theirs" puts the service's value back. */
  resolveConflict(conflictId: number, choice: 'mine' | 'theirs'): void {
    const conflict = this.conflicts.get(conflictId);
    if (!conflict) throw new OutboxError('not-found', `No conflict ${conflictId}`, 'id');
    if (conflict.resolution !== null) {
      throw new OutboxError('conflict', `Conflict ${conflictId} is already resolved`, 'id');
    }
    if (choice === 'theirs' && !this.#takeTheirs) {
      throw new OutboxError(
        'invalid-argument',
        `Cannot take the service's value of ${conflict.entity}`,
        'choice',
      );
    }
    const key = `${conflict.entity}:${conflict.entityId}`;
    const wholeItem = conflict.field === WHOLE_ITEM;
    const touched = new Set([key]);
    const now = this.#clock.now();
    this.#db.transaction(() => {
      if (wholeItem && choice === 'theirs') {
        // The item stays as the service holds it: the held delete goes, its item comes back.
        for (const entry of this.store.openOn(key)) {
          if (!this.#kinds.get(entry.kind)?.deletes || this.#running.has(entry.id)) continue;
          if (entry.state === 'pending') this.#rollback(this.#kind(entry.kind), entry, now);
          for (const k of entry.keys) touched.add(k);
          this.store.delete(entry.id);
        }
      } else if (choice === 'theirs') {
        this.#takeTheirs?.(conflict.entity, conflict.entityId, conflict.field, conflict.remoteValue, this);
      }
      this.conflicts.markResolved(conflictId, choice, now);
      this.#releaseDecided(key, now);
    })();
    if (wholeItem && choice === 'theirs') this.#onItemKept?.(conflict.entity, conflict.entityId);
    this.#emitCache([...touched]);
    this.#emitStatus();
    this.#pump();
  }

  /**
   * Puts the optimistic change of every open entry back into a cache that was made again from
   * the service (its file damaged, deleted or emptied while this file of unsent changes
   * survived): what the user typed shows again over the service's values (rule 7), and local
   * creates get their rows, under their local ids, back. Entries run in order, their ids
   * resolved as a send sees them; their field claims are already here and stay as they are.
   * Rejected entries are left out (their change was rolled back). One an entry's kind cannot
   * apply any more (its item not in the cache) is skipped and still sent. Answers how many
   * entries were applied. Repeating it is harmless: each apply writes the same rows.
   */
  restoreLocalChanges(): number {
    const entries = this.store.list().filter((e) => e.state !== 'failed');
    if (!entries.length) return 0;
    const now = this.#clock.now();
    const keys: string[] = [];
    let applied = 0;
    this.#db.transaction(() => {
      for (const entry of entries) {
        const kind = this.#kinds.get(entry.kind);
        if (!kind) continue;
        try {
          // A savepoint: a kind that fails half-way leaves nothing of its change.
          this.#db.transaction(() => {
            const { payload } = this.ids.resolveIn(kind.parse(entry.payload));
            kind.apply({ ...this.#applyContext(entry.id, now), claimFields: () => {} }, payload);
          })();
          keys.push(...entry.keys);
          applied++;
        } catch (err) {
          this.#trace(
            entry,
            `not shown again in the rebuilt cache: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
    })();
    if (keys.length) this.#emitCache([...new Set(keys)]);
    return applied;
  }

  /** Held entries of an item whose conflicts the user has all decided go again. */
  #releaseDecided(key: string, now: number): void {
    const at = key.indexOf(':');
    const [entity, id] = [key.slice(0, at), key.slice(at + 1)];
    for (const entry of this.store.openOn(key)) {
      if (entry.errorType !== 'held') continue;
      const undecided =
        this.conflicts.openOn(entity, id, WHOLE_ITEM) !== undefined ||
        this.claims
          .ofEntry(entry.id)
          .some((c) => this.conflicts.openOn(c.entity, c.id, c.field) !== undefined);
      if (!undecided) this.store.release(entry.id, now);
    }
  }

  /** Sends a rejected entry again, with its optimistic change re-applied. */
  retry(entryId: number): void {
    const entry = this.#openEntry(entryId, ['failed']);
    const kind = this.#kind(entry.kind);
    const now = this.#clock.now();
    this.#db.transaction(() => {
      const applied = kind.apply(this.#applyContext(entry.id, now), kind.parse(entry.payload)) ?? {};
      this.store.setPayload(entry.id, applied.payload ?? entry.payload, applied.undo ?? entry.undo, now);
      this.store.requeue(entry.id, now);
    })();
    this.#emitCache(entry.keys);
    this.#emitStatus();
    this.#pump();
  }

  /**
   * "Try again" for an entry that needs attention: back to automatic retry, due now, its attempt
   * and fold counts reset. The service holds the change, so nothing new is sent: a kind with a
   * look-up finds the item and folds what it finds (and goes back to needing attention if the
   * look-up no longer finds it); a kind without one resends its idempotent request.
   */
  tryAgain(entryId: number): void {
    const entry = this.#openEntry(entryId, ['stuck']);
    this.store.unstick(entry.id, this.#clock.now());
    this.#trace(entry, 'given back to automatic retry');
    this.#emitStatus();
    this.#pump();
  }

  /**
   * "Reload from the service" for an entry that needs attention: the service applied it, so it is
   * settled without folding, and its optimistic change is rolled back (for a create: the local
   * row goes, and entries that name its local id fail as waiting for an item never created);
   * the caller fetches what `Reloaded` names, which brings the service's version in.
   */
  reload(entryId: number): Reloaded {
    const entry = this.#openEntry(entryId, ['stuck']);
    const kind = this.#kind(entry.kind);
    const now = this.#clock.now();
    this.#db.transaction(() => {
      this.#rollback(kind, entry, now);
      this.store.markDone(entry.id, now);
    })();
    this.#trace(entry, 'settled by a reload from the service');
    this.#emitCache(entry.keys);
    this.#emitStatus();
    this.#pump();
    const at = entry.entityKey.indexOf(':');
    return {
      entity: entry.entityKey.slice(0, at),
      id: entry.createdTempId ? null : this.realIdOf(entry.entityKey.slice(at + 1)),
    };
  }

  /**
   * Replaces the payload of a rejected or waiting entry and queues it again. The entry must stay
   * about the same items (same chain keys).
   */
  edit(entryId: number, input: unknown): void {
    const entry = this.#openEntry(entryId, ['failed', 'pending']);
    const kind = this.#kind(entry.kind);
    const payload = kind.parse(input);
    const keys = kind.keysOf(payload);
    if (keys.length !== entry.keys.length || keys.some((k) => !entry.keys.includes(k))) {
      throw new OutboxError(
        'invalid-argument',
        'An edit cannot change which items the change is about',
        'payload',
      );
    }
    const now = this.#clock.now();
    this.#db.transaction(() => {
      if (entry.state === 'pending') this.#rollback(kind, entry, now);
      const applied = kind.apply(this.#applyContext(entry.id, now), payload) ?? {};
      this.store.setPayload(entry.id, applied.payload ?? payload, applied.undo, now);
      this.store.requeue(entry.id, now);
    })();
    this.#emitCache(entry.keys);
    this.#emitStatus();
    this.#pump();
  }

  /**
   * Drops a rejected or waiting entry and rolls its change back in the view. Discarding a create
   * also discards every open entry that needs the item it would have made.
   */
  discard(entryId: number): void {
    const entry = this.#openEntry(entryId, ['failed', 'pending']);
    const touched = new Set<string>(entry.keys);
    const now = this.#clock.now();
    this.#db.transaction(() => {
      const doomed = [entry];
      if (entry.createdTempId) {
        for (const other of this.store.list()) {
          if (other.id !== entry.id && tempIdsIn(other.payload).includes(entry.createdTempId)) {
            if (other.state === 'in_flight' || this.#running.has(other.id)) {
              throw new OutboxError('conflict', `Entry ${other.id} that needs this item is being sent`, 'id');
            }
            doomed.push(other);
          }
        }
      }
      // Latest first, so each rollback sees the state its own apply left.
      for (const item of doomed.sort((a, b) => b.id - a.id)) {
        if (item.state === 'pending') this.#rollback(this.#kind(item.kind), item, now);
        for (const k of item.keys) touched.add(k);
        this.store.delete(item.id);
      }
    })();
    this.#emitCache([...touched]);
    this.#emitStatus();
    this.#pump();
  }

  onDidChange(listener: (status: OutboxStatus) => void): () => void {
    return this.#statusListeners.add(listener);
  }

  /**
   * Cache rows changed by the outbox (fold, rollback, remap); keys as `entity:id`, and `tables`:
   * where an acknowledged create's remap rewrote rows of other items that referred to its local
   * id (`OutboxOptions.remapCache`), whose views are told as well.
   */
  onDidChangeCache(listener: (keys: readonly string[], tables: readonly string[]) => void): () => void {
    return this.#cacheListeners.add(listener);
  }

  /** A local id was replaced by the service's; told after the acknowledging transaction commits. */
  onDidRemapId(listener: (remap: IdRemap) => void): () => void {
    return this.#remapListeners.add(listener);
  }

  #kind(name: string): ErasedKind<C> {
    const kind = this.#kinds.get(name);
    if (!kind) throw new OutboxError('invalid-argument', `Unknown operation kind "${name}"`, 'kind');
    return kind;
  }

  #openEntry(entryId: number, states: EntryState[]): OutboxEntry {
    const entry = this.store.get(entryId);
    if (!entry || entry.state === 'done')
      throw new OutboxError('not-found', `No waiting change ${entryId}`, 'id');
    if (this.#running.has(entryId) || !states.includes(entry.state)) {
      throw new OutboxError(
        'conflict',
        entry.state === 'in_flight' || this.#running.has(entryId)
          ? `Change ${entryId} is being sent and cannot be changed now`
          : `Change ${entryId} is ${entry.state}`,
        'id',
      );
    }
    return entry;
  }

  /** True when an open entry other than `except` deletes the item `key` names or takes it along. */
  #deletedByOther(key: string, except: number): boolean {
    return this.store
      .openOn(key)
      .some(
        (other) =>
          other.id !== except &&
          ((other.entityKey === key && this.#structuralKinds.includes(other.kind)) ||
            this.#removedAlso(other.kind, other.payload).includes(key)),
      );
  }

  /** What an entry's delete removes besides its main entity (see `OperationKind.removesAlso`). */
  #removedAlso(kindName: string, payload: unknown): string[] {
    const kind = this.#kinds.get(kindName);
    if (!kind?.removesAlso) return [];
    try {
      return kind.removesAlso(kind.parse(payload));
    } catch {
      // An unreadable entry fails when it is run; here it removes nothing.
      return [];
    }
  }

  #applyContext(entryId: number, now: number): ApplyContext {
    return {
      entryId,
      now,
      claimFields: (entity: string, id: string, changes: Readonly<Record<string, FieldChange>>) =>
        this.claims.claim(entryId, entity, id, changes),
      baseOf: (entity: string, id: string, field: string) => this.claims.baseOf(entity, id, field),
    };
  }

  /**
   * Undoes an entry's optimistic change. A stored payload its kind no longer reads (written by an
   * older version) is rolled back as far as it can be read: the kind's rollback is given it as
   * stored (what a rollback uses, the local id a create made or the fields it claimed, is the
   * same in every version), in a savepoint, so a part it cannot read undoes nothing rather than
   * failing the step; its change must not stay in the view (rule 4).
   */
  #rollback(kind: ErasedKind<C>, entry: OutboxEntry, now: number): void {
    const ctx: RollbackContext = { now, releaseFields: () => this.claims.release(entry.id) };
    let payload: unknown;
    try {
      payload = kind.parse(entry.payload);
    } catch {
      try {
        this.#db.transaction(() => kind.rollback(ctx, entry.payload, entry.undo))();
      } catch (err) {
        this.#trace(entry, `rollback of its unreadable change failed: ${messageOf(err)}`);
      }
      this.claims.release(entry.id);
      return;
    }
    kind.rollback(ctx, payload, entry.undo);
    // Whatever the kind did not release is released now: claims never outlive their entry.
    this.claims.release(entry.id);
  }

  /**
   * The earlier entry a new one cancels: the last open one on each of its keys, waiting (not
   * under way), both kinds changing only fields, and the new one putting every field the earlier
   * changed back to what it was before it (`FieldClaims.cancels`).
   */
  #cancelledBy(
    kind: ErasedKind<C>,
    payload: unknown,
    keys: string[],
    newId: number,
    undo: boolean,
  ): { entry: OutboxEntry; kind: ErasedKind<C>; payload: unknown } | undefined {
    if (!kind.withdrawable?.(payload, undo)) return undefined;
    let targetId: number | undefined;
    for (const key of keys) {
      const last = this.store.lastOpenBefore(key, newId);
      if (last === undefined || (targetId !== undefined && last !== targetId)) return undefined;
      targetId = last;
    }
    if (targetId === undefined || this.#running.has(targetId)) return undefined;
    const target = this.store.get(targetId);
    if (!target || target.state !== 'pending' || target.answeredAt !== null) return undefined;
    // Two kinds (a tag added, then removed) cancel only when the later write says it is an undo:
    // a user who adds and removes a tag on purpose sees both sent, as before.
    if (target.kind !== kind.name && !undo) return undefined;
    const targetKind = this.#kinds.get(target.kind);
    let targetPayload: unknown;
    try {
      targetPayload = targetKind?.parse(target.payload);
    } catch {
      return undefined;
    }
    if (!targetKind?.withdrawable?.(targetPayload, undo)) return undefined;
    return this.claims.cancels(target.id, newId)
      ? { entry: target, kind: targetKind, payload: targetPayload }
      : undefined;
  }

  /**
   * Removes a waiting entry whose change the cache no longer shows (a later change put its
   * fields back): its claims go with it and nothing is written back; what it made besides them
   * (a status change's message) its kind removes.
   */
  #withdraw(entryId: number, kind: ErasedKind<C>, payload: unknown): void {
    kind.withdrawn?.(payload);
    this.claims.release(entryId);
    this.store.delete(entryId);
  }

  /** The earlier entry a new one may merge into: the last open one on each of its keys. */
  #mergeTarget(kind: ErasedKind<C>, keys: string[], newId: number): OutboxEntry | undefined {
    if (!kind.merge) return undefined;
    let targetId: number | undefined;
    for (const key of keys) {
      const last = this.store.lastOpenBefore(key, newId);
      if (last === undefined || (targetId !== undefined && last !== targetId)) return undefined;
      targetId = last;
    }
    if (targetId === undefined || this.#running.has(targetId)) return undefined;
    const target = this.store.get(targetId);
    if (!target || target.kind !== kind.name || target.state !== 'pending') return undefined;
    if (target.keys.length !== keys.length || target.keys.some((k) => !keys.includes(k))) return undefined;
    return target;
  }

  #pump(): void {
    if (!this.#started || this.#stopped || this.#paused) return;
    const free = this.#concurrency - this.#running.size;
    if (free > 0) {
      const now = this.#clock.now();
      for (const entry of this.store.ready(now, free + this.#running.size)) {
        if (this.#running.size >= this.#concurrency) break;
        if (this.#running.has(entry.id)) continue;
        // `#run` handles every failure of the attempt; what could still escape it (the store
        // failing while it records a failure) is logged, never an unhandled rejection.
        const run = this.#run(entry)
          .catch((err: unknown) =>
            this.#log(`outbox: entry ${entry.id} (${entry.kind}) run failed: ${messageOf(err)}`),
          )
          .finally(() => {
            this.#running.delete(entry.id);
            this.#emitStatus();
            this.#pump();
          });
        this.#running.set(entry.id, run);
      }
    }
    this.#arm();
  }

  /** The timer: the earliest waiting retry, or the periodic tick, whichever comes first. */
  #arm(): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
    if (!this.#started || this.#stopped || this.#paused) return;
    const now = this.#clock.now();
    const earliest = this.store.earliestAttemptAfter(now);
    const delay = earliest === undefined ? this.#tickMs : Math.min(this.#tickMs, earliest - now);
    this.#timer = this.#timers.set(() => {
      this.#timer = undefined;
      this.#pump();
    }, delay);
  }

  async #run(entry: OutboxEntry): Promise<void> {
    const kind = this.#kinds.get(entry.kind);
    if (!kind) {
      this.#fail(entry, undefined, 'internal', `No operation kind "${entry.kind}" in this version`);
      return;
    }
    let payload: unknown;
    try {
      const resolved = this.ids.resolveIn(kind.parse(entry.payload));
      const missing = resolved.unresolved.filter((id) => id !== entry.createdTempId);
      if (missing.length) {
        // Rolled back too: what it made locally (a comment on an item never created) leaves the view.
        this.#fail(
          entry,
          { kind, payload: resolved.payload },
          'blocked',
          `Waits for items never created: ${missing.join(', ')}`,
        );
        return;
      }
      payload = resolved.payload;
    } catch (err) {
      // Rolled back like a refused change (rule 4), so a discard leaves nothing of it in the view.
      this.#fail(
        entry,
        { kind, payload: entry.payload },
        'internal',
        `Stored change is unreadable: ${messageOf(err)}`,
      );
      return;
    }
    let phase: Phase = 'lookup';
    // Whether an earlier request of this entry may have been applied: while it is in flight,
    // until a look-up says it was not.
    let earlierUnknown = entry.state === 'in_flight';
    let answer: { result: unknown } | undefined;
    try {
      if (entry.state === 'in_flight' && kind.lookUp) {
        const lookUpAt = Math.max(entry.sentAt ?? 0, this.#endedAt.get(entry.id) ?? 0) + this.#lookUpDelayMs;
        if (this.#clock.now() < lookUpAt) {
          // Not yet: the earlier request may still be reaching the service.
          this.store.reschedule(
            entry.id,
            'in_flight',
            lookUpAt,
            entry.errorType ?? 'unknown-outcome',
            entry.errorMessage ?? '',
            this.#clock.now(),
          );
          return;
        }
        const found = await kind.lookUp(this.#client, payload, entry);
        this.#trace(entry, found.found ? 'looked up: applied already' : 'looked up: not applied');
        if (found.found) answer = { result: found.result };
        else if (entry.answeredAt !== null) {
          // The service answered that it applied this change, and the look-up no longer finds
          // it (changed or removed there since): sending it again would apply it twice (rule 6).
          if (this.store.markStuck(entry.id, 'not-found', NOT_FOUND_AFTER_ANSWER, this.#clock.now()))
            this.#trace(entry, 'needs attention: applied, no longer found');
          return;
        } else earlierUnknown = false;
      }
      if (!answer) {
        if (this.#stopped || this.#paused) return;
        // An entry the service answered already holds there: what is resent is its own change.
        if (this.#check && entry.answeredAt === null) {
          phase = 'check';
          const verdict = await this.#checkBeforeSend(this.#check, kind, entry, payload);
          if (verdict === 'held') return;
          if (verdict === 'gone') {
            this.#fail(entry, { kind, payload }, 'gone', GONE_ELSEWHERE);
            return;
          }
          if (this.#stopped || this.#paused) return;
        }
        phase = 'prepare';
        if (kind.prepare) {
          payload = await kind.prepare(this.#client, payload);
          this.store.setPayload(entry.id, payload, entry.undo, this.#clock.now());
          if (this.#stopped || this.#paused) return;
        }
        phase = 'send';
        const mark = () => this.store.markSending(entry.id, this.#clock.now(), SEND_GUARD_MS);
        if (markSynced(kind, entry)) mark();
        else this.store.unsynced(mark);
        this.#endedAt.delete(entry.id);
        this.#trace(entry, `sending, attempt ${entry.attempts + 1}`);
        answer = { result: await kind.send(kind.lookUp ? this.#sendClient : this.#client, payload, entry) };
      }
    } catch (err) {
      this.#onFailure(kind, entry, payload, err, phase, earlierUnknown);
      return;
    }
    // Outside the try: whatever happens once the acknowledgement is committed (a listener, a
    // log) is no failure of the entry and must not send it again.
    this.#acknowledge(kind, entry, payload, answer.result);
  }

  /**
   * Rule 7 before a send: reads the items the entry writes (unless read within `freshMs`),
   * journals every field the service changed since the value the entry replaced, and answers
   * whether to send, hold (the policy asks, or a delete meets changes made since its item was
   * read) or fail it (an update of an item the service no longer has).
   */
  async #checkBeforeSend(
    check: PreSendCheck<C>,
    kind: ErasedKind<C>,
    entry: OutboxEntry,
    payload: unknown,
  ): Promise<'send' | 'held' | 'gone'> {
    const items = new Map<string, { entity: string; id: string }>();
    const claimed = this.claims.ofEntry(entry.id);
    for (const c of claimed) items.set(`${c.entity}:${c.id}`, { entity: c.entity, id: c.id });
    const deleted = kind.deletes && kind.changedSince ? entry.entityKey : undefined;
    if (deleted) {
      const at = deleted.indexOf(':');
      items.set(deleted, { entity: deleted.slice(0, at), id: deleted.slice(at + 1) });
    }
    let itemChanged = false;
    for (const [key, { entity, id }] of items) {
      const realId = this.realIdOf(id);
      if (isTempId(realId)) continue;
      const readAt = this.#clock.now();
      // A change sent at once (its first attempt) of an item read moments ago goes unread; one
      // that waited (offline, retried, held behind another) is read whatever the last read.
      if (key === deleted) {
        const seen = this.#seenAt(entity, realId);
        if (entry.attempts === 0 && seen !== undefined && readAt - seen <= check.freshMs) continue;
      } else {
        if (this.#readCovers(check, entry, entity, realId, readAt)) continue;
        const along = this.#readingAlong.get(`${entity}:${realId}`);
        // Another send's read of several items, begun late enough for this one, covers it.
        if (along && this.#readCovers(check, entry, entity, realId, readAt, along.startedAt)) {
          await along.done.catch(() => undefined);
          if (this.#readCovers(check, entry, entity, realId, this.#clock.now())) continue;
        } else if (await this.#readAlong(check, entry, entity, realId)) continue;
      }
      let item: ServiceItem | null | undefined;
      try {
        item = await check.read(this.#client, entity, realId);
      } catch (err) {
        // A read the service refuses (not a network failure) cannot tell: the change goes unchecked.
        if (this.#classify(err).class !== 'rejected') throw err;
        this.#trace(entry, `check of ${entity} refused: ${messageOf(err)}`);
        continue;
      }
      if (item === undefined) continue;
      this.#noteChecked(`${entity}:${realId}`, readAt);
      if (item === null) {
        if (key === deleted) continue;
        this.#trace(entry, `checked: ${entity} is gone from the service`);
        return 'gone';
      }
      const values = item.values;
      if (key === deleted) {
        const changed = kind.changedSince?.(kind.parse(payload), entry.undo, values) ?? [];
        if (!changed.length) continue;
        const remote = Object.fromEntries(changed.map((f) => [f, values[f] ?? null]));
        // "Delete anyway" was already chosen over these very changes.
        const decided = this.conflicts.lastResolved(entity, id, WHOLE_ITEM, 'mine');
        if (decided && sameValue(decided.remoteValue, remote)) continue;
        this.#db.transaction(() =>
          this.conflicts.record(entity, id, WHOLE_ITEM, null, remote, this.#clock.now(), item.source),
        )();
        itemChanged = true;
        this.#trace(
          entry,
          `checked: ${entity} ${changed.join(', ')} changed on the service since it was read`,
        );
        continue;
      }
      const server: Record<string, unknown> = {};
      for (const field of this.claims.fieldsOf(entity, id))
        if (field in values) server[field] = values[field];
      const recorded = this.#db.transaction(() => this.noteServerValues(entity, id, server, item.source))();
      if (recorded.length)
        this.#trace(entry, `checked: ${entity} ${recorded.join(', ')} changed on the service`);
    }
    const now = this.#clock.now();
    const state = entry.state === 'in_flight' ? 'in_flight' : 'pending';
    if (itemChanged) {
      this.store.hold(entry.id, state, HELD_DELETE, now);
      this.#trace(entry, 'held: its item changed on the service since it was read');
      return 'held';
    }
    if (check.policy() === 'ask') {
      const open = claimed.some((c) => this.conflicts.openOn(c.entity, c.id, c.field) !== undefined);
      if (open) {
        this.store.hold(entry.id, state, HELD_ASK, now);
        this.#trace(entry, 'held: changed on the service meanwhile, waiting for the user');
        return 'held';
      }
    }
    return 'send';
  }

  /**
   * Whether a read already compared the item's claimed fields for this send (at `now`; `began`:
   * a read under way that began then). The first attempt of an entry takes any read within
   * `freshMs` (a pull's or fetch's, or the check's); an entry that waited (a retry, due again
   * after a failure, a reconnect or a restart of replay) only the check's reads begun once it was
   * due again, also within `freshMs`: a read from before it had to wait may predate a
   * colleague's change.
   */
  #readCovers(
    check: PreSendCheck<C>,
    entry: OutboxEntry,
    entity: string,
    id: string,
    now: number,
    began?: number,
  ): boolean {
    const key = `${entity}:${id}`;
    const at = began ?? (entry.attempts === 0 ? this.#seenAt(entity, id) : this.#checkedAt.get(key));
    if (at === undefined || now - at > check.freshMs) return false;
    return entry.attempts === 0 || at >= Math.max(entry.nextAttemptAt, this.#dueAgainAt);
  }

  /** The check read the item's values (begun at `at`) and compared them with its claims. */
  #noteChecked(key: string, at: number): void {
    if (this.#checkedAt.size >= SEEN_LIMIT) {
      const before = this.#clock.now() - (this.#check?.freshMs ?? DEFAULT_FRESH_MS);
      for (const [k, t] of this.#checkedAt) if (t < before) this.#checkedAt.delete(k);
    }
    this.#checkedAt.set(key, at);
    this.#seen.set(key, at);
  }

  /**
   * Reads the entry's item `id` together with the other items of its entity that wait for a
   * read (`PreSendCheck.readAlong`), and compares each one's claimed fields as a pull does:
   * journaled where the service moved away from the base, noted as seen, so their own first
   * sends within `freshMs` need no read. Fields (or whole items) this client's own changes had
   * acknowledged while the read was under way are not compared: the answer may predate them.
   * True when the answer held `id`.
   */
  async #readAlong(check: PreSendCheck<C>, entry: OutboxEntry, entity: string, id: string): Promise<boolean> {
    if (!check.readAlong) return false;
    const readAt = this.#clock.now();
    // Items with a pending change not read by the check lately (a pull's read does not count:
    // their entries may be retries, which need a read begun after they were due).
    const along = this.claims
      .idsOf(entity)
      .map((claimed) => this.realIdOf(claimed))
      .filter((other) => {
        const key = `${entity}:${other}`;
        const checked = this.#checkedAt.get(key);
        return (
          other !== id &&
          !isTempId(other) &&
          !this.#readingAlong.has(key) &&
          !(checked !== undefined && readAt - checked <= check.freshMs) &&
          !this.isPendingStructural(entity, other)
        );
      });
    if (!along.length) return false;
    const mark = this.acks.mark();
    const keys = [id, ...along].map((other) => `${entity}:${other}`);
    const read = check.readAlong(this.#client, entity, id, along);
    const reading = { startedAt: readAt, done: read };
    for (const key of keys) this.#readingAlong.set(key, reading);
    let found: ReadonlyMap<string, ServiceItem> | undefined;
    try {
      found = await read;
    } catch (err) {
      // A refusal (the project gone, say) tells nothing of the items: each is read on its own.
      if (this.#classify(err).class !== 'rejected') throw err;
      this.#trace(entry, `read along of ${entity} refused: ${messageOf(err)}`);
    } finally {
      for (const key of keys) if (this.#readingAlong.get(key) === reading) this.#readingAlong.delete(key);
    }
    if (!found) return false;
    const recorded: string[] = [];
    this.#db.transaction(() => {
      for (const [itemId, item] of found) {
        if (this.isPendingStructural(entity, itemId)) continue;
        const acked = this.acks.since(entity, itemId, mark);
        if (acked.has(ACKED_ITEM)) continue;
        const server: Record<string, unknown> = {};
        for (const field of this.claims.fieldsOf(entity, itemId))
          if (field in item.values && !acked.has(field)) server[field] = item.values[field];
        for (const field of this.noteServerValues(entity, itemId, server, item.source))
          recorded.push(`${itemId} ${field}`);
        this.#noteChecked(`${entity}:${itemId}`, readAt);
      }
    })();
    this.#trace(
      entry,
      `checked ${found.size} ${entity} items in one read` +
        (recorded.length ? `: changed on the service: ${recorded.join(', ')}` : ''),
    );
    return found.has(id) && this.#checkedAt.get(`${entity}:${id}`) === readAt;
  }

  #acknowledge(kind: ErasedKind<C>, entry: OutboxEntry, payload: unknown, result: unknown): void {
    this.#endedAt.delete(entry.id);
    const now = this.#clock.now();
    const keys = new Set(entry.keys);
    const items: string[] = [];
    let claimed: { entity: string; id: string; field: string }[] = [];
    let remap: IdRemap | undefined;
    let rewritten: readonly string[] = [];
    try {
      const write = this.#db.transaction(() => {
        if (kind.deletes) items.push(entry.entityKey, ...(kind.removesAlso?.(payload) ?? []));
        for (const item of items) keys.add(item);
        const folded =
          kind.fold(
            {
              now,
              pendingFields: (entity, id) => this.pendingFieldsFor(entity, id),
              deletedByOther: (key) => this.#deletedByOther(key, entry.id),
            },
            payload,
            result,
            entry,
          ) ?? {};
        if (entry.createdTempId) {
          if (!folded.realId) throw new Error(`${kind.name} was acknowledged without an id`);
          // The map first: the cache's remap records, in the cache's file, the mapping it applied.
          this.ids.remap(entry.createdTempId, folded.realId, now);
          rewritten = this.#remapCache(entry.createdTempId, folded.realId);
          const entity = entry.entityKey.split(':')[0] ?? '';
          const created = `${entity}:${folded.realId}`;
          keys.add(created);
          items.push(created);
          remap = { entity, tempId: entry.createdTempId, realId: folded.realId };
        }
        claimed = this.claims.ofEntry(entry.id);
        this.claims.settle(entry.id);
        this.store.markDone(entry.id, now);
      });
      if (acknowledgementSynced(entry)) write();
      else this.store.unsynced(() => write());
    } catch (err) {
      this.#log(`outbox: folding entry ${entry.id} (${entry.kind}) failed: ${messageOf(err)}`);
      this.#foldFailed(entry, messageOf(err));
      return;
    }
    this.#trace(entry, remap ? `acknowledged as ${remap.realId}` : 'acknowledged');
    this.#lastSentAt = now;
    this.#tell(() => this.#onSent?.());
    // A create's item holds what this client wrote, all of it: a change of it soon after needs no read.
    if (remap) this.#seen.set(`${remap.entity}:${remap.realId}`, now);
    for (const c of claimed) this.acks.record(c.entity, c.id, [c.field], now);
    for (const key of keys) {
      const at = key.indexOf(':');
      this.acks.record(key.slice(0, at), key.slice(at + 1), items.includes(key) ? [ACKED_ITEM] : [], now);
    }
    this.#emitCache([...keys], rewritten);
    if (remap) this.#remapListeners.emit(remap);
  }

  /**
   * A failed attempt of an open entry: `phase` is the step that failed, `earlierUnknown` whether
   * an earlier request of the entry may have been applied (see `#run`).
   */
  #onFailure(
    kind: ErasedKind<C>,
    entry: OutboxEntry,
    payload: unknown,
    err: unknown,
    phase: Phase,
    earlierUnknown: boolean,
  ): void {
    this.#tell(() => this.#onRequestFailure?.(err));
    const applied = phase === 'send' && err instanceof AppliedError;
    const failure = this.#classify(applied ? err.cause : err);
    // Whether the service may hold the change now. A failed look-up leaves the earlier outcome
    // unknown; a failure before the send (in `prepare`) leaves it as it was, so an entry never
    // sent stays plainly pending; a send's outcome is unknown unless the service refused it
    // (429, 401) or no connection was made, and after an answered write it was applied.
    const mayBeApplied =
      phase === 'lookup' ||
      (phase === 'prepare' || phase === 'check'
        ? earlierUnknown
        : applied || failure.class === 'unknown-outcome');
    const state = mayBeApplied ? 'in_flight' : 'pending';
    // After an answered write nothing is rolled back: a refused look-up is tried again later.
    // A later request of an applied change that never connected is as unknown as any other.
    const cls =
      applied && (failure.class === 'rejected' || failure.class === 'unreached')
        ? 'unknown-outcome'
        : failure.class;
    this.#trace(entry, `${phase} failed (${cls}): ${failure.message}`);
    if (phase === 'send' && cls === 'unknown-outcome' && kind.lookUp)
      this.#endedAt.set(entry.id, this.#clock.now());
    switch (cls) {
      case 'unknown-outcome':
        this.#retryLater(entry, state, cls, failure.message);
        return;
      case 'throttled':
        this.#retryLater(entry, state, cls, failure.message, failure.retryAfterMs);
        return;
      case 'unreached':
        this.#retryLater(entry, state, cls, failure.message);
        return;
      case 'unauthorized': {
        // Not an attempt of the change: replay waits for a token, then runs it at once.
        const now = this.#clock.now();
        this.store.reschedule(entry.id, state, now, cls, failure.message, now);
        if (this.#paused !== 'token-needed') {
          this.#paused = 'token-needed';
          this.#log('outbox: the service refused the token; replay paused until a token is given');
        }
        return;
      }
      case 'rejected':
        this.#fail(entry, { kind, payload }, failure.class, failure.message);
        return;
    }
  }

  /**
   * Counts a failed attempt and sets the next one after the backoff for that count (or
   * `atLeastMs`, the service's Retry-After, when longer). Every failed attempt counts, whichever
   * step failed (`entry.attempts` is the count before this attempt; a send counted itself with
   * the same number), so the waits of an entry that keeps failing grow up to the maximum.
   */
  #retryLater(
    entry: OutboxEntry,
    state: 'pending' | 'in_flight',
    errorType: string,
    message: string,
    atLeastMs = 0,
  ): void {
    const now = this.#clock.now();
    const attempts = entry.attempts + 1;
    const wait = Math.max(atLeastMs, backoffDelay(attempts, this.#random, this.#backoff));
    this.store.reschedule(entry.id, state, now + wait, errorType, message, now, attempts);
  }

  /**
   * The service applied the change; what failed is ours. The entry stays "outcome unknown", so
   * the next attempt looks it up (or resends an idempotent request) rather than sending a
   * duplicate, and is marked answered, so a look-up that finds nothing never sends it again. The
   * failed fold counts as an attempt (a send counted itself already, a look-up did not), so a
   * fold that keeps failing waits longer each time; after `maxFoldFailures` it needs attention.
   */
  #foldFailed(entry: OutboxEntry, message: string): void {
    const now = this.#clock.now();
    const attempts = entry.attempts + 1;
    const stuck = entry.foldFailures + 1 >= this.#maxFoldFailures;
    const nextAttemptAt = now + backoffDelay(attempts, this.#random, this.#backoff);
    if (this.store.foldFailed(entry.id, { message, attempts, nextAttemptAt, stuck }, now) && stuck) {
      this.#trace(entry, `needs attention: its answer failed to fold ${entry.foldFailures + 1} times`);
    }
  }

  /** Rejected: the optimistic change leaves the view; the entry stays with its message (rule 4). */
  #fail(
    entry: OutboxEntry,
    rollback: { kind: ErasedKind<C>; payload: unknown } | undefined,
    errorType: string,
    message: string,
  ): void {
    this.#endedAt.delete(entry.id);
    const now = this.#clock.now();
    const rolledBack = this.#db.transaction(() => {
      // Only an open entry fails: a done one's change is the service's, never rolled back.
      if (!this.store.markFailed(entry.id, errorType, message, now)) return false;
      if (rollback) this.#rollback(rollback.kind, { ...entry, payload: rollback.payload }, now);
      return rollback !== undefined;
    })();
    if (rolledBack) this.#emitCache(entry.keys);
  }

  /** Runs an engine hook; one that throws is logged, never a failure of the entry. */
  #tell(hook: () => void): void {
    try {
      hook();
    } catch (err) {
      this.#log(`outbox: a hook failed: ${messageOf(err)}`);
    }
  }

  /**
   * One line per step of an entry's life, for the log a user can send with a bug report (and the
   * fault campaign's run logs): ids and kinds only, never what the user wrote.
   */
  #trace(entry: OutboxEntry, step: string): void {
    this.#log(`outbox: entry ${entry.id} (${entry.kind}) ${step}`);
  }

  #emitStatus(): void {
    if (!this.#statusListeners.size) return;
    this.#statusListeners.emit(this.status());
  }

  #emitCache(keys: readonly string[], tables: readonly string[] = []): void {
    this.#cacheListeners.emit(keys, tables);
  }
}

/**
 * Whether an entry's in-flight mark is synced to disk before its request leaves (README, "Rule 6
 * on the disk"): for a kind with a look-up (a create, a posted message), whose mark lost in a
 * power cut would have the request made twice. A kind without one is idempotent (the contract
 * of `OperationKind.lookUp`): if its mark is lost it is simply sent again.
 */
function markSynced(kind: { lookUp?: unknown }, entry: OutboxEntry): boolean {
  return kind.lookUp !== undefined || entry.createdTempId !== null;
}

/**
 * Whether an entry's acknowledgement is synced to disk before the outbox goes on: only a create's
 * that gives a local id its real one (the remap of waiting entries and cache rows, rule 5). Any
 * other acknowledgement lost in a power cut leaves its entry as its mark said: sent again if
 * idempotent, looked up first if not (rule 6's path for a lost answer); the next synced commit
 * puts it on disk meanwhile.
 */
function acknowledgementSynced(entry: OutboxEntry): boolean {
  return entry.createdTempId !== null;
}

/** Items whose last read is kept in memory before old reads are dropped (`noteSeen`). */
const SEEN_LIMIT = 50_000;

const GONE_ELSEWHERE =
  'Someone else deleted this item on the service; your change was not sent. Its values are kept here to copy.';
const HELD_DELETE = 'Changed on the service since you read it: delete anyway?';
const HELD_ASK = 'Also changed on the service: keep yours or take theirs?';

const NOT_FOUND_AFTER_ANSWER =
  'The service applied this change, but it can no longer be found there (changed or removed since)';

function checkKeysCoverTempIds(kind: string, keys: readonly string[], payload: unknown): void {
  for (const temp of tempIdsIn(payload)) {
    if (!keys.some((k) => k.endsWith(`:${temp}`))) {
      throw new Error(`Operation kind ${kind}: the payload names ${temp} but its keys do not`);
    }
  }
}

/** An error in words; a schema's refusal as its first issue, naming the field (`input.endDate: ...`). */
function messageOf(err: unknown): string {
  if (err instanceof ZodError) return describeZodError(err, 'payload').message;
  return err instanceof Error ? err.message : String(err);
}
