import type { EventName, EventPayload } from '../../shared/ipc/events';

type Listener = (name: EventName, payload: unknown) => void;

/** Fan-out of core events to every transport (Electron windows, WebSocket clients, tests). */
export class EventHub {
  readonly #listeners = new Set<Listener>();

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) listener(name, payload);
  }

  /** Listens to every event; returns the unsubscribe. */
  onAny(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
