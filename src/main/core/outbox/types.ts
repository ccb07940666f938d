import type { Database } from 'better-sqlite3';

/**
 * Life of an entry. `in_flight` means "a request for it may have reached the service and no
 * answer says what happened": set before every send and kept after a crash or a lost response,
 * so the next attempt looks the item up first (rule 6). `failed` entries were rejected by the
 * service and wait for the user (retry, edit or discard). `stuck` entries were acknowledged but
 * their answer failed to fold again and again: out of automatic retry, their change kept, they
 * wait for the user (try again, reload from the service). `done` entries are acknowledged.
 */
export type EntryState = 'pending' | 'in_flight' | 'failed' | 'stuck' | 'done';

export interface OutboxEntry {
  readonly id: number;
  readonly kind: string;
  /** The entity the entry is mainly about, e.g. `task:123`; used for listing. */
  readonly entityKey: string;
  /** Every entity key whose chain the entry belongs to (rule 2); includes `entityKey`. */
  readonly keys: readonly string[];
  readonly payload: unknown;
  /** What the kind recorded at apply time to roll its optimistic change back. */
  readonly undo: unknown;
  readonly state: EntryState;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  /** When the last request for it was started (ms); the look-up searches from here. */
  readonly sentAt: number | null;
  readonly errorType: string | null;
  readonly errorMessage: string | null;
  /** The local id this entry creates, when it is a create. */
  readonly createdTempId: string | null;
  /** Answers that failed to fold since the entry was last given to automatic retry. */
  readonly foldFailures: number;
  /**
   * When the service first answered that it applied the change and the answer could not be
   * folded (ms): from then on the service holds it, so it is never sent again (rule 6).
   */
  readonly answeredAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** An open entry as `EntryStore.openStructural` reads it. */
export interface StructuralEntry {
  kind: string;
  entityKey: string;
  createdTempId: string | null;
  /** Read only for the kinds asked with their payload. */
  payload?: unknown;
  keys?: string[];
}

/** How the outbox treats a failed send (rule 4). */
export type FailureClass =
  /** network, timeout, 5xx: the request may have been applied; retry after a look-up */
  | 'unknown-outcome'
  /** 429: refused before being applied; retry later */
  | 'throttled'
  /** no connection could be made (refused, no route, name not found): nothing was sent; retry later */
  | 'unreached'
  /** 401: pause the whole queue until a token is given */
  | 'unauthorized'
  /** any other 4xx: stop this entity's chain and keep the entry with the message */
  | 'rejected';

export interface Failure {
  readonly class: FailureClass;
  readonly message: string;
  readonly retryAfterMs?: number;
}

export type Classifier = (error: unknown) => Failure;

/** What a kind's `apply` may ask of the outbox while the enqueue transaction is open. */
export interface ApplyContext {
  /** The id of the entry being written (stable across merges). */
  readonly entryId: number;
  readonly now: number;
  /**
   * Records that this entry changes `fields` of an entity, with the values the cache held before
   * (the service's values as far as the cache knows). The first claim of a field keeps its base;
   * sync asks `pendingFieldsFor` before overwriting (rule 7) and a rollback restores the base.
   */
  claimFields(entity: string, id: string, bases: Readonly<Record<string, unknown>>): void;
  /**
   * The service's value of a field with a pending local change (its claim's base), if it has one:
   * a delete keeps it, since the service may end with either value when that change is refused.
   */
  baseOf(entity: string, id: string, field: string): { value: unknown } | undefined;
}

export interface RollbackContext {
  readonly now: number;
  /**
   * Releases the field claims of the rolled-back entry; answers the fields no other open entry
   * still claims, with their base values, so the kind writes those back into the cache.
   */
  releaseFields(): Map<string, { entity: string; id: string; values: Record<string, unknown> }>;
}

export interface FoldContext {
  readonly now: number;
  /** Fields of an entity that later open entries changed locally: a fold must keep them. */
  pendingFields(entity: string, id: string): ReadonlySet<string>;
  /**
   * True when another open entry deletes the item `entity:id` (the key names it) or takes it
   * along (a task delete's subtasks): a fold must not put its row back.
   */
  deletedByOther(key: string): boolean;
}

export interface Applied<P> {
  /** The payload to store (a kind may fill in what apply learnt, e.g. the acting user). */
  readonly payload?: P;
  readonly undo?: unknown;
  /** Nothing changed (e.g. an update to the values already held): no entry is stored. */
  readonly noop?: boolean;
  /**
   * Keep the entry from sending for the outbox's undo window (`OutboxOptions.undoHoldMs`) after
   * it is queued, so an undo can still withdraw it (a task delete: the service cannot bring a
   * deleted task back).
   */
  readonly holdForUndo?: boolean;
}

export interface Folded {
  /** A create answers the real id of the item it made under `createdTempId`. */
  readonly realId?: string;
}

export type LookUpResult<R> = { readonly found: true; readonly result: R } | { readonly found: false };

/**
 * One kind of write (create task, update task, comment, ...). The outbox is generic; each write
 * of the API is one of these. `C` is what sends requests (the service client).
 *
 * Contract: `apply`, `fold` and `rollback` run inside an open SQLite transaction and must be
 * synchronous; `send` and `lookUp` are the only asynchronous steps and touch no cache.
 */
export interface OperationKind<P = unknown, R = unknown, C = unknown, N extends string = string> {
  /** The kind's name, what a write names it by (`outbox.write`): a literal type in each kind. */
  readonly name: N;
  /** Validates a payload (from a handler, an edit or the database); throws naming the field. */
  parse(payload: unknown): P;
  /** Entity keys this entry must be ordered with; the first is its main entity. */
  keysOf(payload: P): string[];
  /** True when the entry deletes its main entity (a pull must not bring it back meanwhile). */
  readonly deletes?: boolean;
  /**
   * Keys of the items a delete removes besides its main entity (e.g. the subtasks a task delete
   * takes along): like the main entity, a pull neither re-adds them while it waits nor after it
   * was acknowledged. Keys it is ordered with but does not remove (a parent) are not among them.
   */
  removesAlso?(payload: P): string[];
  /**
   * For a delete: the fields of its item that the service (`item`, in the API's field names)
   * holds with other values than the item had when it was deleted here (`undo`): someone changed
   * it since it was read, and the delete is held until the user decides (rule 7).
   */
  changedSince?(payload: P, undo: unknown, item: Readonly<Record<string, unknown>>): string[];
  /** The temp id this entry creates, if it is a create. */

  createdIdOf?(payload: P): string | undefined;
  /** A short human label for lists ("Rename task", "Comment"). */
  describe(payload: P): string;
  /** The optimistic local change (rule 1: same transaction as the entry). */
  apply(ctx: ApplyContext, payload: P): Applied<P> | void;
  /**
   * Runs before each send (not before a look-up); what it answers is stored as the entry's
   * payload before the request goes out, so a later look-up sees it too. Creates whose answer
   * names no id use it to note what already existed at send time (rule 6: created after it).
   */
  prepare?(client: C, payload: P): Promise<P>;
  /**
   * Sends the request; `payload` has every temp id replaced by its real id. A send of several
   * requests wraps what follows its write in `afterApplied`, so a failure after the write was
   * answered leads to a look-up, never to a second write (rule 6).
   */
  send(client: C, payload: P, entry: OutboxEntry): Promise<R>;
  /** Folds the acknowledged result into the cache. */
  fold(ctx: FoldContext, payload: P, result: R, entry: OutboxEntry): Folded | void;
  /**
   * After an unknown outcome, finds whether the earlier request was applied (rule 6). Kinds whose
   * request is idempotent leave it out and are simply sent again.
   */
  lookUp?(client: C, payload: P, entry: OutboxEntry): Promise<LookUpResult<R>>;
  /** Undoes the optimistic change (rejected or discarded entry). */
  rollback(ctx: RollbackContext, payload: P, undo: unknown): void;
  /**
   * True when the entry's whole effect is its field claims (no message posted, no row made or
   * removed): a later entry that puts those fields back where they were withdraws it, and
   * nothing is sent (an undo of a change still waiting). `undo` is true when the later write
   * says it takes this one back: a change that also posts a message (a status change with one)
   * is withdrawn only then, its message with it (`withdrawn`).
   */
  withdrawable?(payload: P, undo: boolean): boolean;
  /**
   * Removes what a withdrawn entry made besides its field claims (a status change's message,
   * shown until then as a local row); its claimed fields already show the values put back.
   */
  withdrawn?(payload: P): void;
  /**
   * Merges a later payload into an earlier unsent one of the same kind and entity; answers
   * undefined when they cannot be merged. Only offered when the earlier entry is the last open
   * entry on each of its keys, so nothing is reordered.
   */
  merge?(earlier: P, later: P): P | undefined;
}

export interface Clock {
  now(): number;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export type Db = Database;
