import type { CacheEntity, ResourceName } from '../../../shared/entities';
import type { ServiceClient } from '../api/client';
import type { Cache } from '../cache/cache';
import type { DependencyKind } from '../cache/repos/dependencies';
import type { OnDemandRead } from '../sync/on-demand';
import type { PullPart } from '../sync/pull';

/**
 * A cache table a resource keeps its rows in, with the columns that may hold a local id (an item
 * created offline): the outbox puts the real id in all of them when the create is acknowledged
 * (rule 5, `outbox/remap-cache.ts`). A column left out keeps the local id, which then dangles.
 */
export interface CacheTable {
  name: string;
  /** The primary key, when it is the id of an item that may be created offline. */
  localId?: string;
  /** Columns referring to such an item (a task's project, a message's task). */
  refs?: readonly string[];
  /** JSON columns holding arrays of such ids. */
  jsonRefs?: readonly string[];
  /**
   * Views besides its resource's own that show its rows (an open task shows its linked
   * contacts): told as well when a remap rewrites the table.
   */
  shownIn?: readonly CacheEntity[];
}

/** What "take theirs" of a conflict may use: the outbox's queue and the cache. */
export interface TheirsContext {
  /** Queues a change through the outbox (as the write handlers do). */
  submit(kind: string, payload: unknown): void;
  newLocalRowId(): string;
  cache: Cache;
}

/**
 * An item as the service holds it now, in the API's field names, read for the check before a
 * send (rule 7): `source.at` is when it last changed there, where the service says.
 */
export interface CheckedItem {
  readonly values: Readonly<Record<string, unknown>>;
  readonly source: { readonly at?: string | null };
}

/**
 * How the check before a send (rule 7, `outbox/README.md`) reads this resource's items from the
 * service, for its changes with field claims and its deletes.
 */
export interface SendCheckReads {
  /**
   * Read one for the check: the item, or null when the service no longer has it (a 404 reads as
   * null too, without the hook's help).
   */
  one(client: ServiceClient, id: string): Promise<CheckedItem | null>;
  /**
   * Read several along: items in `along` (ids with changes waiting for a read) read together
   * with `id` in one request, by id; one missing is read on its own later. Undefined when one
   * request would not pay, and `id` is read alone.
   */
  along?(
    cache: Cache,
    client: ServiceClient,
    id: string,
    along: readonly string[],
  ): Promise<ReadonlyMap<string, CheckedItem> | undefined>;
}

/**
 * One item's on-demand read (run by `sync.onDemand.run`, `sync/on-demand.ts`): 'ok', or 'gone'
 * from the service.
 */
export type Fetch = (id: string) => OnDemandRead;

/**
 * One resource, described once: everything the core does per resource reads it here.
 * `R` is its name in `src/shared/entities.ts`.
 */
export type EntityDescriptor<R extends ResourceName> = {
  /**
   * The views a local change of it refreshes (the outbox's `cache.onDidChange` for the keys
   * `R:id` of a change) and, in `idsOf`, the view whose ids are the change's ids.
   */
  views: readonly CacheEntity[];
  idsOf?: CacheEntity;
  /** Its cache tables and their id columns (a resource kept in no table of its own has none). */
  tables: readonly CacheTable[];
  /** How a pull lists it: its parts, each standing alone. None when it is read only on demand. */
  pull: readonly PullPart[];
  /**
   * How one item is fetched (a reload of a stuck change settles it this way); without it the
   * item comes with a whole pull.
   */
  fetch?: Fetch;
  /**
   * "Take theirs" of a conflict on one field: queues the change that puts the service's value
   * back. False when the field cannot be taken (the user is told); absent: no field can.
   */
  takeTheirs?(ctx: TheirsContext, id: string, field: string, value: unknown): boolean;
  /** The item's name as the cache holds it (null when not cached), for conflicts. */
  nameOf?(cache: Cache, id: string): string | null;
  /** How the check before a send reads it; absent: its changes are sent unchecked. */
  check?: SendCheckReads;
} & (R extends DependencyKind
  ? {
      /** An end of dependencies: how its dependency list is fetched (a pull never fetches them). */
      dependencies: Fetch;
    }
  : { dependencies?: never });

/** Every resource's descriptor: one missing (or one too many) does not compile. */
export type Entities = { readonly [R in ResourceName]: EntityDescriptor<R> };
