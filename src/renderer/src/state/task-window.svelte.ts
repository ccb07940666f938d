// A windowed list of tasks: the total is known from the first answer, rows are fetched a page
// at a time as they come into view, and a refresh re-reads the pages already seen (keeping the
// old rows on screen until the new ones arrive, so the list never flashes empty).
import type { TaskRow } from '@shared/ipc/tasks';
import { ListReadError } from '../lib/list-read-error.svelte';

export type WindowQuery = (offset: number, limit: number) => Promise<{ rows: TaskRow[]; total: number }>;

export const PAGE_SIZE = 200;
/**
 * A list read for the first time asks for the rows a first screen shows (a tall window's worth)
 * before the rest of its first page: the answer comes sooner (on a 2-core machine through the web
 * host, ~5 against ~8-14 ms for 200 rows), and the list paints as soon as it is in.
 */
export const FIRST_ROWS = 60;

export class TaskWindow {
  #rows = $state.raw<(TaskRow | undefined)[]>([]);
  #total = $state(0);
  #loaded = $state(false);
  readonly #error = new ListReadError();
  /** Whether a read has answered: its rows are kept when a later one fails. */
  #answered = false;
  // Bookkeeping of pages asked for; nothing renders from it, so it is not reactive.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #requested = new Set<number>();
  #generation = 0;
  /** The pages of the last range asked for: what is on screen now. */
  #inView: [number, number] = [0, 0];
  readonly #query: WindowQuery;
  readonly #pageSize: number;

  constructor(query: WindowQuery, pageSize = PAGE_SIZE) {
    this.#query = query;
    this.#pageSize = pageSize;
  }

  get total(): number {
    return this.#total;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  /** The error shown instead of the list (nothing read yet to keep). */
  get error(): string | undefined {
    return this.#error.shown;
  }
  /** The error of a read again, shown above the rows kept from the last one. */
  get keptError(): string | undefined {
    return this.#error.kept;
  }
  /** The rows fetched so far (sparse: undefined where a page is not loaded yet). */
  get rows(): readonly (TaskRow | undefined)[] {
    return this.#rows;
  }

  row(index: number): TaskRow | undefined {
    return this.#rows[index];
  }

  /** Makes sure the rows from `start` to `end` (inclusive) are loaded or on their way. */
  ensure(start: number, end: number): void {
    this.#inView = [
      Math.floor(Math.max(0, start) / this.#pageSize),
      Math.floor(Math.max(0, end) / this.#pageSize),
    ];
    // Half a page of margin either side, so rows are usually there before they scroll in.
    const margin = this.#pageSize / 2;
    const first = Math.floor(Math.max(0, start - margin) / this.#pageSize);
    const last = Math.floor(Math.max(0, end + margin) / this.#pageSize);
    for (let page = first; page <= last; page++) {
      if (this.#loaded && page * this.#pageSize >= this.#total) break;
      if (!this.#requested.has(page)) void this.#fetch(page, this.#generation);
    }
  }

  /**
   * Reads the list again. Only the pages on screen are fetched now; the others keep their
   * (possibly stale) rows and are fetched again when they come into view.
   */
  refresh(): Promise<void> {
    this.#generation += 1;
    this.#requested.clear();
    const [first, last] = this.#inView;
    const pages: number[] = [];
    for (let page = first; page <= last; page++) pages.push(page);
    return Promise.all(pages.map((page) => this.#fetch(page, this.#generation))).then(() => undefined);
  }

  async #fetch(page: number, generation: number): Promise<void> {
    this.#requested.add(page);
    const start = page * this.#pageSize;
    const first = !this.#loaded && page === 0 && FIRST_ROWS < this.#pageSize;
    const parts = first ? [FIRST_ROWS, this.#pageSize - FIRST_ROWS] : [this.#pageSize];
    try {
      let offset = start;
      for (const limit of parts) {
        const { rows, total } = await this.#query(offset, limit);
        if (generation !== this.#generation) return;
        this.#put(offset, rows, total);
        if (offset + rows.length >= total) break;
        offset += limit;
      }
    } catch (err) {
      if (generation !== this.#generation) return;
      this.#requested.delete(page);
      // A list that has answered keeps its rows while the core is lost for a moment.
      this.#error.failed(err, this.#answered);
      this.#loaded = true;
    }
  }

  /** Puts rows read from `offset` in the list, and the list's total with them. */
  #put(offset: number, rows: readonly TaskRow[], total: number): void {
    const next = this.#rows.slice(0, total);
    next.length = total;
    rows.forEach((row, i) => (next[offset + i] = row));
    this.#rows = next;
    this.#total = total;
    this.#answered = true;
    this.#error.cleared();
    this.#loaded = true;
  }
}
