import { describe, expect, it } from 'vitest';
import { FIELD_TYPE, formatFieldValue, listItems, parseFieldText } from './custom-fields';

const def = (type: number, params: unknown = {}) => ({ name: 'Budget', type, params });

describe('custom fields', () => {
  it('reads option labels from listItems', () => {
    const dropdown = def(FIELD_TYPE.dropdown, { listItems: { '1': 'Low', '2': 'High' } });
    expect(listItems(dropdown)).toEqual([
      { value: 1, label: 'Low' },
      { value: 2, label: 'High' },
    ]);
    expect(formatFieldValue(dropdown, 2)).toBe('High');
    expect(formatFieldValue(def(FIELD_TYPE.multiSelect, { listItems: { '1': 'A', '2': 'B' } }), [1, 2])).toBe(
      'A, B',
    );
  });

  it('formats currency, RAG, checkbox and users', () => {
    expect(formatFieldValue(def(FIELD_TYPE.currency, { decimalPlaces: 2, symbol: '€' }), 12.5)).toBe(
      '€12.50',
    );
    expect(formatFieldValue(def(FIELD_TYPE.rag), 1)).toBe('Amber');
    expect(formatFieldValue(def(FIELD_TYPE.checkbox), false)).toBe('No');
    expect(formatFieldValue(def(FIELD_TYPE.user), 'u1', () => 'Ada')).toBe('Ada');
    expect(formatFieldValue(def(FIELD_TYPE.text), null)).toBe('');
  });

  it('parses typed text by type and names the field when it does not fit', () => {
    expect(parseFieldText(def(FIELD_TYPE.number), '12,5')).toEqual({ value: 12.5 });
    expect(parseFieldText(def(FIELD_TYPE.number), '')).toEqual({ value: null });
    expect(parseFieldText(def(FIELD_TYPE.number), 'abc')).toEqual({ error: 'Budget must be a number' });
    expect(parseFieldText(def(FIELD_TYPE.email), 'not-mail')).toEqual({
      error: 'Budget must be an email address',
    });
    expect(parseFieldText(def(FIELD_TYPE.url), 'https://x.org')).toEqual({ value: 'https://x.org' });
  });
});
