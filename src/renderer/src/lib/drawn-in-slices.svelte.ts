// A long list drawn in slices: a first screenful in the frame that opens it, then a slice more
// after each frame is painted until every item is, so a view of hundreds of items paints its top
// first and no frame builds them all (bench/scenarios/inbox.ts measures the inbox and Updates this
// way). Call it while a component is being set up (it runs an effect tied to that component).
import { afterNextPaint } from './after-next-paint';

export interface DrawnInSlices {
  /** How many of the items are drawn now. */
  readonly count: number;
  /** Draws every item at once (e.g. a key moved to one not drawn yet). */
  all(): void;
}

export function drawnInSlices(total: () => number, first = 24, perFrame = 60): DrawnInSlices {
  let count = $state(first);
  $effect(() => {
    if (count >= total()) return;
    // Wherever the list was opened (a click, an answer, or a frame's own callbacks), the slice
    // drawn now is painted before the next is built: the first screenful reaches the screen alone.
    return afterNextPaint(() => {
      count += perFrame;
    });
  });
  return {
    get count() {
      return count;
    },
    all() {
      count = Math.max(count, total());
    },
  };
}
