/**
 * The listeners of one event. Each is called on its own: one that throws (a window closing while
 * `webContents.send` runs, a transport gone) is logged and neither stops the others nor reaches
 * the emitter, whose work (a committed acknowledgement, a pull) is done by the time it tells.
 */
export class Listeners<A extends unknown[]> {
  readonly #set = new Set<(...args: A) => void>();
  readonly #name: string;
  readonly #log: (message: string) => void;

  /** `name` says whose event it is in the log line of a listener that threw. */
  constructor(name: string, log: (message: string) => void) {
    this.#name = name;
    this.#log = log;
  }

  get size(): number {
    return this.#set.size;
  }

  /** Adds a listener; returns its unsubscribe. */
  add(listener: (...args: A) => void): () => void {
    this.#set.add(listener);
    return () => this.#set.delete(listener);
  }

  emit(...args: A): void {
    for (const listener of [...this.#set]) {
      try {
        listener(...args);
      } catch (err) {
        try {
          this.#log(`${this.#name}: a listener failed: ${err instanceof Error ? err.message : String(err)}`);
        } catch {
          // The log itself failed (e.g. its stream closed): nothing is left to tell.
        }
      }
    }
  }
}
