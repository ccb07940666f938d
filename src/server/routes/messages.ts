import type { StoredAttachment } from '../../shared/api/attachments';
import { CommentBody, COMMUNICATION_FLOW, ReplyBody } from '../../shared/api/messages';
import type { ServiceContext } from '../context';
import type { TaskRow } from '../db/tasks';
import { badRequest, notFound } from '../http/errors';
import type { Router } from '../http/router';
import { resolveAttachments } from './attachments-resolve';

/** Adds user ids to a task's `users` JSON array, keeping order and uniqueness. */
export function withUsers(usersJson: string, ...ids: ReadonlyArray<string | null | undefined>): string {
  const users = JSON.parse(usersJson) as string[];
  for (const id of ids) if (id && !users.includes(id)) users.push(id);
  return JSON.stringify(users);
}

export interface NewMessage {
  fromUserId: string;
  toUserId: string | null;
  message: string;
  flow: number;
  systemStatusNew?: number | null;
  attachments?: StoredAttachment[];
}

/** Stores a message on a task (the caller updates the task row itself). */
export function addMessage(ctx: ServiceContext, task: TaskRow, m: NewMessage): void {
  ctx.messages.insert({
    id: ctx.newId(),
    task_id: task.id,
    date_created: ctx.now(),
    communication_flow: m.flow,
    from_user_id: m.fromUserId,
    to_user_id: m.toUserId,
    message: m.message,
    edit_by_user_id: null,
    edit_date: null,
    task_status_id: task.status_id,
    task_system_status_new: m.systemStatusNew ?? null,
    attachments: m.attachments && m.attachments.length > 0 ? JSON.stringify(m.attachments) : null,
  });
}

export function messageRoutes(r: Router, ctx: ServiceContext): void {
  const load = (id: string) => {
    const task = ctx.tasks.row(id);
    if (!task) throw notFound('task', id);
    return task;
  };

  r.get('/task/:id/messages', {
    handle: ({ params }) => ({ json: ctx.messages.byTask(load(params['id']).id) }),
  });

  r.post('/task/:id/comment', {
    body: CommentBody,
    handle: ({ params, body }) => {
      const task = load(params['id']);
      ctx.requireUser('userId', body.userId);
      const attachments = resolveAttachments(ctx, body.attachments);
      if (!body.message && (body.attachments ?? []).length === 0) {
        throw badRequest('message', 'a comment needs a message or attachments');
      }
      addMessage(ctx, task, {
        fromUserId: body.userId,
        toUserId: task.action_required_user_id,
        message: body.message ?? '',
        flow: COMMUNICATION_FLOW.comment,
        attachments,
      });
      ctx.tasks.update({
        ...task,
        users: withUsers(task.users, body.userId),
        recent_activity_moment: ctx.now(),
      });
      return 'OK';
    },
  });

  r.post('/task/:id/reply', {
    body: ReplyBody,
    handle: ({ params, body }) => {
      const task = load(params['id']);
      ctx.requireUser('userId', body.userId);
      ctx.requireUser('actionRequiredUsedId', body.actionRequiredUsedId);
      const next: TaskRow = {
        ...task,
        action_required_user_id: body.actionRequiredUsedId,
        users: withUsers(task.users, body.userId, body.actionRequiredUsedId),
        recent_activity_moment: ctx.now(),
      };
      addMessage(ctx, next, {
        fromUserId: body.userId,
        toUserId: body.actionRequiredUsedId,
        message: body.message ?? '',
        flow: COMMUNICATION_FLOW.reply,
        attachments: resolveAttachments(ctx, body.attachments),
      });
      ctx.tasks.update(next);
      return 'OK';
    },
  });
}
