// Changes to a task's to-do lists, as pure functions over GoodDay's structure
// (`[{uid, title, items: [{properties: {completed, title, userId}}]}]`). Each answers a new
// whole set, as the service replaces the lists as one; fields it does not know are kept.
import type { TodoItem, TodoList, TodoLists } from '@shared/api/tasks';

/** Ticked and all items over every list, for the "3/5" in the section header. */
export function todoProgress(lists: TodoLists | null | undefined): { done: number; total: number } {
  let done = 0;
  let total = 0;
  for (const list of lists ?? []) {
    for (const item of list.items) {
      total++;
      if (item.properties.completed) done++;
    }
  }
  return { done, total };
}

/**
 * A task row's to-do progress ("3/5", and its words for a screen reader), or undefined for a
 * task without items.
 */
export function todoProgressText(done: number, total: number): { text: string; label: string } | undefined {
  if (total <= 0) return undefined;
  return {
    text: `${done}/${total}`,
    label: `${done} of ${total} to-do ${total === 1 ? 'item' : 'items'} done`,
  };
}

function newUid(): string {
  return (
    globalThis.crypto?.randomUUID?.() ??
    `todo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  );
}

export function addList(lists: TodoLists, title: string): TodoLists {
  return [...lists, { uid: newUid(), title, items: [] }];
}

function mapList(lists: TodoLists, uid: string, change: (list: TodoList) => TodoList): TodoLists {
  return lists.map((list) => (list.uid === uid ? change(list) : list));
}

export function renameList(lists: TodoLists, uid: string, title: string): TodoLists {
  return mapList(lists, uid, (list) => ({ ...list, title }));
}

export function removeList(lists: TodoLists, uid: string): TodoLists {
  return lists.filter((list) => list.uid !== uid);
}

export function addItem(lists: TodoLists, uid: string, title: string): TodoLists {
  const item: TodoItem = { properties: { completed: false, title, userId: null } };
  return mapList(lists, uid, (list) => ({ ...list, items: [...list.items, item] }));
}

/** Changes one item's properties (completed, title, userId), keeping the others. */
export function changeItem(
  lists: TodoLists,
  uid: string,
  index: number,
  change: Partial<TodoItem['properties']>,
): TodoLists {
  return mapList(lists, uid, (list) => ({
    ...list,
    items: list.items.map((item, i) =>
      i === index ? { ...item, properties: { ...item.properties, ...change } } : item,
    ),
  }));
}

export function removeItem(lists: TodoLists, uid: string, index: number): TodoLists {
  return mapList(lists, uid, (list) => ({ ...list, items: list.items.filter((_, i) => i !== index) }));
}

/** Moves an item one place up (-1) or down (+1) in its list; at either end nothing changes. */
export function moveItem(lists: TodoLists, uid: string, index: number, by: -1 | 1): TodoLists {
  return mapList(lists, uid, (list) => {
    const to = index + by;
    if (to < 0 || to >= list.items.length) return list;
    const items = [...list.items];
    [items[index], items[to]] = [items[to]!, items[index]!];
    return { ...list, items };
  });
}
