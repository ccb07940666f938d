import type { Cache } from '../cache/cache';
import type { Sync } from '../sync/sync';
import type { ServiceClockState } from '../api/service-clock';
import type { CustomFieldValueView } from '../../../shared/ipc/org';
import { HandlerError } from '../errors';
import { isTempId } from '../local-ids';

/** What the read handlers need: the cache to answer from and the sync for on-demand fetches. */
export interface ReadDeps {
  cache: Cache;
  sync: Sync;
  /** The account's acting user (My Work default). */
  userId: string;
  log: (message: string) => void;
  /** For the age of cached on-demand parts; the system clock when absent. */
  clock?: () => Date;
  /** The service's clock, named in the sync status (the spec's local time when absent). */
  serviceClock?: Pick<ServiceClockState, 'current'>;
}

/**
 * False for the local id of an item created offline and not yet acknowledged: the service does
 * not know it, so asking would only answer 404 (and a 404 reads as "gone").
 */
export function isServiceId(id: string): boolean {
  return !isTempId(id);
}

/**
 * Runs an on-demand fetch and reports whether the item is gone from the service. A failure
 * (offline, refused token, server trouble) is logged and the handler answers from the cache.
 */
export async function fetchOrServeCache(
  deps: ReadDeps,
  fetch: () => Promise<'ok' | 'gone'>,
): Promise<boolean> {
  // Known to be offline, the cache answers at once: a fetch would only hold the view until it
  // failed (a refused connection is retried, a lost network waits for the timeout), and then the
  // cache answers anyway. The sync's probe brings the app back online, and its pull the item.
  if (!deps.sync.status().online) return false;
  try {
    return (await fetch()) === 'gone';
  } catch (err) {
    deps.log(
      `on-demand fetch failed, answering from the cache: ${err instanceof Error ? err.message : String(err)}`,
    );
    return false;
  }
}

/**
 * Brings an item the view opens up to date when `stale`: a service item is fetched on demand
 * (a failure is logged and the cache answers; "gone" answers not-found naming `field`), while
 * a local id is never asked about, whatever its bookkeeping says.
 */
export async function refreshOpened(
  deps: ReadDeps,
  item: { what: string; id: string; field: string },
  stale: boolean,
  fetch: () => Promise<'ok' | 'gone'>,
): Promise<void> {
  if (!stale || !isServiceId(item.id)) return;
  if (await fetchOrServeCache(deps, fetch)) notFound(item.what, item.id, item.field);
}

export function notFound(what: string, id: string, field: string): never {
  throw new HandlerError('not-found', `${what} ${id} is not in the cache`, field);
}

/** Custom-field values beside their cached definitions, in the definitions' order. */
export function customFieldValues(cache: Cache, data: Record<string, unknown>): CustomFieldValueView[] {
  const defs = new Map(cache.org.customFields.all().map((d, i) => [d.id, { d, i }]));
  return Object.entries(data)
    .map(([fieldId, value]) => ({
      fieldId,
      definition: defs.get(fieldId)?.d ?? null,
      value,
      order: defs.get(fieldId)?.i ?? 1e9,
    }))
    .sort((a, b) => a.order - b.order || a.fieldId.localeCompare(b.fieldId))
    .map(({ order: _order, ...rest }) => rest);
}
