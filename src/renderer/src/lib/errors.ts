// Bridge errors in words a user understands, naming the field when the core names one.
import { BridgeError } from './bridge';

const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  projectId: 'Project',
  parentTaskId: 'Parent task',
  parentProjectId: 'Parent folder',
  statusId: 'Status',
  assignedToUserId: 'Assignee',
  actionRequiredUserId: 'Action required user',
  toUserId: 'Assignee',
  priority: 'Priority',
  deadline: 'Deadline',
  startDate: 'Start date',
  endDate: 'End date',
  scheduleDate: 'Schedule date',
  estimate: 'Estimate',
  progress: 'Progress',
  storyPoints: 'Story points',
  message: 'Message',
  taskTypeId: 'Task type',
  customFields: 'Custom field',
  color: 'Color',
  userId: 'Acting user',
  baseUrl: 'Service address',
  token: 'Token',
};

/** The user-facing label of an argument field path such as `patch.deadline`. */
export function fieldLabel(field: string): string {
  const last =
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? field;
  return FIELD_LABELS[last] ?? last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

const TYPE_WORDS: Record<string, string> = {
  offline: 'The Workdesk core cannot be reached right now.',
  'not-found': 'It no longer exists; it may have been deleted.',
  unauthorized: 'The service refused the token; check the account in Settings.',
  'unknown-channel': 'not available on this connection.',
  conflict: 'Someone changed it at the same time.',
};

export function describeError(error: unknown): string {
  if (error instanceof BridgeError) {
    const message = stripFieldPrefix(error.message, error.field);
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
