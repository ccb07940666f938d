import { z } from 'zod';
import { DateString, Id, Minutes, Priority, Title, endBeforeStart, endNotBeforeStart } from '../api/common';
import { StoryPoints, TaskUpdateFields } from '../api/tasks';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

/**
 * Write channels of tasks. Each write is applied to the cache at once and queued in the outbox;
 * the answer names the outbox entry (null when the write changed nothing) and, for a create,
 * the new item's id, a local id (`local-...`) until the service acknowledges it.
 */
export const WriteResult = lazySchema(() =>
  z.object({
    entryId: z.number().int().nullable(),
    /**
     * The values the write replaced, under the write's own field names (an update's changed
     * fields, a status change's `statusId`, custom fields by their id, null for empty): what an
     * undo writes back. Absent when nothing changed.
     */
    replaced: z.record(z.string(), z.unknown()).optional(),
    /** True when the write put back what a waiting change made (an undo): both were withdrawn, nothing is sent. */
    withdrawn: z.boolean().optional(),
  }),
);
export type WriteResult = z.infer<typeof WriteResult>;

export const CreateResult = lazySchema(() => WriteResult.extend({ id: z.string() }));
export type CreateResult = z.infer<typeof CreateResult>;

/**
 * How long a task delete waits before it is sent (ms): the service cannot bring a deleted task
 * back, so this is the time Undo has to withdraw it.
 */
export const TASK_DELETE_HOLD_MS = 5000;

const Text = lazySchema(() => z.string().max(200_000, 'must be at most 200000 characters'));

/**
 * Every field of the update-task operation but the acting user (the account's). `todoList` is the
 * whole set of the task's to-do lists (the service replaces them as one).
 */
export const TaskChanges = lazySchema(() =>
  TaskUpdateFields.strict().refine((c) => c.projectId === undefined || c.parentTaskId === undefined, {
    message: 'cannot be used together with projectId',
    path: ['parentTaskId'],
  }),
);
export type TaskChanges = z.infer<typeof TaskChanges>;

export const TaskCreateInput = lazySchema(() =>
  z
    .object({
      projectId: Id,
      title: Title,
      /** Creates a subtask. */
      parentTaskId: Id.optional(),
      message: Text.optional(),
      /** Assignee and action-required user. */
      toUserId: Id.optional(),
      taskTypeId: Id.optional(),
      startDate: DateString.optional(),
      endDate: DateString.optional(),
      deadline: DateString.optional(),
      estimate: Minutes.optional(),
      storyPoints: StoryPoints.optional(),
      priority: Priority.optional(),
      crmContactIds: z.array(Id).max(100).optional(),
      crmAccountId: Id.optional(),
    })
    .strict()
    .refine(endNotBeforeStart, endBeforeStart()),
);
export type TaskCreateInput = z.infer<typeof TaskCreateInput>;

export const TaskUpdateInput = lazySchema(() =>
  z.object({ taskId: Id, changes: TaskChanges.refine(endNotBeforeStart, endBeforeStart()) }).strict(),
);
export const TaskStatusInput = lazySchema(() =>
  z.object({ taskId: Id, statusId: Id, message: Text.optional() }).strict(),
);
/**
 * The channel's input: `undo` says the write takes back the task's latest status change, so while
 * that one still waits both are withdrawn, a message it carried with it, and nothing is sent.
 */
export const TaskStatusWriteInput = lazySchema(() =>
  TaskStatusInput.extend({ undo: z.boolean().optional() }).strict(),
);
export const TaskCommentInput = lazySchema(() =>
  z.object({ taskId: Id, message: Text.min(1, 'a comment needs a message') }).strict(),
);
export const TaskReplyInput = lazySchema(() =>
  z.object({ taskId: Id, actionRequiredUserId: Id, message: Text.optional() }).strict(),
);
/** A tag link change, as queued (the outbox payload of a tag kind). */
export const TaskTagInput = lazySchema(() => z.object({ taskId: Id, tagId: Id }).strict());
/**
 * The channel's input: `undo` says the write takes back the task's latest tag change, so while
 * that one still waits both are withdrawn and nothing is sent.
 */
export const TaskTagWriteInput = lazySchema(() =>
  TaskTagInput.extend({ undo: z.boolean().optional() }).strict(),
);
export const CustomFieldValue = lazySchema(() => z.object({ id: Id, value: z.unknown() }).strict());
export const TaskCustomFieldsInput = lazySchema(() =>
  z
    .object({ taskId: Id, values: z.array(CustomFieldValue).min(1, 'must name at least one field').max(200) })
    .strict(),
);
export const TaskDeleteInput = lazySchema(() => z.object({ taskId: Id }).strict());

export const tasksWriteChannels = {
  'tasks.create': channel(
    () => TaskCreateInput,
    () => CreateResult,
  ),
  'tasks.update': channel(
    () => TaskUpdateInput,
    () => WriteResult,
  ),
  'tasks.setStatus': channel(
    () => TaskStatusWriteInput,
    () => WriteResult,
  ),
  'tasks.comment': channel(
    () => TaskCommentInput,
    () => WriteResult,
  ),
  'tasks.reply': channel(
    () => TaskReplyInput,
    () => WriteResult,
  ),
  'tasks.addTag': channel(
    () => TaskTagWriteInput,
    () => WriteResult,
  ),
  'tasks.removeTag': channel(
    () => TaskTagWriteInput,
    () => WriteResult,
  ),
  'tasks.setCustomFields': channel(
    () => TaskCustomFieldsInput,
    () => WriteResult,
  ),
  'tasks.delete': channel(
    () => TaskDeleteInput,
    () => WriteResult,
  ),
};
