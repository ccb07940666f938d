import { z } from 'zod';
import { Attachments, StoredAttachment } from './attachments';
import { Id, LocalTimestamp, withAliases } from './common';

export const TaskMessage = z.looseObject({
  id: z.string(),
  dateCreated: LocalTimestamp,
  communicationFlow: z.number().int(),
  fromUserId: z.string(),
  /** The action-required user at the time of the message (null when there was none). */
  toUserId: z.string().nullable(),
  message: z.string(),
  messageRTF: z.record(z.string(), z.unknown()),
  editByUserId: z.string().nullable(),
  editDate: LocalTimestamp.nullable(),
  taskStatusId: z.string(),
  taskSystemStatusNew: z.number().int().nullable(),
  timeReportId: z.string().nullable(),
  /** Extension: files attached to the message. */
  attachments: z.array(StoredAttachment).optional(),
});
export type TaskMessage = z.infer<typeof TaskMessage>;
export const TaskMessagesResponse = z.array(TaskMessage);

/** POST /task/{id}/comment */
export const CommentBody = z.object({
  userId: Id,
  message: z.string().max(200_000).nullish(),
  attachments: Attachments.nullish(),
});
export type CommentBody = z.input<typeof CommentBody>;

/** POST /task/{id}/reply; the spec spells the new action-required user `actionRequiredUsedId`. */
export const ReplyBody = withAliases(
  z.object({
    userId: Id,
    actionRequiredUsedId: Id,
    message: z.string().max(200_000).nullish(),
    attachments: Attachments.nullish(),
  }),
  { actionRequiredUserId: 'actionRequiredUsedId' },
);
export type ReplyBody = z.input<typeof ReplyBody>;

/** `communicationFlow` codes this service writes (the spec does not show them). */
export const COMMUNICATION_FLOW = { created: 1, comment: 2, reply: 3, statusChange: 4 } as const;
