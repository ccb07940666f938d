// How a project history event reads: its type as words, its values as short text.
import { formatDay, formatMinutes, priorityLabel } from './format';

const KNOWN: Record<string, string> = {
  STATUS_COMMENTS_UPDATED: 'updated the status comments',
  STATUS_UPDATED: 'changed the status',
  NAME_UPDATED: 'renamed the project',
  DESCRIPTION_UPDATED: 'changed the description',
  PROJECT_CREATED: 'created the project',
  PROJECT_ARCHIVED: 'archived the project',
  PARENT_UPDATED: 'moved the project',
  OWNER_UPDATED: 'changed the owner',
  SYSTEM_STATUS_UPDATED: 'changed the state',
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

/** The names the view knows, for values that are ids (the service records ids, not names). */
export interface HistoryNames {
  user(id: string): string;
  project(id: string): string;
  status(id: string): string | undefined;
}

/** How one event reads: the sentence after the user's name, and the change, if it shows one. */
export interface HistoryLine {
  action: string;
  oldValue: string;
  newValue: string;
}

/** A value of the event's field as a user reads it: a name for an id, words for a code. */
function readValue(eventType: string, value: unknown, names: HistoryNames): string {
  if (value === null || value === undefined || value === '') return '';
  const text = historyValue(value);
  switch (eventType) {
    case 'OWNER_UPDATED':
      return names.user(text);
    case 'PARENT_UPDATED':
      return names.project(text);
    case 'STATUS_UPDATED':
      return names.status(text) ?? text;
    case 'SYSTEM_STATUS_UPDATED':
      return text === '2' ? 'Open' : text === '5' ? 'Archived' : text;
    case 'PRIORITY_UPDATED':
      return typeof value === 'number' ? priorityLabel(value) : text;
    case 'ESTIMATE_UPDATED':
      return typeof value === 'number' ? formatMinutes(value) : text;
    case 'PROGRESS_UPDATED':
      return typeof value === 'number' ? `${value}%` : text;
    case 'START_DATE_UPDATED':
    case 'END_DATE_UPDATED':
      return formatDay(text) || text;
    default:
      return text;
  }
}

export function historyLine(
  event: { eventType: string; params: { oldValue?: unknown; newValue?: unknown } },
  names: HistoryNames,
): HistoryLine {
  const oldValue = readValue(event.eventType, event.params.oldValue, names);
  const newValue = readValue(event.eventType, event.params.newValue, names);
  // The creation records the name the project had then; under today's name it reads as the
  // same project only when said so ("created the project as 'Project 5'").
  if (event.eventType === 'PROJECT_CREATED' && newValue) {
    return { action: `created the project as ‘${newValue}’`, oldValue: '', newValue: '' };
  }
  return { action: describeHistoryEvent(event.eventType), oldValue, newValue };
}
