import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';
import type { TaskFlat } from '../cache/repos/tasks';
import type { TaskChanges } from '../../../shared/ipc/tasks-write';
import { definedOnly, withReplaced, writer } from './write';
import { TASK_CHANGE_COLUMNS } from '../entities/tasks';

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
export function tasksWriteHandlers({ outbox, cache }: WriteDeps): HandlerMap<TasksWrite> {
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
    'tasks.update': ({ taskId, changes }) => {
      const real = id(taskId);
      const before = cache.tasks.getFlat(real);
      const queued = queue('task.update', {
        taskId: real,
        changes: definedOnly({
          ...changes,
          projectId: opt(changes.projectId),
          parentTaskId: opt(changes.parentTaskId),
          assignedToUserId: changes.assignedToUserId,
          crmAccountId: opt(changes.crmAccountId),
          crmContactIds: ids(changes.crmContactIds),
        }),
      });
      return withReplaced(
        queued,
        before ? replacedByUpdate(before, cache.tasks.getFlat(real), changes) : undefined,
      );
    },
    'tasks.setStatus': ({ undo, ...input }) => {
      const real = id(input.taskId);
      const before = cache.tasks.getFlat(real);
      const queued = queue(
        'task.setStatus',
        { ...input, taskId: real, draftId: outbox.newLocalRowId() },
        { undo: undo === true },
      );
      const after = cache.tasks.getFlat(real);
      return withReplaced(
        queued,
        before && after && before.statusId !== after.statusId ? { statusId: before.statusId } : undefined,
      );
    },
    'tasks.comment': (input) =>
      queue('task.comment', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
    'tasks.reply': (input) =>
      queue('task.reply', { ...input, taskId: id(input.taskId), draftId: outbox.newLocalRowId() }),
    'tasks.addTag': ({ undo, ...input }) =>
      queue('task.addTag', { ...input, taskId: id(input.taskId) }, { undo: undo === true }),
    'tasks.removeTag': ({ undo, ...input }) =>
      queue('task.removeTag', { ...input, taskId: id(input.taskId) }, { undo: undo === true }),
    'tasks.setCustomFields': (input) => {
      const real = id(input.taskId);
      const before = cache.tasks.getFlat(real)?.customFieldsData;
      const queued = queue('task.setCustomFields', { ...input, taskId: real });
      const after = cache.tasks.getFlat(real)?.customFieldsData;
      // Each field it changed, with the value it replaced (null: the field was empty).
      const replaced: Record<string, unknown> = {};
      for (const { id: field } of input.values) {
        const was = before?.[field] ?? null;
        if (JSON.stringify(was) !== JSON.stringify(after?.[field] ?? null)) replaced[field] = was;
      }
      return withReplaced(queued, Object.keys(replaced).length ? replaced : undefined);
    },
    'tasks.delete': ({ taskId }) => {
      const real = id(taskId);
      return queue('task.delete', { taskId: real, ...outbox.taskDeleteScope(real) });
    },
  };
}

/** The update fields an undo can put back, by the cache column each reads (a move is answered apart). */
const { projectId: _project, parentTaskId: _parent, ...UNDOABLE_FIELDS } = TASK_CHANGE_COLUMNS;

/**
 * What an update replaced, as an update that puts it back: each field it changed, read from the
 * cache row before and after the write (exact, whatever the view showed). A move answers where
 * the task was: its parent when it was a subtask (which brings the project back), else its
 * project. CRM links are not answered (they live outside the task row).
 */
export function replacedByUpdate(
  before: TaskFlat,
  after: TaskFlat | null,
  changes: TaskChanges,
): Record<string, unknown> | undefined {
  if (!after) return undefined;
  const replaced: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(UNDOABLE_FIELDS)) {
    if (!(field in changes)) continue;
    const was = before[column] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(after[column] ?? null)) replaced[field] = was;
  }
  if (before.parentTaskId !== after.parentTaskId && before.parentTaskId !== null)
    replaced.parentTaskId = before.parentTaskId;
  else if (before.projectId !== after.projectId) replaced.projectId = before.projectId;
  return Object.keys(replaced).length ? replaced : undefined;
}
