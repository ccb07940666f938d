import { describe, expect, it } from 'vitest';
import type { DependencyView } from '@shared/ipc/tasks';
import { dependencyTypeName, splitDependencies, withoutItems } from './dependencies';

const dep = (id: string, type: number, from: string, to: string): DependencyView => ({
  id,
  type,
  predecessor: { kind: 'task', id: from, name: from },
  successor: { kind: 'task', id: to, name: to },
});

describe('dependencies', () => {
  it('names the three types', () => {
    expect([5, 6, 7].map(dependencyTypeName)).toEqual([
      'Finish to Start',
      'Start to Start',
      'Finish to Finish',
    ]);
  });

  it('splits the links of an item into what it waits for and what waits for it', () => {
    const sides = splitDependencies(
      [dep('d1', 5, 'a', 'b'), dep('d2', 6, 'b', 'c'), dep('d3', 7, 'x', 'y')],
      {
        kind: 'task',
        id: 'b',
      },
    );
    expect(sides.predecessors.map((p) => [p.dependency.id, p.other.id])).toEqual([['d1', 'a']]);
    expect(sides.successors.map((s) => [s.dependency.id, s.other.id])).toEqual([['d2', 'c']]);
  });
});

describe('withoutItems', () => {
  const found = [
    { kind: 'task' as const, id: 't1', name: 'One' },
    { kind: 'task' as const, id: 't2', name: 'Two' },
    { kind: 'event' as const, id: 't1', name: 'An event' },
  ];
  it('leaves out the item itself', () => {
    expect(withoutItems(found, { kind: 'task', id: 't1' }).map((item) => item.name)).toEqual([
      'Two',
      'An event',
    ]);
  });
  it('leaves out every item already linked, by kind and id', () => {
    expect(
      withoutItems(found, [
        { kind: 'task', id: 't1' },
        { kind: 'task', id: 't2' },
      ]).map((item) => item.name),
    ).toEqual(['An event']);
    expect(withoutItems(found, undefined)).toEqual(found);
  });
});
