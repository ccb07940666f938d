// The Action required inbox: its rows (who handed each task over, when, the thread's last word,
// unread marks) and the unread count the sidebar shows. Read state lives in the core (per
// account, in the cache); here a change is shown at once and then read back.
import { INBOX_FIRST_PAGE, type InboxRow } from '@shared/ipc/inbox';
import type { Bridge } from '../lib/bridge';
import { onCacheBurst } from '../lib/cache-events';
import { describeError } from '../lib/errors';
import { createRunWrite, type RunWrite } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';
import { afterFirstScreen } from '../lib/when-idle';
import { oneAtATime } from '../lib/one-at-a-time';

/** Rows read first at start, before the whole list (shared with the core, which reads them ahead). */
export { INBOX_FIRST_PAGE };

export class InboxState {
  #rows = $state.raw<InboxRow[] | undefined>();
  /** The whole list's length; more than `rows` while only the first page is read. */
  #total = $state<number | undefined>();
  #error = $state<string | undefined>();
  #seq = 0;
  readonly #bridge: Bridge;
  /** Writes go on the write path through the same bridge. */
  readonly #runWrite: RunWrite;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
    this.#runWrite = createRunWrite(bridge, toasts);
  }

  get rows(): readonly InboxRow[] | undefined {
    return this.#rows;
  }
  get error(): string | undefined {
    return this.#error;
  }
  /** How many tasks the inbox holds (known before every row is read). */
  get total(): number | undefined {
    return this.#total ?? this.#rows?.length;
  }
  /** Tasks with something new since the user last read them; unknown until every row is read. */
  get unread(): number | undefined {
    if (this.#rows && this.#total !== undefined && this.#rows.length < this.#total) return undefined;
    return this.#rows?.filter((row) => row.unread).length;
  }

  /**
   * Follows the cache (tasks, their messages, users); returns the unsubscribe. The first screen
   * of rows is read first, then, once the first screen is drawn, the whole list.
   */
  start(): () => void {
    void this.load(INBOX_FIRST_PAGE);
    return onCacheBurst(this.#bridge, ['tasks', 'messages', 'users', 'statuses'], 60, () => void this.load());
  }

  /**
   * Reads the whole list, or with `first` its first rows and then (after the first screen) the
   * whole list. One read at a time: during a sync the cache's bursts ask again before the last
   * read (about 150 ms of the core's at 20,000 tasks) has ended.
   */
  readonly load: (first?: number) => Promise<void> = oneAtATime((first?: number) => this.#read(first));

  async #read(first?: number): Promise<void> {
    const seq = ++this.#seq;
    try {
      const { rows, total } = await this.#bridge.invoke('inbox.list', first ? { first } : {});
      if (seq !== this.#seq) return;
      this.#rows = rows;
      this.#total = total;
      this.#error = undefined;
      if (rows.length < total) {
        // The whole list (a thousand rows and more, a megabyte to parse) after the first
        // screen is drawn, unless a newer read took its place meanwhile. Not waited for here:
        // a read asked for meanwhile (another account's) must not wait for the first screen.
        void afterFirstScreen().then(() => {
          if (seq === this.#seq) void this.load();
        });
      }
    } catch (err) {
      if (seq === this.#seq) this.#error = describeError(err);
    }
  }

  /**
   * Another account is active: what is shown, and an answer still on its way, are the other
   * account's. Forgets both; `load` reads the new account's list.
   */
  reset(): void {
    this.#seq++;
    this.#rows = undefined;
    this.#total = undefined;
    this.#error = undefined;
  }

  #set(unread: (row: InboxRow) => boolean): void {
    this.#seq++;
    this.#rows = this.#rows?.map((row) =>
      row.unread === unread(row) ? row : { ...row, unread: unread(row) },
    );
  }

  /**
   * Marks tasks read (opening one does); a task not in the inbox is remembered read too. A mark
   * the core refuses is not told: the list read after it shows what the core holds.
   */
  async markRead(taskIds: readonly string[]): Promise<void> {
    if (!taskIds.length) return;
    this.#set((row) => row.unread && !taskIds.includes(row.taskId));
    await this.#runWrite('inbox.markRead', { taskIds: [...taskIds] });
    await this.load();
  }

  async markUnread(taskId: string): Promise<void> {
    this.#set((row) => row.unread || row.taskId === taskId);
    await this.#runWrite('inbox.markUnread', { taskId });
    await this.load();
  }

  async markAllRead(): Promise<void> {
    this.#set(() => false);
    await this.#runWrite('inbox.markAllRead', {});
    await this.load();
  }

  /** True when the task is in the inbox and unread. */
  isUnread(taskId: string): boolean {
    return this.#rows?.some((row) => row.taskId === taskId && row.unread) ?? false;
  }
}
