import { channels, isChannelName, type ChannelName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/channel';
import { invalidArgument } from '../../shared/errors';
import { HandlerError } from './errors';
import type { Handler, HandlerMap } from './handlers/types';

export type Dispatch = (channel: unknown, arg: unknown) => Promise<IpcResult<unknown>>;

/**
 * The one entry point both transports (Electron IPC and the web host's WebSocket) call.
 * Contract: an unknown channel or an argument that fails its schema answers an error and
 * calls no handler; a handler's throw becomes `{ok: false}`, never a rejected promise.
 */
export function createDispatch(handlers: Partial<HandlerMap>, log?: (message: string) => void): Dispatch {
  return async (channel, arg) => {
    if (!isChannelName(channel)) {
      return {
        ok: false,
        error: { type: 'unknown-channel', message: `Unknown channel: ${String(channel).slice(0, 80)}` },
      };
    }
    const handler = handlers[channel] as Handler<ChannelName> | undefined;
    if (!handler) {
      return { ok: false, error: { type: 'unknown-channel', message: `Channel not available: ${channel}` } };
    }
    const parsed = channels[channel].input.safeParse(arg);
    if (!parsed.success) return { ok: false, error: invalidArgument(parsed.error) };
    try {
      const value = await handler(parsed.data as never);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof HandlerError) {
        return {
          ok: false,
          error: { type: err.type, message: err.message, ...(err.field ? { field: err.field } : {}) },
        };
      }
      // The disk (or a database's size limit) is full: the transaction rolled back as a whole,
      // so the change was not saved and nothing saved before is touched.
      if ((err as { code?: unknown } | null)?.code === 'SQLITE_FULL') {
        log?.(`handler ${channel}: the disk is full`);
        return {
          ok: false,
          error: {
            type: 'rejected',
            message:
              'The disk is full: this change was not saved (nothing saved before was lost). Free some space and try again',
          },
        };
      }
      log?.(`handler ${channel} failed: ${err instanceof Error ? err.stack : String(err)}`);
      return {
        ok: false,
        error: { type: 'internal', message: err instanceof Error ? err.message : String(err) },
      };
    }
  };
}
