// Which DOM row shows which list index in a virtual list. An index keeps its slot while it stays
// in view, and an index coming into view takes the slot of one that left, so scrolling re-fills
// the rows that went out of view instead of making new ones and dropping the old (a row of the
// task grid is ~30 elements and a component: making it is most of a scroll step's script).

export interface PlacedRow {
  index: number;
  slot: number;
}

export class RowSlots {
  readonly #slotOf = new Map<number, number>();
  /** Slots of indices that left view, kept highest first (so \`pop\` gives the lowest). */
  #free: number[] = [];
  #made = 0;

  /**
   * The slots of the `indices` in view, in slot order (so the rows keep their order in the
   * page and none moves). Slots are 0, 1, 2...: never more than the most indices in view at once.
   */
  place(indices: readonly number[]): PlacedRow[] {
    const wanted = new Set(indices);
    const free = this.#free;
    for (const [index, slot] of this.#slotOf) {
      if (!wanted.has(index)) {
        free.push(slot);
        this.#slotOf.delete(index);
      }
    }
    // Lowest first, so the slots in use stay 0..n-1.
    free.sort((a, b) => b - a);
    const placed = indices.map((index) => {
      let slot = this.#slotOf.get(index);
      if (slot === undefined) {
        slot = free.pop() ?? this.#made++;
        this.#slotOf.set(index, slot);
      }
      return { index, slot };
    });
    return placed.sort((a, b) => a.slot - b.slot);
  }
}
