import { ZodError } from 'zod';
import { describeZodError } from '../../../shared/errors';
import type { EditableFields } from '../../../shared/ipc/outbox';
import { OutboxError } from './outbox';

/**
 * What a person can correct in a queued change, whatever its kind: the fields an update changes
 * (`changes`), the fields a create was given (`input`: a task's title and dates, a project's name,
 * owner and dates, a contact's phone...), or a message's text. Only plain values (text, number,
 * yes/no, cleared) are offered: lists and objects (contacts of a task, a status) stay as they were.
 * The payload's other parts (the local id a create makes, the draft of its message) never change,
 * so the entries waiting for the item still find it.
 */
const PARTS = ['changes', 'input'] as const;
type Part = (typeof PARTS)[number] | null;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlain(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The part of `payload` holding what the user typed, and where it sits (null: at the top). */
function partOf(payload: unknown): { part: Part; values: Record<string, unknown> } | null {
  if (!isRecord(payload)) return null;
  for (const part of PARTS) {
    const values = payload[part];
    if (isRecord(values)) return { part, values };
  }
  return typeof payload['message'] === 'string'
    ? { part: null, values: { message: payload['message'] } }
    : null;
}

/** The fields of a payload a person can correct; null when it has none. */
export function editableFields(payload: unknown): EditableFields | null {
  const found = partOf(payload);
  if (!found) return null;
  const fields = Object.fromEntries(Object.entries(found.values).filter(([, value]) => isPlain(value)));
  return Object.keys(fields).length ? (fields as EditableFields) : null;
}

/**
 * `payload` with `fields` corrected: each must be one `editableFields` offers (else an error
 * naming it); the rest of the payload is kept as it is. The kind validates the result.
 */
export function correctedPayload(payload: unknown, fields: EditableFields): { payload: unknown; part: Part } {
  const found = partOf(payload);
  const editable = editableFields(payload) ?? {};
  for (const field of Object.keys(fields)) {
    if (!(field in editable))
      throw new OutboxError('invalid-argument', `${field}: cannot be corrected in this change`, field);
  }
  if (!found || !isRecord(payload)) return { payload, part: null };
  if (found.part === null) return { payload: { ...payload, ...fields }, part: null };
  return { payload: { ...payload, [found.part]: { ...found.values, ...fields } }, part: found.part };
}

/**
 * A correction the kind's schema refused, named by the corrected field (`endDate`, not
 * `input.endDate`), as the same schema names it for a new create or update.
 */
export function correctionError(err: ZodError, part: Part): OutboxError {
  const issue = err.issues[0];
  const path = issue && part !== null && issue.path[0] === part ? issue.path.slice(1) : issue?.path;
  const { field, message } = describeZodError(
    issue && path ? new ZodError([{ ...issue, path }]) : err,
    part ?? 'payload',
  );
  return new OutboxError('invalid-argument', message, field);
}
