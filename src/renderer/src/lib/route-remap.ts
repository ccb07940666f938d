// When the service acknowledges an item created offline, its local id becomes the real one.
// Places that name the local id (the open task, a history entry, a project) are rewritten so
// they keep showing the same item.
import type { Route } from '../views/routes';

/** The route with every id field (`...Id`) equal to `tempId` set to `realId`; the same object if none. */
export function remapRoute(route: Route, tempId: string, realId: string): Route {
  let changed = false;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(route)) {
    if (key.endsWith('Id') && value === tempId) {
      next[key] = realId;
      changed = true;
    } else next[key] = value;
  }
  return changed ? (next as Route) : route;
}
