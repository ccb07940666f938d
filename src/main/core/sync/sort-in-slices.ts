import { workSlice, yieldToLoop } from '../loop-turns';

/** Items sorted at once (each run); items merged between two looks at the clock. */
const RUN = 256;

/**
 * `items` sorted by `compare` as `Array.prototype.sort` sorts them (stable: items that compare
 * equal keep their order), a slice at a time: runs of a few hundred sorted at once, then merged
 * pairwise, giving the loop back once the turn's budget is spent (see `loop-turns`). A first
 * sync's 20,000 stale tasks sorted in one call were one stretch of 10-20 ms on a loaded machine.
 * `items` is not changed.
 */
export async function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number): Promise<T[]> {
  const slice = workSlice();
  const breathe = async (): Promise<void> => {
    if (!slice.due()) return;
    await yieldToLoop();
    slice.reset();
  };
  let from: T[] = [];
  for (let start = 0; start < items.length; start += RUN) {
    from.push(...items.slice(start, start + RUN).sort(compare));
    await breathe();
  }
  let to: T[] = new Array<T>(from.length);
  for (let width = RUN; width < from.length; width *= 2) {
    for (let left = 0; left < from.length; left += 2 * width) {
      const mid = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let i = left;
      let j = mid;
      for (let k = left; k < end; k++) {
        // The left run's item first unless it compares after: equal items keep their order, and
        // a comparison of NaN (or undefined) is a tie, as `Array.prototype.sort` takes it.
        to[k] = i < mid && (j >= end || !(compare(from[i]!, from[j]!) > 0)) ? from[i++]! : from[j++]!;
        if ((k - left) % RUN === RUN - 1) await breathe();
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
