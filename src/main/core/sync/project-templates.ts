import type { ProjectTemplate } from '../../../shared/api/index';
import { stamp, type SyncDeps } from './context';

/**
 * Stores the project templates (null: the service does not offer the list, so none are known)
 * and records that they were asked for, so an open New-project dialog does not ask again.
 */
export function storeProjectTemplates(deps: SyncDeps, templates: readonly ProjectTemplate[] | null): void {
  if (templates) deps.cache.org.projectTemplates.replace(templates);
  deps.cache.syncState.set('projectTemplates', stamp(deps.clock()));
}
