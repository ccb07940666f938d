// A sort a slice at a time: the order `Array.prototype.sort` gives (equal items kept in their
// order), and the loop given back every few hundred items once the turn is spent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetTurns, turns } from '../loop-turns.testing';
import { sortInSlices } from './sort-in-slices';

vi.mock('../loop-turns', async (importOriginal) =>
  (await import('../loop-turns.testing')).loopTurnsDouble(await importOriginal()),
);

afterEach(resetTurns);

/** Items with keys in a scrambled order, many sharing one (`seq` tells their first order apart). */
const itemsOf = (n: number) => Array.from({ length: n }, (_, seq) => ({ key: (seq * 7919) % 97, seq }));
const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;

describe('sortInSlices', () => {
  it.each([0, 1, 255, 256, 257, 1_000, 5_000])(
    'sorts %i items as Array.prototype.sort does, ties kept in order',
    async (n) => {
      const items = itemsOf(n);
      const before = [...items];
      const sorted = await sortInSlices(items, byKey);
      expect(sorted).toEqual([...items].sort(byKey));
      expect(items).toEqual(before);
    },
  );

  it('takes a comparison that is NaN or undefined for a tie, as Array.prototype.sort does', async () => {
    const items = itemsOf(1_000);
    // Items without a rank compare as NaN with every other (`undefined - 1`): ties, all of them.
    const noRank = (): number => Number.NaN;
    expect(await sortInSlices(items, noRank)).toEqual([...items].sort(noRank));
    expect(await sortInSlices(items, noRank)).toEqual(items);
    const noAnswer = (() => undefined) as unknown as (a: unknown, b: unknown) => number;
    expect(await sortInSlices(items, noAnswer)).toEqual(items);
  });

  it('gives the loop back every few hundred items when the turn is spent', async () => {
    turns.spentAlways = true;
    turns.givenBack = 0;
    let compared = 0;
    let mostComparedInOneTurn = 0;
    let turn = 0;
    const sorted = await sortInSlices(itemsOf(20_000), (a, b) => {
      if (turn !== turns.givenBack) [turn, compared] = [turns.givenBack, 0];
      mostComparedInOneTurn = Math.max(mostComparedInOneTurn, ++compared);
      return byKey(a, b);
    });
    expect(sorted).toHaveLength(20_000);
    // A run of 256 sorted at once takes at most about 256 × 8 comparisons; the whole list at once
    // took some 280,000.
    expect(mostComparedInOneTurn).toBeLessThan(3_000);
  });
});
