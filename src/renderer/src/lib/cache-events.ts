// Subscriptions to cache changes narrowed to what a view shows, so it reads again only when
// one of its entities (and, when the core names them, one of its ids) changed.
import type { CacheEntity } from '@shared/ipc/events';
import type { Bridge } from './bridge';

export function onCacheChange(
  bridge: Bridge,
  entities: readonly CacheEntity[],
  listener: () => void,
  ids?: () => readonly string[] | undefined,
): () => void {
  return bridge.on('cache.onDidChange', (change) => {
    const touched = change.entities.filter((entity) => entities.includes(entity));
    if (!touched.length) return;
    const watched = ids?.();
    if (watched && change.ids) {
      const named = touched.flatMap((entity) => change.ids?.[entity] ?? null);
      // A touched entity without ids means "any of them"; otherwise only our ids matter.
      const anyOf = touched.some((entity) => !change.ids?.[entity]);
      if (!anyOf && !named.some((id) => id !== null && watched.includes(id))) return;
    }
    listener();
  });
}
