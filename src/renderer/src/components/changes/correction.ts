// The form side of correcting a queued change (`outbox.correct`): the core offers the fields a
// person can correct with their current values; the form edits them as text and gives back
// values of the same types.
import type { EditableFields } from '@shared/ipc/outbox';

type Value = EditableFields[string];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_FIELDS = new Set(['startDate', 'endDate', 'deadline', 'scheduleDate']);
/** Fields that hold paragraphs rather than a line. */
const LONG_FIELDS = new Set(['message', 'description', 'notes', 'statusComments']);

/**
 * The input a field is edited in: a list of the organization's users for a user (an owner, an
 * assignee), a day picker for dates, a check box for yes/no, a text area for a message or notes,
 * else a line of text.
 */
export function inputTypeOf(
  field: string,
  value: Value,
): 'user' | 'date' | 'checkbox' | 'number' | 'long' | 'text' {
  if (field.endsWith('UserId') && (value === null || typeof value === 'string')) return 'user';
  if (typeof value === 'boolean') return 'checkbox';
  if (typeof value === 'number') return 'number';
  if (DATE_FIELDS.has(field) && (value === null || DAY.test(value))) return 'date';
  return LONG_FIELDS.has(field) ? 'long' : 'text';
}

/** The fields as the form's text. */
export function draftOf(fields: EditableFields): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, value === null ? '' : String(value)]),
  );
}

/**
 * The form's text back as values of the offered types: a number stays a number, yes/no stays
 * yes/no; a field that held no value, or a number, date or user, emptied is cleared (null); text stays
 * text, even empty (the core's schema says whether it may be). Only fields that changed.
 */
export function correctedValues(fields: EditableFields, draft: Record<string, string>): EditableFields {
  const out: EditableFields = {};
  for (const [key, before] of Object.entries(fields)) {
    const text = draft[key];
    if (text === undefined) continue;
    let value: Value;
    if (typeof before === 'boolean') value = text === 'true';
    else if (
      text.trim() === '' &&
      (typeof before !== 'string' || !['text', 'long'].includes(inputTypeOf(key, before)))
    )
      value = null;
    else if (typeof before === 'number') value = Number(text);
    else value = text;
    if (value !== before) out[key] = value;
  }
  return out;
}
