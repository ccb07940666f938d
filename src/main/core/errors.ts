// A leaf module: errors any layer of the core may throw, importing nothing of the core.
import type { IpcError } from '../../shared/ipc/channel';

/** An error a handler throws to answer with a specific IPC error type. */
export class HandlerError extends Error {
  constructor(
    readonly type: IpcError['type'],
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
