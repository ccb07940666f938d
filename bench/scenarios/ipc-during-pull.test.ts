// The scenario's clock of the core's thread: Linux's scheduler statistics read, a bad line named.
import { describe, expect, it } from 'vitest';
import { constants } from 'node:perf_hooks';
import { gcFigures, parseSchedstat, shareAfterDue, threadClock } from './ipc-during-pull';

describe('the core thread’s clock of ipc-during-pull', () => {
  it('reads the time on a core and the time waiting for one, in ms', () => {
    expect(parseSchedstat('1500000000 250000000 4321\n')).toEqual({ runMs: 1500, waitMs: 250 });
  });

  it('names a line that is not two numbers', () => {
    expect(() => parseSchedstat('nothing here')).toThrow(/schedstat: expected two numbers/);
  });

  it('counts the part of a late tick’s interval that came after the call was due', () => {
    // Last tick at 0, the call due at 5, its tick 338 ms late: 338 of the 343 ms count.
    expect(shareAfterDue(5, 343, 0)).toBeCloseTo(338 / 343);
    expect(shareAfterDue(5, 4, 0)).toBe(0);
    expect(shareAfterDue(-10, 343, 0)).toBe(1);
  });

  it('has no clock for a process that is not there', () => {
    expect(threadClock(2 ** 30)).toBeUndefined();
  });

  it('sums up the collections, the young ones apart', () => {
    const young = { kind: constants.NODE_PERFORMANCE_GC_MINOR };
    const old = { kind: constants.NODE_PERFORMANCE_GC_MAJOR };
    expect(
      gcFigures([
        { duration: 7, detail: young },
        { duration: 30, detail: old },
        { duration: 12, detail: young },
      ]),
    ).toEqual({ count: 3, longestMs: 30, youngLongestMs: 12, totalMs: 49 });
    expect(gcFigures([])).toEqual({ count: 0, longestMs: 0, youngLongestMs: 0, totalMs: 0 });
  });
});
