import { describe, expect, it } from 'vitest';
import type { TodoLists } from '@shared/api/tasks';
import {
  addItem,
  addList,
  changeItem,
  moveItem,
  removeItem,
  removeList,
  renameList,
  todoProgress,
  todoProgressText,
} from './todo-lists';

const item = (title: string, completed = false) => ({ properties: { completed, title, userId: null } });
const lists: TodoLists = [
  { uid: 'a', title: 'Before release', items: [item('Write notes', true), item('Tag build'), item('Ship')] },
  { uid: 'b', title: 'After', items: [item('Announce', true)], color: 3 },
];

describe('to-do list changes', () => {
  it('counts ticked items over every list', () => {
    expect(todoProgress(lists)).toEqual({ done: 2, total: 4 });
    expect(todoProgress(null)).toEqual({ done: 0, total: 0 });
  });

  it('adds a list with a fresh uid and an item unticked and unassigned', () => {
    const added = addList(lists, 'New');
    expect(added[2]).toMatchObject({ title: 'New', items: [] });
    expect(added[2]!.uid).not.toBe(addList(lists, 'New')[2]!.uid);
    expect(addItem(added, added[2]!.uid, 'x')[2]!.items).toEqual([item('x')]);
    expect(addItem(lists, 'b', 'Blog post')[1]!.items[1]).toEqual(item('Blog post'));
  });

  it('ticks, renames and assigns one item, keeping what it does not know', () => {
    const next = changeItem(lists, 'a', 1, { completed: true, userId: 'u1' });
    expect(next[0]!.items[1]!.properties).toEqual({ completed: true, title: 'Tag build', userId: 'u1' });
    expect(next[0]!.items[0]).toBe(lists[0]!.items[0]);
    expect(renameList(lists, 'b', 'Later')[1]).toEqual({ ...lists[1], title: 'Later' });
  });

  it('moves an item up and down, and not past either end', () => {
    expect(moveItem(lists, 'a', 2, -1)[0]!.items.map((i) => i.properties.title)).toEqual([
      'Write notes',
      'Ship',
      'Tag build',
    ]);
    expect(moveItem(lists, 'a', 0, 1)[0]!.items[0]!.properties.title).toBe('Tag build');
    expect(moveItem(lists, 'a', 0, -1)).toEqual(lists);
    expect(moveItem(lists, 'a', 2, 1)).toEqual(lists);
  });

  it('removes an item or a whole list', () => {
    expect(removeItem(lists, 'a', 0)[0]!.items).toHaveLength(2);
    expect(removeList(lists, 'a').map((l) => l.uid)).toEqual(['b']);
  });
});

describe("a task row's to-do progress", () => {
  it('reads done over all items, and says it in words; nothing for a task without items', () => {
    const { done, total } = todoProgress(lists);
    expect(todoProgressText(done, total)).toEqual({ text: '2/4', label: '2 of 4 to-do items done' });
    expect(todoProgressText(1, 1)).toEqual({ text: '1/1', label: '1 of 1 to-do item done' });
    expect(todoProgressText(0, 0)).toBeUndefined();
  });
});
