// The names of tasks seen, for the title of a task's page (`placeTitle` in `views/routes.ts`).

/** Names of tasks seen in a detail view, so the title of a task page can use them. */
const taskNames = $state<Record<string, string>>({});

export function setTaskTitle(taskId: string, name: string): void {
  if (taskNames[taskId] !== name) taskNames[taskId] = name;
}
export function taskTitle(taskId: string): string | undefined {
  return taskNames[taskId];
}
