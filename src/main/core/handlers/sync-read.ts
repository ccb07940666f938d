import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';

export function syncHandlers(deps: ReadDeps): HandlerMap<'sync.status' | 'sync.now'> {
  // The renderer reads the service's stamps on the clock the status names.
  const withClock = <S extends object>(status: S) => ({
    ...status,
    serviceClock: deps.serviceClock?.current() ?? 'local',
  });
  return {
    'sync.status': () => withClock(deps.sync.status()),
    'sync.now': async ({ wait }) => {
      const run = deps.sync.now();
      return withClock(wait ? await run : deps.sync.status());
    },
  };
}
