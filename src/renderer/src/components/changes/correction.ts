// The form side of correcting a queued change (`outbox.correct`): the core offers the fields a
// person can correct with their current values; the form edits them as text and gives back
// values of the same types.
import type { EditableFields } from '@shared/ipc/outbox';

type Value = EditableFields[string];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_FIELDS = new Set(['startDate', 'endDate', 'deadline', 'scheduleDate']);
/** Fields that hold paragraphs rather than a line. */
const LONG_FIELDS = new Set(['message', 'description', 'notes', 'statusComments']);

/** Fields naming a cached project or folder: a task's project, a new project's parent folder. */
const PROJECT_FIELDS = new Set(['projectId', 'parentProjectId']);

/** The inputs that pick an id from a list: the organization's users, the cached projects, the templates. */
export type ListInput = 'user' | 'project' | 'template';

/**
 * The input a field is edited in: a list of the organization's users for a user (an owner, an
 * assignee), of the cached projects and folders for a project (a task's, a parent folder), of the
 * service's templates for a project's template; a day picker for dates, a check box for yes/no, a
 * text area for a message or notes, else a line of text.
 */
export function inputTypeOf(
  field: string,
  value: Value,
): ListInput | 'date' | 'checkbox' | 'number' | 'long' | 'text' {
  const id = value === null || typeof value === 'string';
  if (field.endsWith('UserId') && id) return 'user';
  if (PROJECT_FIELDS.has(field) && id) return 'project';
  if (field === 'projectTemplateId' && id) return 'template';
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

export interface Choice {
  value: string;
  label: string;
}

/**
 * The options of a list input whose value is `current`: "None" first when the field may be
 * cleared (or holds nothing), then `current` named by `unknown` when it is not among `choices`
 * (an id the list does not hold: the refused value, shown as such rather than dropped), then
 * the choices.
 */
export function choicesOf(
  choices: readonly Choice[],
  current: string,
  options: { clearable: boolean; unknown: (id: string) => string },
): Choice[] {
  const out: Choice[] = [];
  if (options.clearable || current === '') out.push({ value: '', label: 'None' });
  if (current !== '' && !choices.some((c) => c.value === current))
    out.push({ value: current, label: options.unknown(current) });
  return [...out, ...choices];
}
