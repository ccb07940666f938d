// Bridge errors in words a user understands, naming the field when the core names one.
import { BridgeError } from './bridge';
import { fieldLabel, inFieldWords } from './field-labels';

export { fieldLabel, inFieldWords };

const TYPE_WORDS: Record<string, string> = {
  offline: 'The Workdesk core cannot be reached right now.',
  'not-found': 'It no longer exists; it may have been deleted.',
  unauthorized: 'The service refused the token; check the account in Settings.',
  'unknown-channel': 'not available on this connection.',
  conflict: 'Someone changed it at the same time.',
};

export function describeError(error: unknown): string {
  if (error instanceof BridgeError) {
    const message = inFieldWords(stripFieldPrefix(error.message, error.field));
    if (error.field) return `${fieldLabel(error.field)}: ${message}`;
    if (error.type === 'internal' || error.type === 'unknown-channel' || !message) {
      return TYPE_WORDS[error.type] ?? message;
    }
    return message || TYPE_WORDS[error.type] || 'Something went wrong.';
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The field a bridge error names, if any, so a form can mark that control. */
export function errorField(error: unknown): string | undefined {
  return error instanceof BridgeError ? error.field : undefined;
}

function stripFieldPrefix(message: string, field: string | undefined): string {
  if (field && message.startsWith(`${field}: `)) return message.slice(field.length + 2);
  return message;
}

/** A form's error line: the field's label, then the message without a field prefix of its own. */
export function problemLine(
  problem: { field: string; message: string } | undefined,
  label: (field: string) => string = fieldLabel,
): string {
  return problem ? `${label(problem.field)}: ${inFieldWords(problem.message.replace(/^[^:]+: /, ''))}` : '';
}
