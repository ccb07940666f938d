import { dependencyReads } from '../entities/calendar';
import type { OnDemandRead } from '../sync/on-demand';
import type { HandlerMap } from './types';
import { fetchOrServeCache, isServiceId, type ReadDeps } from './read-deps';

/**
 * How long fetched dependencies of an event or a project are served without asking again. They
 * have no activity moment to say they changed (a task's do), so age is the only signal.
 */
export const DEPENDENCIES_MAX_AGE_MS = 60_000;

export function dependencyReadHandlers(
  deps: ReadDeps,
): HandlerMap<'dependencies.ofProject' | 'dependencies.ofEvent'> {
  const { cache, sync } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** Fetches an item's dependencies when never fetched or older than the max age. */
  async function refresh(kind: 'event' | 'project', id: string, read: (id: string) => OnDemandRead) {
    if (!isServiceId(id)) return;
    const last = cache.syncState.get(`dependencies:${kind}:${id}`);
    if (last && clock().getTime() - new Date(last.fetchedAt).getTime() < DEPENDENCIES_MAX_AGE_MS) return;
    await fetchOrServeCache(deps, () => sync.onDemand.run(read(id)));
  }

  return {
    async 'dependencies.ofProject'({ projectId }) {
      await refresh('project', projectId, dependencyReads.ofProject);
      return cache.dependencies.listFor(projectId);
    },
    async 'dependencies.ofEvent'({ eventId }) {
      await refresh('event', eventId, dependencyReads.ofEvent);
      return cache.dependencies.listFor(eventId);
    },
  };
}
