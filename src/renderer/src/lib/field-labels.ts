// Argument and record field names as a user reads them ("assignedToUserId" -> "Assignee").
// Kept apart from errors.ts so code that only labels fields does not load the bridge.

const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  projectId: 'Project',
  parentTaskId: 'Parent task',
  parentProjectId: 'Parent folder',
  projectTemplateId: 'Template',
  projectOwnerUserId: 'Owner',
  ownerUserId: 'Owner',
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

/**
 * A message from a schema or the service in a user's words: a leading "field: " and the field
 * names inside it read as labels ("endDate: must not be before startDate" becomes "End date: must
 * not be before start date"). Only names this file knows are read, and inside the text only those
 * written as one camel-case word, so plain words ("name", "message") stay as they are.
 */
export function inFieldWords(message: string): string {
  return message
    .replace(/^([A-Za-z]+): /, (whole, field: string) =>
      field in FIELD_LABELS ? `${fieldLabel(field)}: ` : whole,
    )
    .replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (word) =>
      word in FIELD_LABELS ? fieldLabel(word).toLowerCase() : word,
    );
}
