import { z } from 'zod';
import { channel } from './channel';
import { Id } from './read-common';
import { lazySchema } from '../lazy-schema';

/** One change a pull brought. */
export const UpdateItem = lazySchema(() =>
  z.object({
    id: z.number().int(),
    /** comment, reply (handed over), status (a status note or change), assignee, new (task created). */
    kind: z.enum(['comment', 'reply', 'status', 'assignee', 'new']),
    /** Who did it; unknown (null) for a status or assignee change read from the task's fields. */
    actor: z.string().nullable(),
    /** The service's moment of the change. */
    at: z.string(),
    /** A message's text; a status change's status name; an assignee change's new assignee id. */
    detail: z.string().nullable(),
    /** The words a status change came with, if any. */
    text: z.string().nullable(),
    read: z.boolean(),
  }),
);
export type UpdateItem = z.infer<typeof UpdateItem>;

/** The updates of one task, newest first. */
export const UpdateGroup = lazySchema(() =>
  z.object({
    taskId: z.string(),
    shortId: z.string(),
    name: z.string(),
    projectId: z.string(),
    /** Why the task concerns the user. */
    relation: z.enum(['assigned', 'actionRequired', 'created', 'commented']),
    items: z.array(UpdateItem),
    unread: z.number().int(),
  }),
);
export type UpdateGroup = z.infer<typeof UpdateGroup>;

export const updatesChannels = {
  /** What pulls brought on tasks the user follows, grouped by task, newest first. */
  'updates.list': channel(
    () =>
      z
        .object({ limit: z.number().int().min(1).max(2000).default(300) })
        .strict()
        .default({ limit: 300 }),
    () => z.object({ groups: z.array(UpdateGroup), unread: z.number().int() }),
  ),
  /** Marks the updates of some tasks read (opening a task does so). */
  'updates.markRead': channel(
    () => z.object({ taskIds: z.array(Id).min(1).max(5000) }).strict(),
    () => z.object({ ok: z.literal(true) }),
  ),
  'updates.markAllRead': channel(
    () => z.object({}).strict().default({}),
    () => z.object({ ok: z.literal(true) }),
  ),
};

/** The notice kinds (Settings) an update can raise. */
export type NoticeOfUpdate = 'comment' | 'assigned' | 'statusChange';

/**
 * The notice kind of an update, or none. A task that needs the user's action has its own notice
 * ("Your action is required"), which says what a hand-over reply or its creation would: those
 * raise no second one. A new task tells only when it is assigned to the user.
 */
export function noticeKindOf(
  item: UpdateItem,
  group: Pick<UpdateGroup, 'relation'>,
): NoticeOfUpdate | undefined {
  const handedToMe = group.relation === 'actionRequired';
  if (handedToMe && (item.kind === 'reply' || item.kind === 'new')) return undefined;
  if (item.kind === 'comment' || item.kind === 'reply') return 'comment';
  if (item.kind === 'status') return 'statusChange';
  if ((item.kind === 'assignee' || item.kind === 'new') && group.relation === 'assigned') return 'assigned';
  return undefined;
}
