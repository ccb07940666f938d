import { channelNames, type ChannelName } from '../../../shared/ipc/contract';
import type { Handler, HandlerMap } from './types';

/**
 * Merges the per-domain handler maps into one. Two maps claiming one channel, a handler for a
 * channel the contract does not declare, or (with `requireAll`) a declared channel with no
 * handler are start-up errors, not silent overrides.
 */
export function mergeHandlerMaps(
  maps: Partial<HandlerMap>[],
  { requireAll = false }: { requireAll?: boolean } = {},
): Partial<HandlerMap> {
  const merged: Partial<Record<ChannelName, Handler<ChannelName>>> = {};
  const declared = new Set<string>(channelNames);
  for (const map of maps) {
    for (const [name, handler] of Object.entries(map)) {
      if (!declared.has(name)) throw new Error(`Handler for undeclared channel "${name}"`);
      if (merged[name as ChannelName]) throw new Error(`Two handlers registered for channel "${name}"`);
      merged[name as ChannelName] = handler as Handler<ChannelName>;
    }
  }
  if (requireAll) {
    const missing = channelNames.filter((name) => !merged[name]);
    if (missing.length) throw new Error(`No handler for channels: ${missing.join(', ')}`);
  }
  return merged as Partial<HandlerMap>;
}
