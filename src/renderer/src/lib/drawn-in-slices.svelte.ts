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
  $effect(() => {
    if (count >= total()) return;
    const frame = requestAnimationFrame(() => (count += perFrame));
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
