import { describe, expect, it } from 'vitest';
import { groupItems, matchesWords, matchingProjects, type PaletteItem } from './palette-items';
import type { ProjectNode } from '@shared/ipc/projects';

const item = (key: string, group: PaletteItem['group']): PaletteItem => ({
  key,
  group,
  label: key,
  run: () => {},
});

describe('palette items', () => {
  it('matches every word of the query anywhere, ignoring case', () => {
    expect(matchesWords('Go to Calendar · Agenda', 'cal agen')).toBe(true);
    expect(matchesWords('Go to Calendar', 'cal settings')).toBe(false);
    expect(matchesWords('anything', '  ')).toBe(true);
  });

  it('orders the groups tasks first and commands last, capping each group', () => {
    const items = [item('c1', 'Commands'), item('t1', 'Tasks'), item('a1', 'Accounts'), item('t2', 'Tasks')];
    expect(groupItems(items).map((i) => i.key)).toEqual(['t1', 't2', 'a1', 'c1']);
    expect(groupItems(items, 1).map((i) => i.key)).toEqual(['t1', 'a1', 'c1']);
  });

  it('finds projects by name only when something was typed', () => {
    const node = { id: 'p', name: 'Website relaunch' } as ProjectNode;
    expect(matchingProjects([node], 'relaunch')).toEqual([node]);
    expect(matchingProjects([node], '')).toEqual([]);
  });
});
