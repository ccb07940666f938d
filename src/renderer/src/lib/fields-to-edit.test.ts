import { describe, expect, it } from 'vitest';
import { fieldsToEdit } from './fields-to-edit';

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
