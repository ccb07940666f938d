import { describe, expect, it } from 'vitest';
import type { DependencyView } from '@shared/ipc/tasks';
import { DAY_WIDTH, ROW_HEIGHT, layoutTimeline, taskSpan, todayX, type TimelineItem } from './timeline';

const item = (id: string, start: string, end: string, milestone = false): TimelineItem => ({
  kind: 'task',
  id,
  name: id,
  start,
  end,
  milestone,
});
const dep = (type: number, from: string, to: string): DependencyView => ({
  id: `${from}-${to}`,
  type,
  predecessor: { kind: 'task', id: from, name: from },
  successor: { kind: 'task', id: to, name: to },
});

describe('timeline layout', () => {
  it('spans a task from its dates, falling back to the deadline', () => {
    expect(taskSpan({ startDate: '2026-03-02', endDate: '2026-03-05', deadline: null })).toEqual({
      start: '2026-03-02',
      end: '2026-03-05',
    });
    expect(taskSpan({ startDate: null, endDate: null, deadline: '2026-03-09' })).toEqual({
      start: '2026-03-09',
      end: '2026-03-09',
    });
    expect(taskSpan({ startDate: null, endDate: null, deadline: null })).toBeUndefined();
  });

  it('puts items on rows by start, scaled by day', () => {
    const layout = layoutTimeline(
      [item('b', '2026-03-05', '2026-03-06'), item('a', '2026-03-02', '2026-03-03')],
      [],
    );
    expect(layout.bars.map((bar) => bar.id)).toEqual(['a', 'b']);
    const [a, b] = layout.bars;
    expect(b!.x - a!.x).toBe(3 * DAY_WIDTH);
    expect(a!.width).toBe(2 * DAY_WIDTH);
    expect(layout.height).toBe(2 * ROW_HEIGHT);
  });

  it('draws finish-to-start from the end of one bar to the start of the next, and skips unknown items', () => {
    const layout = layoutTimeline(
      [item('a', '2026-03-02', '2026-03-03'), item('b', '2026-03-06', '2026-03-07')],
      [dep(5, 'a', 'b'), dep(5, 'a', 'missing')],
    );
    expect(layout.arrows).toHaveLength(1);
    const [a, b] = layout.bars;
    const path = layout.arrows[0]!.path;
    expect(path.startsWith(`M${a!.x + a!.width},`)).toBe(true);
    expect(path.endsWith(`H${b!.x}`)).toBe(true);
  });

  it('draws start-to-start from the start and finish-to-finish to the end', () => {
    const bars = [item('a', '2026-03-02', '2026-03-03'), item('b', '2026-03-04', '2026-03-08')];
    const ss = layoutTimeline(bars, [dep(6, 'a', 'b')]);
    expect(ss.arrows[0]!.path.startsWith(`M${ss.bars[0]!.x},`)).toBe(true);
    const ff = layoutTimeline(bars, [dep(7, 'a', 'b')]);
    expect(ff.arrows[0]!.path.endsWith(`H${ff.bars[1]!.x + ff.bars[1]!.width}`)).toBe(true);
  });
});

describe('todayX', () => {
  it('puts today in the middle of its day column, and nowhere when off the strip', () => {
    expect(todayX('2026-11-01', 30, '2026-11-01')).toBe(11);
    expect(todayX('2026-11-01', 30, '2026-11-03')).toBe(2 * 22 + 11);
    expect(todayX('2026-11-01', 30, '2026-10-31')).toBeUndefined();
    expect(todayX('2026-11-01', 30, '2026-12-01')).toBeUndefined();
    expect(todayX('', 0, '2026-11-01')).toBeUndefined();
  });
});
