import { describe, expect, it } from 'vitest';
import { followItemKeys, type KeyedItems } from './todo-item-keys';

/** Keys `n1`, `n2`… for the items new to a read. */
function counter(): () => string {
  let n = 0;
  return () => `n${++n}`;
}
const shown = (titles: string[]): KeyedItems => ({ keys: titles.map((_, i) => `k${i}`), titles });

describe('followItemKeys: a to-do item keeps its key from one read of its list to the next', () => {
  const before = shown(['Alpha', 'Beta', 'Gamma']);

  it('gives every item a new key on the first read', () => {
    expect(followItemKeys({ keys: [], titles: [] }, ['Alpha', 'Beta'], counter())).toEqual(['n1', 'n2']);
  });

  it('keeps the keys of a list read again unchanged', () => {
    expect(followItemKeys(before, ['Alpha', 'Beta', 'Gamma'], counter())).toEqual(['k0', 'k1', 'k2']);
  });

  it('moves the keys with their items when one is inserted or removed above them', () => {
    expect(followItemKeys(before, ['New', 'Alpha', 'Beta', 'Gamma'], counter())).toEqual([
      'n1',
      'k0',
      'k1',
      'k2',
    ]);
    expect(followItemKeys(before, ['Beta', 'Gamma'], counter())).toEqual(['k1', 'k2']);
    expect(followItemKeys(before, ['Alpha', 'Gamma', 'New'], counter())).toEqual(['k0', 'k2', 'n1']);
  });

  it('keeps the key of an item renamed in place, also with an item inserted or removed elsewhere', () => {
    expect(followItemKeys(before, ['Alpha', 'Beta by Bob', 'Gamma'], counter())).toEqual(['k0', 'k1', 'k2']);
    expect(followItemKeys(before, ['New', 'Alpha', 'Beta', 'Gamma by Bob'], counter())).toEqual([
      'n1',
      'k0',
      'k1',
      'k2',
    ]);
    expect(followItemKeys(before, ['Beta', 'Gamma by Bob'], counter())).toEqual(['k1', 'k2']);
  });

  it('follows an item moved up or down, and items of the same title by their order', () => {
    expect(followItemKeys(before, ['Beta', 'Alpha', 'Gamma'], counter())).toEqual(['k1', 'k0', 'k2']);
    const twice = shown(['Call', 'Call', 'Write']);
    expect(followItemKeys(twice, ['Write', 'Call', 'Call'], counter())).toEqual(['k2', 'k0', 'k1']);
    expect(followItemKeys(twice, ['Call', 'Write'], counter())).toEqual(['k0', 'k2']);
  });
});
