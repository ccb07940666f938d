// Custom-field values: how each of the 15 value types reads, and how typed text becomes a
// value of the field's type (or a sentence saying why not).
import { CUSTOM_FIELD_TYPES, checkCustomFieldValue } from '@shared/api/custom-fields';

export const FIELD_TYPE = CUSTOM_FIELD_TYPES;

export interface FieldDefinition {
  name: string;
  type: number;
  params: unknown;
}

export function fieldParams(def: FieldDefinition): Record<string, unknown> {
  return def.params && typeof def.params === 'object' && !Array.isArray(def.params)
    ? (def.params as Record<string, unknown>)
    : {};
}

/** The options of a Dropdown or Multi Select field: value (integer) and label. */
export function listItems(def: FieldDefinition): { value: number; label: string }[] {
  const items = fieldParams(def)['listItems'];
  if (!items || typeof items !== 'object') return [];
  if (Array.isArray(items)) {
    return items.flatMap((item, index) => {
      if (typeof item === 'string') return [{ value: index, label: item }];
      if (item && typeof item === 'object') {
        const record = item as Record<string, unknown>;
        const value = Number(record['value'] ?? record['id'] ?? index);
        return [{ value, label: String(record['label'] ?? record['name'] ?? value) }];
      }
      return [];
    });
  }
  return Object.entries(items as Record<string, unknown>)
    .map(([key, label]) => ({ value: Number(key), label: String(label) }))
    .filter((item) => Number.isInteger(item.value));
}

export const RAG_LABELS = ['Red', 'Amber', 'Green'] as const;

/** A value as text for reading. */
export function formatFieldValue(
  def: FieldDefinition,
  value: unknown,
  userName: (id: string) => string = (id) => id,
): string {
  if (value === null || value === undefined || value === '') return '';
  const t = FIELD_TYPE;
  const params = fieldParams(def);
  switch (def.type) {
    case t.checkbox:
      return value === true ? 'Yes' : 'No';
    case t.currency: {
      const digits = typeof params['decimalPlaces'] === 'number' ? params['decimalPlaces'] : 2;
      const symbol = typeof params['symbol'] === 'string' ? params['symbol'] : '';
      return typeof value === 'number' ? `${symbol}${value.toFixed(digits)}` : String(value);
    }
    case t.percentage:
      return `${String(value)}%`;
    case t.dropdown:
      return listItems(def).find((item) => item.value === value)?.label ?? String(value);
    case t.multiSelect:
      return Array.isArray(value)
        ? value.map((v) => listItems(def).find((item) => item.value === v)?.label ?? String(v)).join(', ')
        : String(value);
    case t.rating:
      return typeof value === 'number'
        ? '★'.repeat(value) + '☆'.repeat(Math.max(0, ratingMax(def) - value))
        : '';
    case t.user:
      return typeof value === 'string' ? userName(value) : '';
    case t.rag:
      return RAG_LABELS[value as 0 | 1 | 2] ?? String(value);
    default:
      return String(value);
  }
}

export function ratingMax(def: FieldDefinition): number {
  const max = fieldParams(def)['max'];
  return typeof max === 'number' && max > 0 ? max : 5;
}

/**
 * Text typed into a number-like field as a value: '' resets (null); otherwise a number.
 * Answers {error} naming the rule when the text is not a value of the field's type.
 */
export function parseFieldText(def: FieldDefinition, text: string): { value: unknown } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const t = FIELD_TYPE;
  let value: unknown = text;
  if (def.type === t.number || def.type === t.currency || def.type === t.percentage) {
    value = Number(trimmed.replace(',', '.'));
  } else if (def.type === t.email || def.type === t.url || def.type === t.phone) {
    value = trimmed;
  }
  const problem = checkCustomFieldValue({ name: def.name, type: def.type, params: fieldParams(def) }, value);
  return problem ? { error: `${def.name} ${problem}` } : { value };
}
