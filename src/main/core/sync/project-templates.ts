import type { ProjectTemplate } from '../../../shared/api/org';
import type { Cache } from '../cache/cache';
import { stamp, type SyncDeps } from './context';

/** The sync-state keys: when the list was asked (and whether it was offered), the ids that worked. */
const ASKED = 'projectTemplates';
const TRIED = 'projectTemplates:tried';
const WORKED = 'projectTemplates:worked';

/**
 * Stores the project templates (null: the service does not offer the list, so none are known),
 * keeping the cached ones `keep` protects (those whose list element could not be read), and records that they were asked for, and whether offered, so an open New-project dialog does
 * not ask again and knows to take a typed id.
 */
export function storeProjectTemplates(
  deps: SyncDeps,
  templates: readonly ProjectTemplate[] | null,
  keep?: (id: string) => boolean,
): void {
  if (templates) deps.cache.org.projectTemplates.replace(templates, keep);
  deps.cache.syncState.set(ASKED, stamp(deps.clock()), { offered: templates !== null });
}

/** False when the service answered 404 for the template list at its last asking. */
export function templatesOffered(cache: Pick<Cache, 'syncState'>): boolean {
  const value = cache.syncState.get(ASKED)?.value as { offered?: boolean } | null | undefined;
  return value?.offered !== false;
}

type Tried = Record<string, { templateId: string; projectName: string }>;

const tried = (cache: Pick<Cache, 'syncState'>): Tried =>
  (cache.syncState.get(TRIED)?.value as Tried | null | undefined) ?? {};

/**
 * The template ids typed by the user (the service lists none) that made a project the service
 * acknowledged: this account's, most recent first, named after the project they made.
 */
export function workedTemplates(cache: Pick<Cache, 'syncState'>): ProjectTemplate[] {
  return (cache.syncState.get(WORKED)?.value as ProjectTemplate[] | null | undefined) ?? [];
}

/** A new project queued with a typed template id, under its local id until acknowledged. */
export function noteTriedTemplate(
  cache: Pick<Cache, 'syncState'>,
  at: string,
  localId: string,
  templateId: string,
  projectName: string,
): void {
  cache.syncState.set(TRIED, at, { ...tried(cache), [localId]: { templateId, projectName } });
}

/**
 * The project made under `localId` was acknowledged (its id remapped): its template id worked
 * and is remembered. A refused create is never remapped, so its id is never remembered.
 */
export function templateWorked(cache: Pick<Cache, 'syncState'>, at: string, localId: string): void {
  const all = tried(cache);
  const hit = all[localId];
  if (!hit) return;
  delete all[localId];
  cache.syncState.set(TRIED, at, all);
  const worked = workedTemplates(cache).filter((t) => t.id !== hit.templateId);
  const named = { id: hit.templateId, name: `${hit.templateId} (made "${hit.projectName}")` };
  cache.syncState.set(WORKED, at, [named, ...worked].slice(0, 20));
}
