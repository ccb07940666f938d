import type { DependenciesResponse } from '../../../shared/api/dependencies';
import { dependencyRowsOf, type DependencyEnd, type DependencyKind } from '../cache/repos/dependencies';
import { RejectedError } from '../api/errors';
import type { Gate, SyncDeps } from './context';
import { stamp } from './context';
import { ACKED_ITEM, ackedSince } from './pending';

/** True for the service's 404: the item asked for is gone (or the part is not offered). */
export const isGone = (err: unknown): boolean => err instanceof RejectedError && err.status === 404;

/**
 * One on-demand read, what a view opens: run by `sync.onDemand.run` with the sync's deps and its
 * on-demand gate. Each resource keeps its reads in its descriptor file (`entities/*.ts`, e.g.
 * `taskReads.task(id)`), made from the item's id.
 */
export type OnDemandRead<T = 'ok' | 'gone'> = (deps: SyncDeps, gate: Gate) => Promise<T>;

/**
 * Runs a fetch of one item: 'ok' when it ran, 'gone' when the service answered 404 (then
 * `onGone` removes what the cache holds of it, in one transaction); other errors are thrown.
 */
export async function fetchUnlessGone(
  cache: Pick<SyncDeps['cache'], 'transaction'>,
  run: () => Promise<void>,
  onGone: () => void,
): Promise<'ok' | 'gone'> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    if (!isGone(err)) throw err;
    cache.transaction(onGone);
    return 'gone';
  }
}

/**
 * An item's dependencies as the service answered, pending local creates and deletes kept, and
 * those acknowledged after `mark` (the answer may predate them). Runs inside the caller's
 * transaction.
 */
export function storeDependencies(
  deps: SyncDeps,
  kind: DependencyKind,
  id: string,
  response: DependenciesResponse,
  mark?: number,
): void {
  const { cache, pending } = deps;
  // An item deleted here (its delete waiting, or acknowledged after the fetch began) took its
  // dependencies along, whatever its kind: the answer may still list them, but they must not
  // come back. The fetched item is an end of every dependency of its answer, so when it was
  // deleted here the answer stores nothing.
  const deletedHere = (end: DependencyEnd) =>
    !cache.dependencies.holdsEnd(end) &&
    (pending.isPendingStructural(end.kind, end.id) ||
      ackedSince(pending, end.kind, end.id, mark).has(ACKED_ITEM));
  // A dependency made here whose answer has not folded shows as its local row alone.
  const copies = pending.copiesOfUnfoldedCreates?.('dependency', dependencyRowsOf(kind, id, response));
  cache.dependencies.replaceFor(kind, id, response, {
    keep: (depId) =>
      pending.isPendingStructural('dependency', depId) ||
      ackedSince(pending, 'dependency', depId, mark).has(ACKED_ITEM),
    dropEnd: deletedHere,
    leaveOut: (depId) => copies?.has(depId) ?? false,
  });
  cache.syncState.set(`dependencies:${kind}:${id}`, stamp(deps.clock()));
}

/**
 * The on-demand fetches, what a view opens: `run` runs a resource's read (kept in its descriptor
 * file) with the sync's deps and the on-demand gate. Each read resolves 'ok' or 'gone' (the
 * service no longer has it: removed from the cache unless a local create or delete is pending)
 * and throws the client's errors otherwise (the handler then answers from the cache).
 */
export function createOnDemand(deps: SyncDeps, gate: Gate) {
  return {
    /** Runs a resource's on-demand read (e.g. `taskReads.task(id)`) with the sync's deps and gate. */
    run: <T>(read: OnDemandRead<T>): Promise<T> => read(deps, gate),
  };
}

export type OnDemand = ReturnType<typeof createOnDemand>;
