import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

export function syncHandlers(deps: ReadDeps): HandlerMap<'sync.status' | 'sync.now'> {
  return {
    'sync.status': () => deps.sync.status(),
    'sync.now': async ({ wait }) => {
      const run = deps.sync.now();
      return wait ? await run : deps.sync.status();
    },
  };
}
