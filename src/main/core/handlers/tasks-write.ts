import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';

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
  const id = (value: string): string => outbox.realIdOf(value);
  const ids = (values: string[] | undefined): string[] | undefined => values?.map(id);
  const opt = (value: string | undefined): string | undefined =>
    value === undefined ? undefined : id(value);
  const optNull = (value: string | null | undefined): string | null | undefined =>
    value === undefined || value === null ? value : id(value);

  return {
    'tasks.create': (input) => {
      const tempId = outbox.newTempId();
      const resolved = {
        ...input,
        projectId: id(input.projectId),
        parentTaskId: opt(input.parentTaskId),
        crmAccountId: opt(input.crmAccountId),
        crmContactIds: ids(input.crmContactIds),
      };
      const clean = Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== undefined));
      const { entryId } = outbox.write('task.create', {
        tempId,
        draftId: outbox.newLocalRowId(),
        input: clean,
      });
      return { id: tempId, entryId: entryId ?? null };
    },
    'tasks.update': ({ taskId, changes }) => {
      const resolved = {
        ...changes,
        projectId: opt(changes.projectId),
        parentTaskId: opt(changes.parentTaskId),
        assignedToUserId: changes.assignedToUserId,
        crmAccountId: optNull(changes.crmAccountId),
        crmContactIds: ids(changes.crmContactIds),
      };
      const clean = Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== undefined));
      return result(outbox.write('task.update', { taskId: id(taskId), changes: clean }));
    },
    'tasks.setStatus': (input) =>
      result(
        outbox.write('task.setStatus', {
          ...input,
          taskId: id(input.taskId),
          draftId: outbox.newLocalRowId(),
        }),
      ),
    'tasks.comment': (input) =>
      result(
        outbox.write('task.comment', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
      ),
    'tasks.reply': (input) =>
      result(
        outbox.write('task.reply', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
      ),
    'tasks.addTag': (input) => result(outbox.write('task.addTag', { ...input, taskId: id(input.taskId) })),
    'tasks.removeTag': (input) =>
      result(outbox.write('task.removeTag', { ...input, taskId: id(input.taskId) })),
    'tasks.setCustomFields': (input) =>
      result(outbox.write('task.setCustomFields', { ...input, taskId: id(input.taskId) })),
    'tasks.delete': ({ taskId }) => {
      const real = id(taskId);
      return result(outbox.write('task.delete', { taskId: real, ...outbox.taskDeleteScope(real) }));
    },
  };
}

function result({ entryId }: { entryId: number | undefined }): { entryId: number | null } {
  return { entryId: entryId ?? null };
}
