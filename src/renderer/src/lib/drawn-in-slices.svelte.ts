// A long list drawn in slices: a first screenful in the frame that opens it, then a slice more
// each frame until every item is, so a view of hundreds of items paints its top first and no
// frame builds them all (bench/scenarios/inbox.ts measures the inbox and Updates this way).
// Call it while a component is being set up (it runs an effect tied to that component).

export interface DrawnInSlices {
  /** How many of the items are drawn now. */
  readonly count: number;
  /** Draws every item at once (e.g. a key moved to one not drawn yet). */
  all(): void;
}

export function drawnInSlices(total: () => number, first = 24, perFrame = 60): DrawnInSlices {
  let count = $state(first);
  /** Whether a frame was painted since the list opened. */
  let painted = false;
  $effect(() => {
    if (count >= total()) return;
    // A list opened outside a frame's callbacks (a click, an answer) would have its second slice
    // built in the callbacks of the very frame that paints the first: the first screenful waits
    // one frame more before the slices start, so it is painted alone.
    const step = (): void => {
      if (!painted) {
        painted = true;
        frame = requestAnimationFrame(step);
      } else count += perFrame;
    };
    let frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
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
