// The Updates view: what pulls brought on the user's tasks, grouped by task, and the unread count
// the sidebar shows. Read state lives in the core (per account, in the cache).
import { noticeKindOf, type NoticeOfUpdate, type UpdateGroup } from '@shared/ipc/updates';
import type { Bridge } from '../lib/bridge';
import { onCacheBurst } from '../lib/cache-events';
import { describeError } from '../lib/errors';
import { createRunWrite, type RunWrite } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';

export class UpdatesState {
  #groups = $state.raw<UpdateGroup[] | undefined>();
  #unread = $state<number | undefined>();
  #error = $state<string | undefined>();
  #seq = 0;
  #seenId: number | undefined;
  readonly #bridge: Bridge;
  /** Writes go on the write path through the same bridge. */
  readonly #runWrite: RunWrite;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
    this.#runWrite = createRunWrite(bridge, toasts);
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
    return onCacheBurst(
      this.#bridge,
      ['tasks', 'messages', 'users', 'statuses'],
      100,
      () => void this.load(),
    );
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    try {
      const { groups, unread } = await this.#bridge.invoke('updates.list', {});
      if (seq !== this.#seq) return;
      this.#announce(groups);
      this.#groups = groups;
      this.#unread = unread;
      this.#error = undefined;
    } catch (err) {
      if (seq === this.#seq) this.#error = describeError(err);
    }
  }

  /**
   * Toasts what arrived since the last read, per task and kind, as the settings say. The first
   * read is the baseline: what was there when the app opened is not news.
   */
  #announce(groups: readonly UpdateGroup[]): void {
    const newest = Math.max(0, ...groups.flatMap((group) => group.items.map((item) => item.id)));
    const seen = this.#seenId;
    this.#seenId = Math.max(seen ?? 0, newest);
    if (seen === undefined || !this.announce) return;
    let shown = 0;
    for (const group of groups) {
      const kinds = group.items
        .filter((item) => item.id > seen && !item.read)
        .flatMap((item) => noticeKindOf(item, group) ?? []);
      // One notice per kind and task, at most three in all.
      for (const kind of kinds.filter((k, i) => kinds.indexOf(k) === i))
        if (shown++ < 3) this.announce(kind, group);
    }
  }

  /** Shows one notice (set by the app: a toast when the settings want one). */
  announce: ((kind: NoticeOfUpdate, group: UpdateGroup) => void) | undefined;

  isUnread(taskId: string): boolean {
    return this.#groups?.some((group) => group.taskId === taskId && group.unread > 0) ?? false;
  }

  /** A mark the core refuses is not told: the list read after it shows what the core holds. */
  async markRead(taskIds: readonly string[]): Promise<void> {
    if (!taskIds.length) return;
    await this.#runWrite('updates.markRead', { taskIds: [...taskIds] });
    await this.load();
  }

  async markAllRead(): Promise<void> {
    await this.#runWrite('updates.markAllRead', {});
    await this.load();
  }
}
