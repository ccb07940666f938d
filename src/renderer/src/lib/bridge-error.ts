// The error of a failed bridge call, in a module of its own: the bridge's module makes the app's
// bridge as it loads (it needs a window), and unit tests of the state modules use this without it.
import type { IpcError } from '@shared/ipc/channel';

/**
 * The error of a call the bridge failed itself because its connection to the core was lost (or
 * refused while it is tried again), not an answer of the core: `lostConnection` tells it from an
 * `offline` answer the core gives with the connection kept.
 */
export interface TransportError extends IpcError {
  lostConnection?: boolean;
}

/** The error the web transport gives a call when its connection to the core is lost. */
export function lostConnectionError(message: string): TransportError {
  return { type: 'offline', message, lostConnection: true };
}

/** A failed bridge call, carrying the core's error type and the field it names. */
export class BridgeError extends Error {
  readonly type: IpcError['type'];
  readonly field: string | undefined;
  /** The bridge failed the call itself: its connection to the core was lost (`TransportError`). */
  readonly lostConnection: boolean;
  constructor(error: TransportError) {
    super(error.message);
    this.type = error.type;
    this.field = error.field;
    this.lostConnection = error.lostConnection === true;
  }
}
