// The error of a failed bridge call, in a module of its own: the bridge's module makes the app's
// bridge as it loads (it needs a window), and unit tests of the state modules use this without it.
import type { IpcError } from '@shared/ipc/channel';

/** A failed bridge call, carrying the core's error type and the field it names. */
export class BridgeError extends Error {
  readonly type: IpcError['type'];
  readonly field: string | undefined;
  constructor(error: IpcError) {
    super(error.message);
    this.type = error.type;
    this.field = error.field;
  }
}
