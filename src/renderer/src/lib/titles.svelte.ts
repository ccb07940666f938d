// The name of the current place, for the window title and the view headers.
import type { Route } from './navigation.svelte';
import { org, tree } from '../state/app';

/** Names of tasks seen in a detail view, so the title of a task page can use them. */
const taskNames = $state<Record<string, string>>({});

export function setTaskTitle(taskId: string, name: string): void {
  if (taskNames[taskId] !== name) taskNames[taskId] = name;
}
export function taskTitle(taskId: string): string | undefined {
  return taskNames[taskId];
}

export function placeTitle(route: Route): string {
  switch (route.kind) {
    case 'home':
      return 'Home';
    case 'project':
      return tree.name(route.projectId) || 'Project';
    case 'mywork':
      return route.tab === 'action' ? 'My Work · Action required' : 'My Work · Assigned to me';
    case 'updates':
      return 'Updates';
    case 'tag':
      return `Tag · ${org.tagName(route.tagId)}`;
    case 'search':
      return `Search · ${route.query}`;
    case 'task':
      return taskTitle(route.taskId) ?? 'Task';
    case 'calendar':
      return 'Calendar';
    case 'mytime':
      return 'My Time';
    case 'crm':
      return route.tab === 'contacts' ? 'Contacts' : 'Accounts';
    case 'changes':
      return 'Changes';
    case 'settings':
      return 'Settings';
  }
}
