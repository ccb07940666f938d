import type { ProjectPart } from '../../../shared/ipc/projects';
import type { Cache } from '../cache/cache';

const keyOf = (projectId: string): string => `notOffered:${projectId}`;

/**
 * The side parts of a project (members, history, documents, dependencies) the service answered
 * 404 for while the project itself was there: "not offered by this service", shown as such in
 * the project overview, never read as the project being gone.
 */
export function notOfferedParts(cache: Pick<Cache, 'syncState'>, projectId: string): ProjectPart[] {
  const value = cache.syncState.get(keyOf(projectId))?.value;
  return Array.isArray(value) ? (value as ProjectPart[]) : [];
}

/** Records whether a side part of a project was offered at its last read. */
export function markOffered(
  cache: Pick<Cache, 'syncState'>,
  projectId: string,
  part: ProjectPart,
  offered: boolean,
  at: string,
): void {
  const parts = new Set(notOfferedParts(cache, projectId));
  if (offered ? !parts.delete(part) : parts.has(part) || !parts.add(part)) return;
  cache.syncState.set(keyOf(projectId), at, [...parts].sort());
}
