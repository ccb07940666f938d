// The text "Copy details" puts on the clipboard for a change: enough for a bug report, in a form
// a person can read and paste (what the change is, its item, attempts, the error, its payload).
import type { EntryHolder, OutboxEntryView } from '@shared/ipc/outbox';

export function changeDetails(entry: OutboxEntryView, lines: readonly string[]): string {
  return [
    `Change: ${lines.join('; ') || entry.label}`,
    `Kind: ${entry.kind}`,
    `Item: ${entry.entityKey}`,
    `State: ${entry.state === 'stuck' ? 'needs attention' : entry.state}`,
    `Attempts: ${entry.attempts}`,
    `Created: ${new Date(entry.createdAt).toISOString()}`,
    `Error: ${entry.errorType ?? 'none'}${entry.errorMessage ? `: ${entry.errorMessage}` : ''}`,
    'Payload:',
    JSON.stringify(entry.payload, null, 2),
  ].join('\n');
}

/** The element id of a change's row in Changes, for the lines that point at it. */
export function changeElementId(entryId: number): string {
  return `change-${entryId}`;
}

/**
 * Why a waiting change does not go: rule 2 keeps its chain in order, and the change named (shown
 * above it in Changes) stops the chain until it is retried, corrected or discarded.
 */
export function heldByWords(holder: EntryHolder): string {
  const what =
    holder.state === 'failed'
      ? 'the refused change'
      : holder.state === 'held'
        ? 'the change waiting for your decision'
        : 'the change that needs attention';
  return `Waiting behind ${what} “${holder.label}” above`;
}

/** How the outbox words a failure to reach the service (`classifyServiceError`). */
export const OFFLINE_MESSAGE = 'The service could not be reached';

/**
 * Where a change that is neither refused nor stuck stands, in words. A change in flight with an
 * error may or may not have reached the service (its request, or a file it uploads first, got
 * no answer), so the words promise neither: it is checked with the service before it is sent
 * again (rule 6).
 */
export function changeProgress(entry: OutboxEntryView): string {
  // Held by the check before a send (rule 7): the conflict above it says what to decide.
  if (entry.errorType === 'held')
    return `Waiting for your decision: ${entry.errorMessage ?? 'see the conflict above'}`;
  if (entry.heldBy && entry.state === 'pending') return heldByWords(entry.heldBy);
  // A task delete waits a few seconds before it is sent, so its Undo can still withdraw it.
  if (entry.errorType === 'undo-window' && entry.attempts === 0)
    return 'Sent in a few seconds; it can still be undone';
  // A network failure (the outbox's words for it, `classify.ts`): it goes when the service is
  // back. One in flight may have reached it: the words say it is checked first (rule 6).
  if (entry.errorMessage === OFFLINE_MESSAGE) {
    const tried = `(tried ${entry.attempts} ${entry.attempts === 1 ? 'time' : 'times'})`;
    return entry.state === 'in_flight'
      ? `Will be sent when you are back online, checked with the service first ${tried}`
      : `Will be sent when you are back online ${tried}`;
  }
  if (entry.state === 'in_flight' && !entry.errorType) return 'Sending…';
  if (entry.attempts === 0 && !entry.errorType) return 'Waiting to be sent';
  const where =
    entry.errorType === 'fold-failed'
      ? 'Applied by the service; storing its answer failed, will retry'
      : entry.state === 'in_flight'
        ? 'No answer yet; checked with the service before it is sent again'
        : 'Waiting to retry';
  const tried = `(tried ${entry.attempts} ${entry.attempts === 1 ? 'time' : 'times'})`;
  return `${where} ${tried}${entry.errorMessage ? ` — ${entry.errorMessage}` : ''}`;
}
