// The text "Copy details" puts on the clipboard for a change: enough for a bug report, in a form
// a person can read and paste (what the change is, its item, attempts, the error, its payload).
import type { OutboxEntryView } from '@shared/ipc/outbox';

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
