import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

export function orgReadHandlers(
  deps: ReadDeps,
): HandlerMap<'org.users' | 'org.statuses' | 'org.taskTypes' | 'org.customFields' | 'org.tags'> {
  const { org } = deps.cache;
  return {
    'org.users': () => org.users.all(),
    'org.statuses': () => org.statuses.all(),
    'org.taskTypes': () => org.taskTypes.all(),
    'org.customFields': () => org.customFields.all(),
    'org.tags': () => org.tags.all(),
  };
}
