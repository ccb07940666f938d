// The Updates view: what pulls brought on the user's tasks, grouped by task, and the unread count
// the sidebar shows. Read state lives in the core (per account, in the cache).
import type { UpdateGroup } from '@shared/ipc/updates';
import type { Bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { describeError } from '../lib/errors';

export class UpdatesState {
  #groups = $state.raw<UpdateGroup[] | undefined>();
  #unread = $state<number | undefined>();
  #error = $state<string | undefined>();
  #seq = 0;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get groups(): readonly UpdateGroup[] | undefined {
    return this.#groups;
  }
  get unread(): number | undefined {
    return this.#unread;
  }
  get error(): string | undefined {
    return this.#error;
  }

  /** Follows the cache (a pull's tasks and messages bring updates); returns the unsubscribe. */
  start(): () => void {
    void this.load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onCacheChange(this.#bridge, ['tasks', 'messages', 'users', 'statuses'], () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void this.load();
      }, 100);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    try {
      const { groups, unread } = await this.#bridge.invoke('updates.list', {});
      if (seq !== this.#seq) return;
      this.#groups = groups;
      this.#unread = unread;
      this.#error = undefined;
    } catch (err) {
      if (seq === this.#seq) this.#error = describeError(err);
    }
  }

  isUnread(taskId: string): boolean {
    return this.#groups?.some((group) => group.taskId === taskId && group.unread > 0) ?? false;
  }

  async markRead(taskIds: readonly string[]): Promise<void> {
    if (!taskIds.length) return;
    await this.#bridge.invoke('updates.markRead', { taskIds: [...taskIds] }).catch(() => undefined);
    await this.load();
  }

  async markAllRead(): Promise<void> {
    await this.#bridge.invoke('updates.markAllRead', {}).catch(() => undefined);
    await this.load();
  }
}
