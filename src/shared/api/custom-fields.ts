import { z } from 'zod';
import { DateString, Id, jsonEncodedOr, orDefault } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/**
 * Custom-field value types. The spec names the 15 types but not their numeric codes; these are
 * the codes this service uses in the `type` of a definition.
 */
export const CUSTOM_FIELD_TYPES = {
  text: 1,
  textarea: 2,
  checkbox: 3,
  number: 4,
  currency: 5,
  percentage: 6,
  date: 7,
  dropdown: 8,
  multiSelect: 9,
  rating: 10,
  email: 11,
  phone: 12,
  url: 13,
  user: 14,
  rag: 15,
} as const;
export type CustomFieldTypeName = keyof typeof CUSTOM_FIELD_TYPES;

export const CustomFieldDefinition = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    type: z.number().int(),
    access: orDefault(z.number().int(), () => 0),
    /**
     * Currency-like: `{decimalPlaces, symbol}`. Dropdown and Multi Select: `{listItems}` mapping an
     * option value (as a string key) to its label. Rating: `{max}`.
     */
    params: orDefault(z.record(z.string(), z.unknown()), () => ({})),
    sortPosition: orDefault(z.number().int(), () => 0),
  }),
);
export type CustomFieldDefinition = z.infer<typeof CustomFieldDefinition>;
export const CustomFieldsResponse = lazySchema(() => z.array(CustomFieldDefinition));

/** PUT /task/{id}/custom-fields and PUT /project/{id}/custom-fields; `customFields` may arrive JSON-encoded. */
export const SetCustomFieldsBody = lazySchema(() =>
  z.object({
    userId: Id.optional(),
    customFields: jsonEncodedOr(
      z.array(z.object({ id: Id, value: z.unknown() }), { message: 'must be an array of {id, value}' }),
    ),
  }),
);
export type SetCustomFieldsBody = z.input<typeof SetCustomFieldsBody>;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

function listItemKeys(params: Record<string, unknown>): Set<string> | null {
  const items = params['listItems'];
  if (!items || typeof items !== 'object' || Array.isArray(items)) return null;
  return new Set(Object.keys(items));
}

/**
 * Checks a value against its field's type (null always resets). Returns a sentence naming the
 * rule, or null when the value is acceptable. `isUser` lets the caller check User values.
 */
export function checkCustomFieldValue(
  def: Pick<CustomFieldDefinition, 'name' | 'type' | 'params'>,
  value: unknown,
  isUser: (id: string) => boolean = () => true,
): string | null {
  if (value === null) return null;
  const t = CUSTOM_FIELD_TYPES;
  const isFiniteNumber = typeof value === 'number' && Number.isFinite(value);
  switch (def.type) {
    case t.text:
    case t.textarea:
    case t.phone:
      return typeof value === 'string' && value.length <= 100_000 ? null : 'must be a string';
    case t.email:
      return typeof value === 'string' && EMAIL_RE.test(value) ? null : 'must be an email address';
    case t.url:
      return typeof value === 'string' && URL_RE.test(value) ? null : 'must be a URL';
    case t.checkbox:
      return typeof value === 'boolean' ? null : 'must be true or false';
    case t.number:
    case t.currency:
    case t.percentage:
      return isFiniteNumber ? null : 'must be a number';
    case t.date:
      return DateString.safeParse(value).success ? null : 'must be a date written YYYY-MM-DD';
    case t.dropdown: {
      if (!Number.isInteger(value)) return 'must be an integer option value';
      const keys = listItemKeys(def.params);
      return !keys || keys.has(String(value)) ? null : 'must be one of the field options';
    }
    case t.multiSelect: {
      if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v)))
        return 'must be an array of integer option values';
      const keys = listItemKeys(def.params);
      return !keys || value.every((v) => keys.has(String(v))) ? null : 'must contain only field options';
    }
    case t.rating: {
      const max = typeof def.params['max'] === 'number' ? def.params['max'] : 5;
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max
        ? null
        : `must be an integer 0-${max}`;
    }
    case t.user:
      return typeof value === 'string' && isUser(value) ? null : 'must be the id of an existing user';
    case t.rag:
      return value === 0 || value === 1 || value === 2
        ? null
        : 'must be 0 (red), 1 (amber), 2 (green) or null';
    default:
      return 'has an unknown field type';
  }
}

/** The service's endpoints of custom-field definitions (a task's and a project's values: theirs). */
export const customFieldEndpoints = endpoints({
  customFields: endpoint({
    method: 'GET',
    path: '/custom-fields',
    read: 'list',
    response: CustomFieldsResponse,
  }),
});
