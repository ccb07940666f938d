// The dependencies of a project or an event (a task's come with its detail), read again when the
// cache says dependencies changed. Undefined while unread, or when the core has no such read.
import type { DependencyView } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { BridgeError } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { describeError } from '../lib/errors';

export class ItemDependencies {
  #rows = $state.raw<readonly DependencyView[] | undefined>();
  #error = $state<string | undefined>();
  readonly #bridge: Bridge;
  readonly #item: { kind: 'project' | 'event'; id: string };

  constructor(bridge: Bridge, item: { kind: 'project' | 'event'; id: string }) {
    this.#bridge = bridge;
    this.#item = item;
  }

  get rows(): readonly DependencyView[] | undefined {
    return this.#rows;
  }
  get error(): string | undefined {
    return this.#error;
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
      this.#error = undefined;
    } catch (err) {
      // An older core without the read: the panel says so and still offers adding one.
      if (err instanceof BridgeError && err.type === 'unknown-channel') this.#rows = undefined;
      else this.#error = describeError(err);
    }
  }
}
