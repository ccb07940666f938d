/**
 * Runs a refresh at most once per animation frame however often it is asked for: a sync that
 * stores thousands of batches sends thousands of cache-change events, and each view reads again
 * once per frame at most, so its work grows with the frames the sync spans, not with the events.
 */

/** When the next frame comes: `requestAnimationFrame` in a window, a timer elsewhere. */
export interface FrameClock {
  /** Calls `fn` once, at the next frame; returns the cancel. */
  next(fn: () => void): () => void;
}

/**
 * A hidden window gets no animation frames, yet a change must still reach it (a notification,
 * the badge): the frame or this many milliseconds, whichever comes first.
 */
const HIDDEN_FALLBACK_MS = 100;

export const windowFrames: FrameClock = {
  next(fn) {
    const hasFrames = typeof requestAnimationFrame === 'function';
    let frame = 0;
    const stop = (): void => {
      clearTimeout(timer);
      if (hasFrames) cancelAnimationFrame(frame);
    };
    const run = (): void => {
      stop();
      fn();
    };
    const timer = setTimeout(run, hasFrames ? HIDDEN_FALLBACK_MS : 16);
    if (hasFrames) frame = requestAnimationFrame(run);
    return stop;
  },
};

/**
 * `request()` asks for `fn` to run; every request until the next frame is answered by one run
 * then. `cancel()` drops a run still waiting (the view was closed).
 */
export function coalescePerFrame(
  fn: () => void,
  clock: FrameClock = windowFrames,
): { request(): void; cancel(): void } {
  let waiting: (() => void) | undefined;
  return {
    request() {
      waiting ??= clock.next(() => {
        waiting = undefined;
        fn();
      });
    },
    cancel() {
      waiting?.();
      waiting = undefined;
    },
  };
}
