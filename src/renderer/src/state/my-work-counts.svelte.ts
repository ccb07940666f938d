// The counts beside My Work in the sidebar: open tasks needing the acting user's action, and
// open tasks assigned to them.
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';

export class MyWorkCounts {
  #action = $state<number | undefined>();
  #assigned = $state<number | undefined>();
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get action(): number | undefined {
    return this.#action;
  }
  get assigned(): number | undefined {
    return this.#assigned;
  }

  start(): () => void {
    void this.load();
    return onCacheChange(this.#bridge, ['tasks', 'users'], () => void this.load());
  }

  async load(): Promise<void> {
    const count = (kind: 'actionRequired' | 'assigned'): Promise<number | undefined> =>
      this.#bridge
        .invoke('tasks.myWork', { kind, limit: 1 })
        .then((window) => window.total)
        .catch(() => undefined);
    const [action, assigned] = await Promise.all([count('actionRequired'), count('assigned')]);
    this.#action = action;
    this.#assigned = assigned;
  }
}
