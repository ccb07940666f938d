import { z } from 'zod';
import { Attachments, StoredAttachment } from './attachments';
import { Id, LocalTimestamp, orDefault, withAliases } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/**
 * A task message. Clients tested against the live service read only `id, dateCreated, message,
 * fromUserId` (and `taskStatusId` / `taskSystemStatusNew` on status changes): the other fields
 * of the spec's table are read as absent when they are (a status change then reads as one from
 * its `taskStatusId`).
 */
export const TaskMessageFields = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    dateCreated: LocalTimestamp,
    communicationFlow: z.number().int().nullish(),
    fromUserId: z.string(),
    /** The action-required user at the time of the message (null when there was none). */
    toUserId: orDefault(z.string().nullable(), () => null),
    message: orDefault(z.string(), () => ''),
    messageRTF: orDefault(z.record(z.string(), z.unknown()), () => ({})),
    editByUserId: orDefault(z.string().nullable(), () => null),
    editDate: orDefault(LocalTimestamp.nullable(), () => null),
    /** The task's status when the message was written ('' when the answer does not say). */
    taskStatusId: orDefault(z.string(), () => ''),
    taskSystemStatusNew: orDefault(z.number().int().nullable(), () => null),
    timeReportId: orDefault(z.string().nullable(), () => null),
    /** Extension: files attached to the message. */
    attachments: z.array(StoredAttachment).optional(),
  }),
);
// The flow is set on the object the check just made (no copy: a first sync reads 60,000 messages).
export const TaskMessage = lazySchema(() =>
  TaskMessageFields.transform((m): typeof m & { communicationFlow: number } => {
    m.communicationFlow ??=
      m.taskSystemStatusNew !== null ? COMMUNICATION_FLOW.statusChange : COMMUNICATION_FLOW.comment;
    return m as typeof m & { communicationFlow: number };
  }),
);
export type TaskMessage = z.output<typeof TaskMessage>;
export const TaskMessagesResponse = lazySchema(() => z.array(TaskMessage));

/** POST /task/{id}/comment */
export const CommentBody = lazySchema(() =>
  z.object({
    userId: Id,
    message: z.string().max(200_000).nullish(),
    attachments: Attachments.nullish(),
  }),
);
export type CommentBody = z.input<typeof CommentBody>;

/** POST /task/{id}/reply; the spec spells the new action-required user `actionRequiredUsedId`. */
export const ReplyBody = lazySchema(() =>
  withAliases(
    z.object({
      userId: Id,
      actionRequiredUsedId: Id,
      message: z.string().max(200_000).nullish(),
      attachments: Attachments.nullish(),
    }),
    { actionRequiredUserId: 'actionRequiredUsedId' },
  ),
);
export type ReplyBody = z.input<typeof ReplyBody>;

/** `communicationFlow` codes this service writes (the spec does not show them). */
export const COMMUNICATION_FLOW = { created: 1, comment: 2, reply: 3, statusChange: 4 } as const;

/** The service's endpoints of a task's messages. */
export const messageEndpoints = endpoints({
  taskMessages: endpoint({
    method: 'GET',
    path: '/task/{id}/messages',
    read: 'list',
    response: TaskMessagesResponse,
  }),
  comment: endpoint({ method: 'POST', path: '/task/{id}/comment', read: 'none', body: CommentBody }),
  reply: endpoint({ method: 'POST', path: '/task/{id}/reply', read: 'none', body: ReplyBody }),
});
