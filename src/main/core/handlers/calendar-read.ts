import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

export function calendarReadHandlers(deps: ReadDeps): HandlerMap<'events.list'> {
  return {
    'events.list': ({ from, to, types, projectId }) => deps.cache.events.list({ from, to, types, projectId }),
  };
}
