// The dependencies of a project or an event (a task's come with its detail), read again when the
// cache says dependencies changed. Undefined while unread, or when the core has no such read.
import type { DependencyView } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { BridgeError } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { ListReadError } from '../lib/list-read-error.svelte';

export class ItemDependencies {
  #rows = $state.raw<readonly DependencyView[] | undefined>();
  readonly #error = new ListReadError();
  /** Whether a read has answered: its rows are kept when a later one fails. */
  #answered = false;
  readonly #bridge: Bridge;
  readonly #item: { kind: 'project' | 'event'; id: string };

  constructor(bridge: Bridge, item: { kind: 'project' | 'event'; id: string }) {
    this.#bridge = bridge;
    this.#item = item;
  }

  get rows(): readonly DependencyView[] | undefined {
    return this.#rows;
  }
  /** The error shown instead of the links (nothing read yet to keep). */
  get error(): string | undefined {
    return this.#error.shown;
  }
  /** The error of a read again, shown above the links kept from the last one. */
  get keptError(): string | undefined {
    return this.#error.kept;
  }

  start(): () => void {
    void this.load();
    return onCacheChange(this.#bridge, ['dependencies'], () => void this.load());
  }

  async load(): Promise<void> {
    const { kind, id } = this.#item;
    try {
      this.#rows =
        kind === 'project'
          ? await this.#bridge.invoke('dependencies.ofProject', { projectId: id })
          : await this.#bridge.invoke('dependencies.ofEvent', { eventId: id });
      this.#answered = true;
      this.#error.cleared();
    } catch (err) {
      // An older core without the read: the panel says so and still offers adding one.
      if (err instanceof BridgeError && err.type === 'unknown-channel') this.#rows = undefined;
      else this.#error.failed(err, this.#answered, kind === 'project' ? 'projectId' : 'eventId');
    }
  }
}
