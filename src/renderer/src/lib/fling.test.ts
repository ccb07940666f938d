import { describe, expect, it } from 'vitest';
import { FLING_ROWS, FlingWatch, SETTLE_MS, type FlingTimers } from './fling';

const ROW = 34;
const FAST = (FLING_ROWS + 1) * ROW;

/** Timers run by hand: `advance(ms)` fires what is due. */
function manualTimers(): FlingTimers & { advance: (ms: number) => void } {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    set: (run, ms) => {
      due.set(next, { at: now + ms, run });
      return next++;
    },
    clear: (handle) => void due.delete(handle as number),
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...due]) {
        if (timer.at <= now) {
          due.delete(id);
          timer.run();
        }
      }
    },
  };
}

function watch(): { fling: FlingWatch; changes: boolean[]; timers: ReturnType<typeof manualTimers> } {
  const changes: boolean[] = [];
  const timers = manualTimers();
  return { fling: new FlingWatch((lite) => changes.push(lite), timers), changes, timers };
}

describe('FlingWatch', () => {
  it('keeps whole rows for steps of up to FLING_ROWS rows, however many', () => {
    const { fling, changes } = watch();
    for (let i = 1; i <= 50; i++) fling.scrolled(i * FLING_ROWS * ROW, ROW);
    expect(fling.lite).toBe(false);
    expect(changes).toEqual([]);
  });

  it('keeps whole rows for one large jump (the End key)', () => {
    const { fling, changes, timers } = watch();
    fling.scrolled(300_000, ROW);
    timers.advance(16);
    fling.scrolled(300_000, ROW);
    expect(fling.lite).toBe(false);
    expect(changes).toEqual([]);
  });

  it('goes lite at the second fast step in a row, in either direction', () => {
    const { fling, changes } = watch();
    fling.scrolled(FAST, ROW);
    expect(fling.lite).toBe(false);
    fling.scrolled(2 * FAST, ROW);
    expect(fling.lite).toBe(true);
    fling.scrolled(FAST, ROW);
    expect(changes).toEqual([true]);
  });

  it('stays lite while the list moves, slowly too, and fills rows SETTLE_MS after it stops', () => {
    const { fling, changes, timers } = watch();
    fling.scrolled(FAST, ROW);
    fling.scrolled(2 * FAST, ROW);
    for (let i = 1; i <= 5; i++) {
      timers.advance(SETTLE_MS - 1);
      fling.scrolled(2 * FAST + i * 10, ROW);
    }
    expect(fling.lite).toBe(true);
    timers.advance(SETTLE_MS);
    expect(fling.lite).toBe(false);
    expect(changes).toEqual([true, false]);
    // After it settled, one fast step alone is a jump again.
    fling.scrolled(10 * FAST, ROW);
    expect(fling.lite).toBe(false);
  });

  it('stops its timer when disposed', () => {
    const { fling, changes, timers } = watch();
    fling.scrolled(FAST, ROW);
    fling.scrolled(2 * FAST, ROW);
    fling.dispose();
    timers.advance(SETTLE_MS * 2);
    expect(changes).toEqual([true]);
  });
});
