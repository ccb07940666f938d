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
