import { describe, expect, it } from 'vitest';
import { fieldsToEdit, keepOrder } from './fields-to-edit';

const def = (id: string) => ({ id, name: id, type: 1, params: {} });

describe('fieldsToEdit', () => {
  it('lists the fields set on the item first, then the other organization fields', () => {
    const known = [def('a'), def('b'), def('c')];
    const set = [
      { fieldId: 'c', definition: null },
      { fieldId: 'a', definition: def('a') },
    ];
    expect(fieldsToEdit(set, known).map((d) => d.id)).toEqual(['c', 'a', 'b']);
  });

  it('prefers the definition read beside the value, and leaves out fields defined nowhere', () => {
    const beside = { ...def('x'), name: 'X from the item' };
    const result = fieldsToEdit(
      [
        { fieldId: 'x', definition: beside },
        { fieldId: 'gone', definition: null },
      ],
      [def('y')],
    );
    expect(result).toEqual([beside, def('y')]);
  });
});

describe('keepOrder', () => {
  it('keeps the fields where they were shown, and puts new ones after', () => {
    const shown = ['a', 'b', 'c'];
    // 'c' was just set, so fieldsToEdit lists it first now.
    expect(keepOrder([def('c'), def('a'), def('d'), def('b')], shown).map((d) => d.id)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(keepOrder([def('b')], shown).map((d) => d.id)).toEqual(['b']);
    expect(keepOrder([def('x'), def('y')], []).map((d) => d.id)).toEqual(['x', 'y']);
  });
});
