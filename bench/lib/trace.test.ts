import { describe, expect, it } from 'vitest';
import { selfTimes, type TraceEvent } from './trace';

const MAIN = { pid: 1, tid: 7 };
const span = (name: string, ts: number, dur: number, at = MAIN): TraceEvent => ({
  name,
  ph: 'X',
  ts,
  dur,
  ...at,
});
const threadName = (name: string, at = MAIN): TraceEvent => ({
  name: 'thread_name',
  ph: 'M',
  ts: 0,
  ...at,
  args: { name },
});

describe('selfTimes', () => {
  it('subtracts nested events from their parent, per name, in ms', () => {
    const events = [
      threadName('CrRendererMain'),
      // A 10 ms function call holding 3 ms of layout, which holds 1 ms of style; then 4 ms of paint.
      span('FunctionCall', 0, 10_000),
      span('Layout', 2_000, 3_000),
      span('UpdateLayoutTree', 2_500, 1_000),
      span('Paint', 12_000, 4_000),
    ];
    expect(selfTimes(events)).toEqual([
      ['FunctionCall', 7],
      ['Paint', 4],
      ['Layout', 2],
      ['UpdateLayoutTree', 1],
    ]);
  });

  it('counts only the renderer main thread, and nothing when there is none', () => {
    const other = { pid: 1, tid: 9 };
    const events = [
      threadName('CrRendererMain'),
      threadName('Compositor', other),
      span('Paint', 0, 2_000),
      span('Raster', 0, 50_000, other),
    ];
    expect(selfTimes(events)).toEqual([['Paint', 2]]);
    expect(selfTimes([span('Paint', 0, 2_000)])).toEqual([]);
  });
});
