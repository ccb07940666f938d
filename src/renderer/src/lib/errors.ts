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

/**
 * What a view does with the item it shows when asking the core for it again failed:
 * - `gone`: not-found, the cache says the item was deleted; what is shown is dropped.
 * - `not-held`: an 'offline' answer naming the item's id argument (`idField`): the cache no longer
 *   holds the item and the service did not answer about it, so it may be deleted; what is shown
 *   is dropped and the error shown instead.
 * - `kept`: any other failure (the whole core 'offline' for a moment: restarting, its socket
 *   lost; a refused argument): the item stays on screen with what is being typed in it, and the
 *   error is shown above it with Try again.
 */
export type FailedReadAgain = 'gone' | 'not-held' | 'kept';

export function failedReadAgain(error: unknown, idField: string): FailedReadAgain {
  if (!(error instanceof BridgeError)) return 'kept';
  if (error.type === 'not-found') return 'gone';
  return error.type === 'offline' && error.field === idField ? 'not-held' : 'kept';
}

/**
 * What a list does when reading it again failed, by the same rule as `failedReadAgain`: `kept`
 * when it has an answer already and the failure is not the item's being gone or no longer held
 * (the core lost for a moment): its rows stay with a note above them; else `shown`: the error
 * takes the list's place, with Try again. `idField` names the argument that says whose list it
 * is (a project's dependencies: 'projectId'); a list of everything has none.
 */
export function failedListRead(error: unknown, answered: boolean, idField = ''): 'kept' | 'shown' {
  return answered && failedReadAgain(error, idField) === 'kept' ? 'kept' : 'shown';
}

/**
 * The note to record for a failed read of something a view shows: none when it holds an earlier
 * answer (`held`) and the bridge failed the call itself because its connection to the core was
 * lost. The status bar says that once for every view, and the views read again when the
 * connection is back: a note per view, kept until then, would repeat it and would be announced
 * again, no longer true, as the connection comes back. Any other failure is described.
 */
export function failedReadNote(error: unknown, held: boolean): string | undefined {
  return held && error instanceof BridgeError && error.lostConnection ? undefined : describeError(error);
}
