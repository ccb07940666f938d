import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';
import { definedOnly, writer } from './write';

export interface WriteDeps {
  outbox: AccountOutbox;
  cache: Cache;
}

type TasksWrite =
  | 'tasks.create'
  | 'tasks.update'
  | 'tasks.setStatus'
  | 'tasks.comment'
  | 'tasks.reply'
  | 'tasks.addTag'
  | 'tasks.removeTag'
  | 'tasks.setCustomFields'
  | 'tasks.delete';

/**
 * Task writes: each applies to the cache and queues its entry in one transaction (rule 1) and
 * answers at once; the outbox sends it later. Ids may be local ones of items created offline;
 * those already acknowledged are translated to their real ids first.
 */
export function tasksWriteHandlers({ outbox }: WriteDeps): HandlerMap<TasksWrite> {
  const { id, opt, ids, queue, create } = writer(outbox);
  return {
    'tasks.create': (input) =>
      create('task.create', (tempId) => ({
        tempId,
        draftId: outbox.newLocalRowId(),
        input: definedOnly({
          ...input,
          projectId: id(input.projectId),
          parentTaskId: opt(input.parentTaskId),
          crmAccountId: opt(input.crmAccountId),
          crmContactIds: ids(input.crmContactIds),
        }),
      })),
    'tasks.update': ({ taskId, changes }) =>
      queue('task.update', {
        taskId: id(taskId),
        changes: definedOnly({
          ...changes,
          projectId: opt(changes.projectId),
          parentTaskId: opt(changes.parentTaskId),
          assignedToUserId: changes.assignedToUserId,
          crmAccountId: opt(changes.crmAccountId),
          crmContactIds: ids(changes.crmContactIds),
        }),
      }),
    'tasks.setStatus': (input) =>
      queue('task.setStatus', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
    'tasks.comment': (input) =>
      queue('task.comment', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
    'tasks.reply': (input) =>
      queue('task.reply', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
    'tasks.addTag': (input) => queue('task.addTag', { ...input, taskId: id(input.taskId) }),
    'tasks.removeTag': (input) => queue('task.removeTag', { ...input, taskId: id(input.taskId) }),
    'tasks.setCustomFields': (input) => queue('task.setCustomFields', { ...input, taskId: id(input.taskId) }),
    'tasks.delete': ({ taskId }) => {
      const real = id(taskId);
      return queue('task.delete', { taskId: real, ...outbox.taskDeleteScope(real) });
    },
  };
}
