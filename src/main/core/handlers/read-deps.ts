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
 * How an on-demand fetch of what a view opens went: the service answered (`ok`, `gone`), it was
 * not asked (`cached`: fresh enough, a local id, or known to be offline), or the ask failed
 * (`failed`: offline meanwhile, a refused token, server trouble), and the cache answers alone.
 */
export type Asked = 'ok' | 'gone' | 'cached' | 'failed';

/** Runs an on-demand fetch unless known to be offline; a failure is logged, never thrown. */
async function ask(deps: ReadDeps, fetch: () => Promise<'ok' | 'gone'>): Promise<Asked> {
  // Known to be offline, the cache answers at once: a fetch would only hold the view until it
  // failed (a refused connection is retried, a lost network waits for the timeout), and then the
  // cache answers anyway. The sync's probe brings the app back online, and its pull the item.
  if (!deps.sync.status().online) return 'cached';
  try {
    return await fetch();
  } catch (err) {
    deps.log(
      `on-demand fetch failed, answering from the cache: ${err instanceof Error ? err.message : String(err)}`,
    );
    return 'failed';
  }
}

/**
 * Runs an on-demand fetch and reports whether the item is gone from the service. A failure
 * (offline, refused token, server trouble) is logged and the handler answers from the cache.
 */
export async function fetchOrServeCache(
  deps: ReadDeps,
  fetch: () => Promise<'ok' | 'gone'>,
): Promise<boolean> {
  return (await ask(deps, fetch)) === 'gone';
}

/**
 * Brings an item the view opens up to date when `stale`: a service item is fetched on demand
 * (a failure is logged and the cache answers; "gone" answers not-found naming `field`), while
 * a local id is never asked about, whatever its bookkeeping says. Answers how the ask went, for
 * `notHeld` when the cache does not hold the item.
 */
export async function refreshOpened(
  deps: ReadDeps,
  item: { what: string; id: string; field: string },
  stale: boolean,
  fetch: () => Promise<'ok' | 'gone'>,
): Promise<Asked> {
  if (!stale || !isServiceId(item.id)) return 'cached';
  const asked = await ask(deps, fetch);
  if (asked === 'gone') notFound(item.what, item.id, item.field);
  return asked;
}

export function notFound(what: string, id: string, field: string): never {
  throw new HandlerError('not-found', `${what} ${id} is not in the cache`, field);
}

/**
 * The answer for an item the cache does not hold after `refreshOpened`: not-found naming `field`,
 * unless the service was asked about it and the ask failed. Then the item may well exist (a task
 * with time in My Time that the cache never held), and a view must not call it deleted: the
 * answer says it could not be checked (`offline`: the service could not answer now), naming the
 * argument the item was asked by, so a view tells it from an `offline` of the whole core (a core
 * restarting, a socket lost), where the item may well still be held.
 */
export function notHeld(what: string, id: string, field: string, asked: Asked): never {
  if (asked === 'failed')
    throw new HandlerError(
      'offline',
      `The service did not answer about this ${what.toLowerCase()} just now (${id}, not kept here); try again`,
      field,
    );
  notFound(what, id, field);
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
