import {
  ClosedQuery,
  CreateTaskBody,
  ProjectTasksQuery,
  TaskTagBody,
  UpdateTaskBody,
  UpdateTaskStatusBody,
} from '../../shared/api/tasks';
import { COMMUNICATION_FLOW } from '../../shared/api/messages';
import type { ServiceContext } from '../context';
import type { StatusRow } from '../db/org';
import type { ProjectRow } from '../db/projects';
import { jsonArray, type TaskRow, type TaskStore } from '../db/tasks';
import { badRequest, notFound } from '../http/errors';
import { checkDateRange } from './date-range';
import type { Router } from '../http/router';
import { resolveAttachments } from './attachments-resolve';
import { applyCustomFields, SetCustomFieldsRequest } from './custom-fields';
import { addMessage, withUsers } from './messages';

/** Loads a task from the path or answers 404. */
export function loadTask(ctx: ServiceContext, id: string): TaskRow {
  const task = ctx.tasks.row(id);
  if (!task) throw notFound('task', id);
  return task;
}

function projectFor(ctx: ServiceContext, id: string, field: string): ProjectRow {
  const project = ctx.projects.row(id);
  if (!project) throw badRequest(field, `no project or folder with id ${JSON.stringify(id)}`);
  return project;
}

/** A status must exist and, when the project has a custom task workflow, belong to it. */
function statusFor(ctx: ServiceContext, project: ProjectRow, statusId: string): StatusRow {
  const status = ctx.org.status(statusId);
  if (!status) throw badRequest('statusId', `no status with id ${JSON.stringify(statusId)}`);
  const workflow = ctx.projects.settings(project).taskCustomWorkflow;
  if (workflow.length > 0 && !workflow.includes(status.id)) {
    throw badRequest('statusId', "is not in the project's task workflow");
  }
  return status;
}

function checkCrm(
  ctx: ServiceContext,
  contactIds: readonly string[] | null | undefined,
  accountId: string | null | undefined,
): void {
  (contactIds ?? []).forEach((id, i) => {
    if (!ctx.crm.contactRow(id))
      throw badRequest(`crmContactIds.${i}`, `no CRM contact with id ${JSON.stringify(id)}`);
  });
  if (accountId && !ctx.crm.accountRow(accountId)) {
    throw badRequest('crmAccountId', `no CRM account with id ${JSON.stringify(accountId)}`);
  }
}

export function taskRoutes(r: Router, ctx: ServiceContext): void {
  r.get('/project/:id/tasks', {
    query: ProjectTasksQuery,
    handle: ({ params, query }) => {
      if (!ctx.projects.row(params['id'])) throw notFound('project', params['id']);
      return { jsonText: jsonArray(ctx.tasks.byProject(params['id'], query.closed, query.subfolders)) };
    },
  });

  r.get('/user/:id/action-required-tasks', {
    handle: ({ params }) => {
      if (!ctx.org.isUser(params['id'])) throw notFound('user', params['id']);
      return { jsonText: jsonArray(ctx.tasks.actionRequired(params['id'])) };
    },
  });

  r.get('/user/:id/assigned-tasks', {
    query: ClosedQuery,
    handle: ({ params, query }) => {
      if (!ctx.org.isUser(params['id'])) throw notFound('user', params['id']);
      return { jsonText: jsonArray(ctx.tasks.assigned(params['id'], query.closed)) };
    },
  });

  r.get('/tag/:id/tasks', {
    query: ClosedQuery,
    handle: ({ params, query }) => {
      if (!ctx.org.tag(params['id'])) throw notFound('tag', params['id']);
      return { jsonText: jsonArray(ctx.tasks.byTag(params['id'], query.closed)) };
    },
  });

  r.get('/task/:id', {
    handle: ({ params }) => {
      const task = loadTask(ctx, params['id']);
      return { jsonText: taskDetailJson(ctx.tasks, task) };
    },
  });

  r.post('/tasks', {
    body: CreateTaskBody,
    handle: ({ body }) => {
      ctx.requireUser('fromUserId', body.fromUserId);
      const project = projectFor(ctx, body.projectId, 'projectId');
      if (body.parentTaskId) {
        const parent = ctx.tasks.row(body.parentTaskId);
        if (!parent) throw badRequest('parentTaskId', `no task with id ${JSON.stringify(body.parentTaskId)}`);
        if (parent.project_id !== project.id) throw badRequest('parentTaskId', 'belongs to another project');
      }
      if (body.toUserId) ctx.requireUser('toUserId', body.toUserId);
      const settings = ctx.projects.settings(project);
      const typeId = body.taskTypeId ?? settings.taskTypes[0] ?? ctx.org.defaultTaskType()?.id;
      if (!typeId || !ctx.org.taskType(typeId)) {
        throw badRequest('taskTypeId', `no task type with id ${JSON.stringify(typeId ?? '')}`);
      }
      const status = settings.taskCustomWorkflow[0]
        ? ctx.org.status(settings.taskCustomWorkflow[0])
        : ctx.org.defaultTaskStatus();
      if (!status) throw badRequest('projectId', 'the organization has no open task status');
      // startDate alone acts as the schedule date.
      const scheduleOnly = body.startDate != null && body.endDate == null;
      checkDateRange(body.startDate ?? null, body.endDate ?? null);
      checkCrm(ctx, body.crmContactIds, body.crmAccountId);
      const now = ctx.now();
      const task: TaskRow = {
        id: ctx.newId(),
        short_id: ctx.tasks.nextShortId(),
        project_id: project.id,
        parent_task_id: body.parentTaskId ?? null,
        name: body.title,
        created_by_user_id: body.fromUserId,
        assigned_to_user_id: body.toUserId ?? null,
        action_required_user_id: body.toUserId ?? null,
        status_id: status.id,
        task_type_id: typeId,
        priority: body.priority ?? 1,
        start_date: scheduleOnly ? null : (body.startDate ?? null),
        end_date: body.endDate ?? null,
        deadline: body.deadline ?? null,
        schedule_date: scheduleOnly ? (body.startDate ?? null) : null,
        schedule_status: 0,
        estimate: body.estimate ?? null,
        progress: null,
        story_points: body.storyPoints ?? null,
        todo_list:
          body.todoList === undefined || body.todoList === null ? null : JSON.stringify(body.todoList),
        crm_account_id: body.crmAccountId ?? null,
        custom_fields_data: '{}',
        form_submission: null,
        users: withUsers('[]', body.fromUserId, body.toUserId),
        moment_created: now,
        moment_closed: status.is_closed ? now : null,
        recent_activity_moment: now,
      };
      ctx.tasks.insert(task);
      if (body.crmContactIds?.length) ctx.tasks.setContacts(task.id, body.crmContactIds);
      const attachments = resolveAttachments(ctx, body.attachments);
      if (body.message || attachments.length > 0) {
        addMessage(ctx, task, {
          fromUserId: body.fromUserId,
          toUserId: task.action_required_user_id,
          message: body.message ?? '',
          flow: COMMUNICATION_FLOW.created,
          attachments,
        });
      }
      return { json: { id: task.id, momentCreated: now.replace('T', ' '), shortId: task.short_id } };
    },
  });

  r.put('/task/:id/update', {
    body: UpdateTaskBody,
    handle: ({ params, body }) => {
      const task = loadTask(ctx, params['id']);
      ctx.requireUser('userId', body.userId);
      if (body.projectId !== undefined && body.parentTaskId !== undefined) {
        throw badRequest('parentTaskId', 'cannot be used together with projectId');
      }
      const next: TaskRow = { ...task, recent_activity_moment: ctx.now() };
      let moveTo: string | null = null;
      if (body.projectId !== undefined && body.projectId !== task.project_id) {
        moveTo = projectFor(ctx, body.projectId, 'projectId').id;
        next.parent_task_id = null;
      }
      if (body.parentTaskId !== undefined && body.parentTaskId !== task.parent_task_id) {
        const parent = ctx.tasks.row(body.parentTaskId);
        if (!parent) throw badRequest('parentTaskId', `no task with id ${JSON.stringify(body.parentTaskId)}`);
        if (parent.id === task.id || ctx.tasks.descendants(task.id).includes(parent.id)) {
          throw badRequest('parentTaskId', 'cannot make a task a subtask of itself or of its own subtask');
        }
        next.parent_task_id = parent.id;
        if (parent.project_id !== task.project_id) moveTo = parent.project_id;
      }
      if (body.title !== undefined) next.name = body.title;
      if (body.startDate !== undefined) next.start_date = body.startDate;
      if (body.endDate !== undefined) next.end_date = body.endDate;
      if (body.deadline !== undefined) next.deadline = body.deadline;
      if (body.scheduleDate !== undefined) next.schedule_date = body.scheduleDate;
      checkDateRange(next.start_date, next.end_date);
      if (body.priority !== undefined) next.priority = body.priority;
      if (body.estimate !== undefined) next.estimate = body.estimate;
      if (body.progress !== undefined) next.progress = body.progress;
      if (body.storyPoints !== undefined) next.story_points = body.storyPoints;
      if (body.assignedToUserId) ctx.requireUser('assignedToUserId', body.assignedToUserId);
      if (body.assignedToUserId !== undefined) {
        next.assigned_to_user_id = body.assignedToUserId;
        next.users = withUsers(next.users, body.assignedToUserId);
      }
      if (body.todoList !== undefined)
        next.todo_list = body.todoList === null ? null : JSON.stringify(body.todoList);
      checkCrm(ctx, body.crmContactIds, body.crmAccountId);
      if (body.crmAccountId !== undefined) next.crm_account_id = body.crmAccountId;
      ctx.tasks.update(next);
      if (body.crmContactIds !== undefined) ctx.tasks.setContacts(task.id, body.crmContactIds);
      if (moveTo) {
        for (const id of [task.id, ...ctx.tasks.descendants(task.id)]) ctx.tasks.moveProject(id, moveTo);
      }
      return 'OK';
    },
  });

  r.put('/task/:id/status', {
    body: UpdateTaskStatusBody,
    handle: ({ params, body }) => {
      const task = loadTask(ctx, params['id']);
      ctx.requireUser('userId', body.userId);
      const project = ctx.projects.row(task.project_id)!;
      const status = statusFor(ctx, project, body.statusId);
      const was = ctx.org.status(task.status_id);
      const now = ctx.now();
      const next: TaskRow = {
        ...task,
        status_id: status.id,
        // Closing sets momentClosed; re-opening clears it; closed-to-closed keeps the first close.
        moment_closed: status.is_closed ? (was?.is_closed ? task.moment_closed : now) : null,
        users: withUsers(task.users, body.userId),
        recent_activity_moment: now,
      };
      ctx.tasks.update(next);
      if (body.message) {
        addMessage(ctx, next, {
          fromUserId: body.userId,
          toUserId: next.action_required_user_id,
          message: body.message,
          flow: COMMUNICATION_FLOW.comment,
          systemStatusNew: status.system_status,
        });
      }
      return 'OK';
    },
  });

  r.delete('/task/:id', {
    handle: ({ params }) => {
      ctx.tasks.delete(loadTask(ctx, params['id']).id);
      return 'OK';
    },
  });

  const tagSpec = (add: boolean) => ({
    body: TaskTagBody,
    handle: ({ params, body }: { params: Record<string, string>; body: { userId: string } }) => {
      const task = loadTask(ctx, params['id']);
      if (!ctx.org.tag(params['tagId'])) throw notFound('tag', params['tagId']);
      ctx.requireUser('userId', body.userId);
      if (add) ctx.tasks.addTag(task.id, params['tagId']);
      else ctx.tasks.removeTag(task.id, params['tagId']);
      ctx.tasks.update({ ...task, recent_activity_moment: ctx.now() });
      return 'OK' as const;
    },
  });
  r.post('/task/:id/tag/:tagId', tagSpec(true));
  r.delete('/task/:id/tag/:tagId', tagSpec(false));

  r.put('/task/:id/custom-fields', {
    body: SetCustomFieldsRequest,
    handle: ({ params, body }) => {
      const task = loadTask(ctx, params['id']);
      if (body.userId) ctx.requireUser('userId', body.userId);
      const result = applyCustomFields(
        ctx,
        task.custom_fields_data,
        body.customFields,
        (i) => `customFields.${i}`,
      );
      ctx.tasks.update({ ...task, custom_fields_data: result.json, recent_activity_moment: ctx.now() });
      return 'OK';
    },
  });
}

/**
 * GET /task/{id}: the Task JSON from SQLite with `subtasks`, `crmAccountId` when linked and the
 * extensions `tags` and `crmContactIds` spliced in before its closing brace.
 */
export function taskDetailJson(tasks: TaskStore, task: TaskRow): string {
  const base = tasks.json(task.id)!;
  let extra = `,"subtasks":${jsonArray(tasks.subtasksJson(task.id))}`;
  if (task.crm_account_id) extra += `,"crmAccountId":${JSON.stringify(task.crm_account_id)}`;
  extra += `,"tags":${JSON.stringify(tasks.tagIds(task.id))}`;
  extra += `,"crmContactIds":${JSON.stringify(tasks.contactIds(task.id))}`;
  return `${base.slice(0, -1)}${extra}}`;
}
