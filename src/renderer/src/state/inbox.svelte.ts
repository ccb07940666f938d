// The Action required inbox: its rows (who handed each task over, when, the thread's last word,
// unread marks) and the unread count the sidebar shows. Read state lives in the core (per
// account, in the cache); here a change is shown at once and then read back.
import { INBOX_FIRST_PAGE, INBOX_PAGE, type InboxRow } from '@shared/ipc/inbox';
import type { Bridge } from '../lib/bridge';
import { onCacheBurst } from '../lib/cache-events';
import { describeError } from '../lib/errors';
import { createRunWrite, type RunWrite } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';
import { oneAtATime } from '../lib/one-at-a-time';

/** Rows read first at start, before the whole list (shared with the core, which reads them ahead). */
export { INBOX_FIRST_PAGE };

export class InboxState {
  /** The head of the list read so far: the rows shown and those above them. */
  #rows = $state.raw<InboxRow[] | undefined>();
  /** The whole list's length; more than `rows` while only its head is read. */
  #total = $state<number | undefined>();
  /** Unread tasks of the whole list, as the core counts them. */
  #unread = $state<number | undefined>();
  /** How many rows of the head are read: a first screen, more as the user scrolls down. */
  #want = INBOX_FIRST_PAGE;
  #error = $state<string | undefined>();
  /** The read further that `more` started, until it ends. */
  #reading: Promise<void> | undefined;
  /**
   * The rows `keepTo` was last asked for while a read further was on its way (the user scrolled
   * back, or left the list): kept to once that read ends, else the range it read would stay
   * wanted, and every sync would read it again, until the list is shown and scrolled again.
   */
  #keepAfterRead: number | undefined;
  /**
   * The rows a jump on its way reaches (`more(upTo)`: End, or a key moved past the rows read),
   * until its read ends. A keep asked meanwhile was measured where the view still is, before it
   * moves to the row jumped to, so it keeps at least these rows; the list keeps from the row it
   * lands on. Only `keepFirstPage` (the list left) gives them up.
   */
  #landing: number | undefined;
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
  /** Tasks of the whole list with something new since the user last read them. */
  get unread(): number | undefined {
    return this.#unread;
  }

  /**
   * Follows the cache (tasks, their messages, users); returns the unsubscribe. Reads the head of
   * the list a window shows (the whole list was 2,700 rows, a megabyte, for 60 on screen).
   */
  start(): () => void {
    void this.load();
    return onCacheBurst(this.#bridge, ['tasks', 'messages', 'users', 'statuses'], 60, () => void this.load());
  }

  /**
   * Reads the list's head as far as it was read (`more` reads further). One read at a time:
   * during a sync the cache's bursts ask again before the last read has ended.
   */
  readonly load: () => Promise<void> = oneAtATime(() => this.#read());

  /**
   * Reads the list's head further: a page more, or up to `upTo` rows (End asks for them all).
   * Nothing when every row is read.
   */
  more(upTo = 0): Promise<void> {
    const total = this.#total ?? 0;
    // Counted from the rows read, not from those asked for: a scroll sends many events while
    // one read is on its way, and each would otherwise ask for a page more.
    const have = this.#rows?.length ?? 0;
    if (have >= total) return Promise.resolve();
    const want = Math.min(Math.max(have + INBOX_PAGE, upTo), total);
    if (upTo > 0) this.#landing = Math.max(this.#landing ?? 0, want);
    // A read already on its way reaches that far: its end is the caller's (End waits for it).
    if (want <= this.#want && this.#reading) return this.#reading;
    this.#want = Math.max(this.#want, want);
    const read: Promise<void> = this.load().finally(() => {
      if (this.#reading !== read) return;
      this.#reading = undefined;
      const keep = this.#keepAfterRead;
      const landing = this.#landing ?? 0;
      this.#landing = undefined;
      if (keep !== undefined) this.keepTo(Math.max(keep, landing));
    });
    this.#reading = read;
    return read;
  }

  /**
   * The rows the window needs now (those down to two screens below the view, and the active
   * row): the next read of the list reads that far, a page at a time, not as far as the user once
   * went (after End each sync read every row again). Never asks for more rows than are read, nor
   * changes a read further on its way: `more` reads further, and the last keep asked for
   * meanwhile applies when it ends (a jump's rows kept: see `#landing`).
   */
  keepTo(rows: number): void {
    if (this.#reading) {
      this.#keepAfterRead = rows;
      return;
    }
    this.#keepAfterRead = undefined;
    const read = this.#rows?.length ?? 0;
    const pages = Math.ceil(Math.max(rows, 1) / INBOX_PAGE) * INBOX_PAGE;
    this.#want = Math.max(INBOX_FIRST_PAGE, Math.min(pages, read));
  }

  /**
   * The list is shown afresh, or left: it is at its top, so the next reads read its first page,
   * also once a read further on its way ends (a jump's rows included: nothing lands on them).
   */
  keepFirstPage(): void {
    this.#landing = undefined;
    this.keepTo(1);
  }

  async #read(): Promise<void> {
    const seq = ++this.#seq;
    try {
      const { rows, unread, total } = await this.#bridge.invoke('inbox.list', { first: this.#want });
      if (seq !== this.#seq) return;
      this.#rows = rows;
      this.#total = total;
      this.#unread = unread;
      this.#error = undefined;
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
    this.#unread = undefined;
    this.#want = INBOX_FIRST_PAGE;
    this.#reading = undefined;
    this.#keepAfterRead = undefined;
    this.#landing = undefined;
    this.#error = undefined;
  }

  /** Shows a mark at once on the rows read, and in the count by what changed among them. */
  #set(unread: (row: InboxRow) => boolean): void {
    this.#seq++;
    let change = 0;
    this.#rows = this.#rows?.map((row) => {
      if (row.unread === unread(row)) return row;
      change += row.unread ? -1 : 1;
      return { ...row, unread: unread(row) };
    });
    if (this.#unread !== undefined) this.#unread = Math.max(0, this.#unread + change);
  }

  /**
   * Marks tasks read (opening one does). A task of the rows read is marked as asked; one below
   * them only if the core says it is an unread task of the inbox (opening a read task sends no
   * mark, and no read of the list after it). A mark the core refuses is not told: the list read
   * after it shows what the core holds.
   */
  async markRead(taskIds: readonly string[]): Promise<void> {
    taskIds = await this.#unreadBelowOrShown(taskIds);
    if (!taskIds.length) return;
    this.#set((row) => row.unread && !taskIds.includes(row.taskId));
    await this.#runWrite('inbox.markRead', { taskIds: [...taskIds] });
    await this.load();
  }

  /** `taskIds` without the tasks below the rows read that the core holds read (or not in the inbox). */
  async #unreadBelowOrShown(taskIds: readonly string[]): Promise<readonly string[]> {
    const rows = this.#rows ?? [];
    const isShown = (id: string) => rows.some((row) => row.taskId === id);
    const below = taskIds.filter((id) => !isShown(id));
    if (!below.length) return taskIds;
    let unread: readonly string[];
    try {
      ({ taskIds: unread } = await this.#bridge.invoke('inbox.unreadOf', { taskIds: below }));
    } catch {
      // Unknown (the core could not answer, so the mark most likely fails too): marked as asked.
      // A mark too many on a task in the inbox changes nothing; on one not in it, it records the
      // task seen, which a later hand-over without a new message would then show as read.
      return taskIds;
    }
    return taskIds.filter((id) => isShown(id) || unread.includes(id));
  }

  async markUnread(taskId: string): Promise<void> {
    this.#set((row) => row.unread || row.taskId === taskId);
    await this.#runWrite('inbox.markUnread', { taskId });
    await this.load();
  }

  async markAllRead(): Promise<void> {
    this.#set(() => false);
    this.#unread = 0;
    await this.#runWrite('inbox.markAllRead', {});
    await this.load();
  }

  /**
   * True when the task is among the rows read and unread; for a task below them, when unread tasks
   * are there, so it may be one (`markRead` then asks the core for that task's own state).
   */
  isUnread(taskId: string): boolean {
    const rows = this.#rows;
    if (!rows) return false;
    const row = rows.find((r) => r.taskId === taskId);
    if (row) return row.unread;
    const unreadRead = rows.filter((r) => r.unread).length;
    return rows.length < (this.#total ?? 0) && (this.#unread ?? 0) > unreadRead;
  }
}
