import { EventHub } from './event-hub';
import { createDispatch, type Dispatch } from './dispatch';
import { mergeHandlerMaps } from './handlers/registry';
import { appHandlers } from './handlers/app';

export interface CoreOptions {
  version: string;
  transport: 'electron' | 'web';
  log?: (message: string) => void;
}

export interface Core {
  dispatch: Dispatch;
  events: EventHub;
  close(): Promise<void>;
}

/**
 * The composition root of the core, shared by the Electron shell and the web host. It holds
 * no electron import, so everything it builds runs under plain Node.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const events = new EventHub();
  const handlers = mergeHandlerMaps([
    appHandlers({ version: options.version, transport: options.transport }),
  ]);
  return {
    dispatch: createDispatch(handlers, options.log),
    events,
    async close() {},
  };
}
