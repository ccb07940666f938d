// How a project history event reads: its type as words, its values as short text.

const KNOWN: Record<string, string> = {
  STATUS_COMMENTS_UPDATED: 'updated the status comments',
  STATUS_UPDATED: 'changed the status',
  NAME_UPDATED: 'renamed the project',
  DESCRIPTION_UPDATED: 'changed the description',
  PROJECT_CREATED: 'created the project',
  PROJECT_ARCHIVED: 'archived the project',
};

/** "updated the status comments" for STATUS_COMMENTS_UPDATED; unknown types read as words. */
export function describeHistoryEvent(eventType: string): string {
  const known = KNOWN[eventType];
  if (known) return known;
  const words = eventType.toLowerCase().replace(/_/g, ' ').trim();
  const match = /^(.*) (updated|changed|added|removed|created|deleted)$/.exec(words);
  return match ? `${match[2]} the ${match[1]}` : words;
}

/** A history value as text: strings as they are, others as JSON, null and undefined as ''. */
export function historyValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
