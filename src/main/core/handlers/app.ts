import type { HandlerMap } from './types';

export interface AppHandlerDeps {
  version: string;
  transport: 'electron' | 'web';
}

export function appHandlers(deps: AppHandlerDeps): HandlerMap<'app.info'> {
  return {
    'app.info': () => ({
      name: 'Workdesk',
      version: deps.version,
      coreRuntime: `Node ${process.version}`,
      transport: deps.transport,
    }),
  };
}
