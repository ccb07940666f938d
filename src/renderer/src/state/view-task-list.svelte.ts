// The task list of a view (a project, My Work, a tag): made during the view's initialization, it
// follows the cache's task changes and regroups when the organization's statuses change, for as
// long as the view lives.
import { bridge } from '../lib/bridge';
import { org } from './app';
import { TaskListState, type ListQuery } from './task-list.svelte';

export function viewTaskList(
  prefsKey: string,
  query: ListQuery,
  options: { subprojects?: boolean } = {},
): TaskListState {
  const list = new TaskListState({ bridge, prefsKey, statuses: () => org.statuses, query, ...options });
  $effect(() => list.start());
  $effect(() => {
    void org.statuses;
    list.regroup();
  });
  return list;
}
