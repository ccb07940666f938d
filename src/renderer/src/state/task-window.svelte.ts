// A windowed list of tasks: the total is known from the first answer, rows are fetched a page
// at a time as they come into view, and a refresh re-reads the pages already seen (keeping the
// old rows on screen until the new ones arrive, so the list never flashes empty).
import type { TaskRow } from '@shared/ipc/tasks';
import { describeError } from '../lib/errors';

export type WindowQuery = (offset: number, limit: number) => Promise<{ rows: TaskRow[]; total: number }>;

export const PAGE_SIZE = 200;

export class TaskWindow {
  #rows = $state.raw<(TaskRow | undefined)[]>([]);
  #total = $state(0);
  #loaded = $state(false);
  #error = $state<string | undefined>();
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
  get error(): string | undefined {
    return this.#error;
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
    try {
      const { rows, total } = await this.#query(page * this.#pageSize, this.#pageSize);
      if (generation !== this.#generation) return;
      const next = this.#rows.slice(0, total);
      next.length = total;
      rows.forEach((row, i) => (next[page * this.#pageSize + i] = row));
      this.#rows = next;
      this.#total = total;
      this.#error = undefined;
    } catch (err) {
      if (generation !== this.#generation) return;
      this.#requested.delete(page);
      this.#error = describeError(err);
    } finally {
      if (generation === this.#generation) this.#loaded = true;
    }
  }
}
