// Subscriptions to cache changes narrowed to what a view shows, so it reads again only when
// one of its entities (and, when the core names them, one of its ids) changed.
import type { CacheEntity } from '@shared/ipc/events';
import type { Bridge } from './bridge';
import { coalescePerFrame, windowFrames, type FrameClock } from './frame-coalesce';

/**
 * Calls `refresh` once for a burst of changes to `entities` (a sync writes many at once): `ms`
 * after the first of them. Returns the unsubscribe, which also drops a refresh still waiting.
 */
export function onCacheBurst(
  bridge: Bridge,
  entities: readonly CacheEntity[],
  ms: number,
  refresh: () => void,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = onCacheChange(bridge, entities, () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      refresh();
    }, ms);
  });
  return () => {
    off();
    clearTimeout(timer);
  };
}

/**
 * Calls `listener` when one of `entities` changed (and, when `ids` names some and the change
 * names its ids, one of those): at most once per animation frame, however many changes came
 * in it. Also when the connection to the core comes back after it was lost: the changes made
 * meanwhile were not heard, and a read made meanwhile failed, so every view on screen reads
 * again once by itself. Returns the unsubscribe, which also drops a call still waiting for its
 * frame.
 */
export function onCacheChange(
  bridge: Bridge,
  entities: readonly CacheEntity[],
  listener: () => void,
  ids?: () => readonly string[] | undefined,
  frames: FrameClock = windowFrames,
): () => void {
  const perFrame = coalescePerFrame(listener, frames);
  const off = bridge.on('cache.onDidChange', (change) => {
    const touched = change.entities.filter((entity) => entities.includes(entity));
    if (!touched.length) return;
    const watched = ids?.();
    if (watched && change.ids) {
      const named = touched.flatMap((entity) => change.ids?.[entity] ?? null);
      // A touched entity without ids means "any of them"; otherwise only our ids matter.
      const anyOf = touched.some((entity) => !change.ids?.[entity]);
      if (!anyOf && !named.some((id) => id !== null && watched.includes(id))) return;
    }
    perFrame.request();
  });
  const offReconnect = bridge.onConnection((connected) => {
    if (connected) perFrame.request();
  });
  return () => {
    off();
    offReconnect();
    perFrame.cancel();
  };
}
