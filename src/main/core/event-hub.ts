import type { EventName, EventPayload } from '../../shared/ipc/events';
import { Listeners } from './listeners';

type Listener = (name: EventName, payload: unknown) => void;

/**
 * Fan-out of core events to every transport (Electron windows, WebSocket clients, tests). Each
 * listener runs isolated (see `Listeners`): a transport that throws is logged, and the core
 * code that emitted (an outbox acknowledgement, a pull) never sees it.
 */
export class EventHub {
  readonly #listeners: Listeners<[name: EventName, payload: unknown]>;

  constructor(log: (message: string) => void = () => {}) {
    this.#listeners = new Listeners('events', log);
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.#listeners.emit(name, payload);
  }

  /** Listens to every event; returns the unsubscribe. */
  onAny(listener: Listener): () => void {
    return this.#listeners.add(listener);
  }
}
