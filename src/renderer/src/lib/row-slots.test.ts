import { describe, expect, it } from 'vitest';
import { RowSlots } from './row-slots';

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('RowSlots', () => {
  it('keeps the slot of an index that stays in view, and gives a leaving index its slot to a new one', () => {
    const slots = new RowSlots();
    expect(slots.place(range(0, 3))).toEqual([
      { index: 0, slot: 0 },
      { index: 1, slot: 1 },
      { index: 2, slot: 2 },
      { index: 3, slot: 3 },
    ]);
    // Two rows down: 0 and 1 leave, 4 and 5 take their slots; 2 and 3 keep theirs.
    expect(slots.place(range(2, 5))).toEqual([
      { index: 4, slot: 0 },
      { index: 5, slot: 1 },
      { index: 2, slot: 2 },
      { index: 3, slot: 3 },
    ]);
  });

  it('answers the same object for an index that keeps its slot, and a new one for a re-filled slot', () => {
    const slots = new RowSlots();
    const first = slots.place(range(0, 3));
    const next = slots.place(range(1, 4));
    // 1, 2, 3 stay where they were: their placements are the very objects of the first answer.
    for (const index of [1, 2, 3])
      expect(next.find((p) => p.index === index)).toBe(first.find((p) => p.index === index));
    const refilled = next.find((p) => p.index === 4);
    expect(refilled).toEqual({ index: 4, slot: 0 });
    expect(first).not.toContain(refilled);
  });

  it('uses no more slots than the most indices in view at once, whatever the jumps', () => {
    const slots = new RowSlots();
    let most = 0;
    for (const [from, to] of [
      [0, 45],
      [12, 57],
      [5000, 5045],
      [9950, 9999],
      [9990, 9999],
      [0, 30],
    ] as const) {
      const placed = slots.place(range(from, to));
      most = Math.max(most, to - from + 1);
      const used = placed.map((p) => p.slot);
      expect(new Set(used).size).toBe(used.length);
      expect(Math.max(...used)).toBeLessThan(most);
      expect(placed.map((p) => p.index).sort((a, b) => a - b)).toEqual(range(from, to));
    }
  });
});

describe('RowSlots.placeRun', () => {
  const indices = (placed: { index: number }[]): number[] => placed.map((p) => p.index).sort((a, b) => a - b);

  it('keeps as many rows as it ever placed while the run in view is a row shorter', () => {
    const slots = new RowSlots();
    const first = slots.placeRun(0, 9, 1000);
    expect(indices(first)).toEqual(range(0, 9));
    // The offset now cuts no row: nine in view. The tenth row stays, showing the next index.
    const next = slots.placeRun(3, 11, 1000);
    expect(indices(next)).toEqual(range(3, 12));
    expect(new Set(next.map((p) => p.slot))).toEqual(new Set(first.map((p) => p.slot)));
  });

  it('widens backwards at the end of the list and never past its ends', () => {
    const slots = new RowSlots();
    slots.placeRun(0, 9, 1000);
    expect(indices(slots.placeRun(992, 999, 1000))).toEqual(range(990, 999));
    // A list shorter than the rows made: all of it, no more.
    expect(indices(slots.placeRun(0, 3, 4))).toEqual(range(0, 3));
    expect(slots.placeRun(0, -1, 0)).toEqual([]);
  });

  it('grows with a longer run (a taller window or a larger overscan)', () => {
    const slots = new RowSlots();
    slots.placeRun(0, 4, 1000);
    expect(indices(slots.placeRun(0, 14, 1000))).toEqual(range(0, 14));
    expect(indices(slots.placeRun(20, 30, 1000))).toEqual(range(20, 34));
  });
});
