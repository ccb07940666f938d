import { tagReads } from '../entities/org';
import { taskReads } from '../entities/tasks';
import type { HandlerMap } from './types';
import type { TaskDetail } from '../../../shared/ipc/tasks';
import { customFieldValues, fetchOrServeCache, notHeld, refreshOpened, type ReadDeps } from './read-deps';

export function taskReadHandlers(
  deps: ReadDeps,
): HandlerMap<
  'tasks.list' | 'tasks.myWork' | 'tasks.myWorkNames' | 'tasks.due' | 'tasks.byTag' | 'tasks.detail'
> {
  const { cache, sync } = deps;
  return {
    'tasks.list': ({ projectId, includeSubprojects, filter, sort, offset, limit }) =>
      cache.tasks.list({
        scope: { kind: 'project', projectId, includeSubprojects },
        filter,
        sort,
        offset,
        limit,
      }),

    'tasks.myWork': ({ kind, userId, filter, sort, offset, limit }) =>
      cache.tasks.list({ scope: { kind, userId: userId ?? deps.userId }, filter, sort, offset, limit }),

    'tasks.myWorkNames': ({ kind, userId, filter, sort, offset, limit }) =>
      cache.tasks.names({ scope: { kind, userId: userId ?? deps.userId }, filter, sort, offset, limit }),

    'tasks.due': ({ today, through, perGroup, userId }) =>
      cache.tasks.due({ userId: userId ?? deps.userId, today, through, perGroup }),

    async 'tasks.byTag'({ tagId, filter, sort, offset, limit }) {
      // A tag's membership is known once its task list was fetched (by a pull or here).
      if (!cache.syncState.get(`tag:${tagId}`))
        await fetchOrServeCache(deps, () => sync.onDemand.run(tagReads.tasks(tagId)));
      return cache.tasks.list({ scope: { kind: 'tag', tagId }, filter, sort, offset, limit });
    },

    async 'tasks.detail'({ taskId }) {
      const state = cache.tasks.fetchStateOf(taskId);
      // Opening a task fetches its detail, messages and dependencies when never fetched or
      // when its activity moved since; otherwise the cache answers at once.
      const asked = await refreshOpened(
        deps,
        { what: 'Task', id: taskId, field: 'taskId' },
        !state ||
          state.detailFetchedAt === null ||
          state.messagesActivityMoment !== state.recentActivityMoment,
        () => sync.onDemand.run(taskReads.task(taskId)),
      );
      const task = cache.tasks.get(taskId);
      if (!task) notHeld('Task', taskId, 'taskId', asked);
      const project = cache.projects.get(task.projectId);
      const contactIds = cache.crm.contactIdsOfTask(taskId);
      const at = cache.tasks.fetchedAt(taskId);
      const detail: TaskDetail = {
        task,
        project: project ? { id: project.id, name: project.name } : null,
        parent: task.parentTaskId ? cache.tasks.row(task.parentTaskId) : null,
        subtasks: cache.tasks.subtasks(taskId),
        messages: cache.messages.listForTask(taskId),
        tags: cache.org.tagsOfTask(taskId),
        customFields: customFieldValues(cache, task.customFieldsData),
        dependencies: cache.dependencies.listFor(taskId),
        crmAccount: task.crmAccountId ? cache.crm.account(task.crmAccountId) : null,
        crmContacts: contactIds.length ? cache.crm.contactsByIds(contactIds) : [],
        detailFetchedAt: at?.detailFetchedAt ?? null,
        messagesFetchedAt: at?.messagesFetchedAt ?? null,
      };
      return detail;
    },
  };
}
