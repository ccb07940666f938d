// Which DOM row shows which list index in a virtual list. An index keeps its slot while it stays
// in view, and an index coming into view takes the slot of one that left, so scrolling re-fills
// the rows that went out of view instead of making new ones and dropping the old (a row of the
// task grid is ~20 elements and a component: making it is most of a scroll step's script).

export interface PlacedRow {
  readonly index: number;
  readonly slot: number;
}

export class RowSlots {
  /** The placement of each index in view; the same object for as long as the index stays. */
  readonly #placed = new Map<number, PlacedRow>();
  /** Slots of indices that left view, kept highest first (so \`pop\` gives the lowest). */
  #free: number[] = [];
  #made = 0;

  /**
   * The rows for the run `first..last` of a list of `count` rows: that run, widened (forward,
   * then back) to as many rows as were ever placed at once while the list has them. The rows in
   * view are one more or one fewer as the scroll offset cuts a row or not; without the widening
   * a row would be dropped at one step and made again at the next (a row of the task grid is a
   * component of ~20 elements: making one is the costliest thing a scroll frame can do).
   */
  placeRun(first: number, last: number, count: number): PlacedRow[] {
    if (count <= 0 || last < first) return this.place([]);
    const rows = Math.min(count, Math.max(last - first + 1, this.#made));
    const to = Math.min(count - 1, first + rows - 1);
    const from = Math.max(0, to - rows + 1);
    return this.place(Array.from({ length: to - from + 1 }, (_, i) => from + i));
  }

  /**
   * The slots of the `indices` in view, in slot order (so the rows keep their order in the
   * page and none moves). Slots are 0, 1, 2...: never more than the most indices in view at once.
   * A row whose index stays in view gets the very object it had, so a keyed `{#each}` over the
   * answer updates only the rows that were re-filled.
   */
  place(indices: readonly number[]): PlacedRow[] {
    const wanted = new Set(indices);
    const free = this.#free;
    for (const [index, placed] of this.#placed) {
      if (!wanted.has(index)) {
        free.push(placed.slot);
        this.#placed.delete(index);
      }
    }
    // Lowest first, so the slots in use stay 0..n-1.
    free.sort((a, b) => b - a);
    const placed = indices.map((index) => {
      let place = this.#placed.get(index);
      if (!place) {
        place = { index, slot: free.pop() ?? this.#made++ };
        this.#placed.set(index, place);
      }
      return place;
    });
    return placed.sort((a, b) => a.slot - b.slot);
  }
}
