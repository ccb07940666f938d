// The scenario's clock of the core's thread: Linux's scheduler statistics read, a bad line named.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHILD_GC_PRELOAD,
  collectionsWithin,
  gcFigures,
  GC_LOG_ENV,
  parseCollections,
  parseSchedstat,
  shareAfterDue,
  threadClock,
  withCollections,
  type Probe,
} from './ipc-during-pull';

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
    expect(
      gcFigures([
        { at: 0, duration: 7, young: true },
        { at: 10, duration: 30, young: false },
        { at: 50, duration: 12, young: true },
      ]),
    ).toEqual({ count: 3, longestMs: 30, youngLongestMs: 12, totalMs: 49 });
    expect(gcFigures([])).toEqual({ count: 0, longestMs: 0, youngLongestMs: 0, totalMs: 0 });
  });
});

describe('the core’s collections in ipc-during-pull', () => {
  const collections = [
    { at: 100, duration: 10, young: true },
    { at: 200, duration: 40, young: false },
    { at: 300, duration: 5, young: true },
  ];

  it('counts the part of each collection inside a span', () => {
    // The second collection began 20 ms before the span: its last 20 ms count.
    expect(collectionsWithin(collections, { from: 220, to: 302 })).toEqual([
      { at: 220, duration: 20, young: false },
      { at: 300, duration: 2, young: true },
    ]);
    expect(collectionsWithin(collections, { from: 111, to: 199 })).toEqual([]);
  });

  it('gives a probe the collections of its run and those within its longest delay', () => {
    const probe: Probe = {
      maxMs: 35,
      hostLateMs: 1,
      calls: 60,
      overFrame: 1,
      p99Ms: 20,
      window: { from: 150, to: 400 },
      longestWindow: { from: 195, to: 230 },
    };
    const withGc = withCollections(probe, collections);
    expect(withGc.gc).toEqual({ count: 2, longestMs: 40, youngLongestMs: 5, totalMs: 45 });
    expect(withGc.longestGcMs).toBe(30);
    const { longestWindow: _left, ...withoutLongest } = probe;
    expect(withCollections(withoutLongest, collections).longestGcMs).toBeUndefined();
  });

  it('reads the lines the core’s process wrote, and names a bad one', () => {
    expect(
      parseCollections(
        '{"at":1.5,"duration":2,"young":true}\n\n{"at":9,"duration":3,"young":false}',
        'gc.jsonl',
      ),
    ).toEqual([
      { at: 1.5, duration: 2, young: true },
      { at: 9, duration: 3, young: false },
    ]);
    expect(parseCollections('', 'gc.jsonl')).toEqual([]);
    expect(() => parseCollections('{"at":1,"duration":2,"young":true}\n{"at":"x"}', 'gc.jsonl')).toThrow(
      /gc\.jsonl, line 2: expected a collection/,
    );
    expect(() => parseCollections('not json', 'gc.jsonl')).toThrow(/gc\.jsonl, line 1/);
  });

  it('has the core’s process write its collections as it leaves', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipc-gc-'));
    try {
      const file = join(dir, 'gc.jsonl');
      // Two full collections asked for, on a process started as the scenario starts the core's;
      // it leaves once the loop has run the observer's callbacks (its timer comes after them).
      const script = 'gc(); gc(); setTimeout(() => {}, 50);';
      execFileSync(process.execPath, ['--expose-gc', '--import', CHILD_GC_PRELOAD, '-e', script], {
        env: { ...process.env, [GC_LOG_ENV]: file },
      });
      const written = parseCollections(readFileSync(file, 'utf8'), file);
      expect(written.filter((c) => !c.young).length).toBeGreaterThanOrEqual(2);
      expect(written.every((c) => c.at > 1e12 && c.duration >= 0)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
