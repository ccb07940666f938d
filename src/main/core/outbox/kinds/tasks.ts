import { z } from 'zod';
import type { Task } from '../../../../shared/api/tasks';
import { COMMUNICATION_FLOW, type TaskMessage, messageEndpoints } from '../../../../shared/api/messages';
import {
  TaskChanges,
  TaskCommentInput,
  TaskCreateInput,
  TaskCustomFieldsInput,
  TaskDeleteInput,
  TaskReplyInput,
  TaskStatusInput,
  TaskTagInput,
} from '../../../../shared/ipc/tasks-write';
import type { MessageView } from '../../../../shared/ipc/tasks';
import type { ServiceClient } from '../../api/client';
import type { TaskFlat } from '../../cache/repos/tasks';
import { listedMessages, type ListedMessage } from '../../sync/pending';
import { OutboxError } from '../outbox';
import { isTempId, LOCAL_ROW_PREFIX } from '../../local-ids';
import type { FoldContext, LookUpResult, OutboxEntry } from '../types';
import {
  applyChanges,
  changedFields,
  changedOnService,
  checkRange,
  clockOf,
  pendingBasesOf,
  type CreatedAmong,
  customFieldsKind,
  DependencyRowSnapshot,
  createdAmongOf,
  earliestCreated,
  type FindCreated,
  lookUpClock,
  gone,
  restoreReleased,
  sameFlow,
  sameIfListed,
  stampedCreate,
  stampOf,
  TempId,
  tempKeys,
  type Kind,
  type KindDeps,
  listedLookUp,
} from './support';
import { taskEndpoints } from '../../../../shared/api/tasks';

const DraftId = z.string().startsWith(LOCAL_ROW_PREFIX);

export const TaskCreatePayload = z.object({ tempId: TempId, draftId: DraftId, input: TaskCreateInput });
export const TaskUpdatePayload = z.object({ taskId: z.string(), changes: TaskChanges });
export const TaskStatusPayload = TaskStatusInput.extend({ draftId: DraftId });
export const TaskCommentPayload = TaskCommentInput.extend({ draftId: DraftId });
export const TaskReplyPayload = TaskReplyInput.extend({ draftId: DraftId });
export const TaskTagPayload = TaskTagInput;
export const TaskCustomFieldsPayload = TaskCustomFieldsInput;
const TaskSnapshot = z.object({
  tasks: z.array(z.record(z.string(), z.unknown())),
  crmAccounts: z.array(z.tuple([z.string(), z.string().nullable()])),
  messages: z.array(z.record(z.string(), z.unknown())),
  tags: z.array(z.tuple([z.string(), z.array(z.string())])),
  contacts: z.array(z.tuple([z.string(), z.array(z.string())])),
  // Absent in snapshots stored before deletes took dependencies along.
  dependencies: z.array(DependencyRowSnapshot).default([]),
  /** The deleted task's fields with a waiting change of this client, under it (`changedOnService`). */
  pendingBases: z.record(z.string(), z.unknown()).default({}),
});
export const TaskDeletePayload = TaskDeleteInput.extend({
  subtaskIds: z.array(z.string()),
  /** The task's parent when it was deleted (absent in entries written before it was recorded). */
  parentTaskId: z.string().nullable().optional(),
});

type Changes = z.infer<typeof TaskChanges>;

/** The fields of a task whose change by someone else holds a delete of it (and its status). */
const TASK_FIELDS_A_DELETE_WATCHES = [
  'name',
  'priority',
  'deadline',
  'startDate',
  'endDate',
  'assignedToUserId',
  'progress',
  'estimate',
  'customFieldsData',
];

/** The cache side every task kind shares: reads, the field writer, drafts, snapshots. */
export function taskStore(deps: KindDeps) {
  const { cache } = deps;
  const descendants = (id: string): string[] => cache.tasks.descendantIds(id);

  /** The task's fields under the API's names, plus `crmContactIds`: what claims name. */
  function record(id: string): Record<string, unknown> | null {
    const view = cache.tasks.get(id);
    if (!view) return null;
    return { ...view, storyPoints: view.storyPoints ?? null, crmContactIds: cache.crm.contactIdsOfTask(id) };
  }

  function require(id: string, field = 'taskId'): Record<string, unknown> {
    const r = record(id);
    if (!r) throw new OutboxError('not-found', `Task ${id} is not in the cache`, field);
    return r;
  }

  /** Writes API-named values into the cached task; a new projectId carries the subtasks along. */
  function write(id: string, values: Record<string, unknown>): void {
    const flat = cache.tasks.getFlat(id);
    if (!flat) return;
    const next: TaskFlat = { ...flat };
    const target = next as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(values)) {
      switch (field) {
        case 'status': {
          const s = value as { id: string; name: string };
          next.statusId = s.id;
          next.statusName = s.name;
          break;
        }
        case 'taskType': {
          const t = value as { id: string; name: string };
          next.taskTypeId = t.id;
          next.taskTypeName = t.name;
          break;
        }
        case 'crmAccountId':
          cache.tasks.setCrmAccount(id, (value as string | null | undefined) ?? null);
          break;
        case 'crmContactIds':
          break;
        default:
          if (field in flat) target[field] = value;
      }
    }
    cache.tasks.codec.upsert(next);
    if ('crmContactIds' in values)
      cache.crm.setTaskContacts(id, (values.crmContactIds as string[] | null) ?? []);
    if ('projectId' in values && values.projectId !== flat.projectId) {
      for (const sub of descendants(id)) {
        const s = cache.tasks.getFlat(sub);
        if (s) cache.tasks.codec.upsert({ ...s, projectId: next.projectId });
      }
    }
  }

  function addDraft(
    draftId: string,
    taskId: string,
    at: number,
    m: { flow: number; message: string; toUserId: string | null; systemStatusNew?: number | null },
  ): void {
    const task = cache.tasks.getFlat(taskId);
    const draft: MessageView = {
      id: draftId,
      taskId,
      dateCreated: stampOf(at, clockOf(deps)),
      communicationFlow: m.flow,
      fromUserId: deps.userId,
      toUserId: m.toUserId,
      message: m.message,
      messageRTF: {},
      editByUserId: null,
      editDate: null,
      taskStatusId: task?.statusId ?? '',
      taskSystemStatusNew: m.systemStatusNew ?? null,
      timeReportId: null,
    };
    cache.messages.codec.upsert(draft);
  }

  function touch(id: string, at: number, ...users: (string | null | undefined)[]): void {
    const flat = cache.tasks.getFlat(id);
    if (!flat) return;
    const list = [...flat.users];
    for (const u of users) if (u && !list.includes(u)) list.push(u);
    const moment = stampOf(at, clockOf(deps));
    cache.tasks.codec.upsert({ ...flat, users: list, recentActivityMoment: moment });
    if (isTempId(id)) markLocalComplete(id, moment);
  }

  /**
   * A task created offline has nothing more to fetch: its detail and messages are all local.
   * Marked so opening it reads the cache instead of asking the service for an id it lacks.
   */
  function markLocalComplete(id: string, moment: string): void {
    cache.tasks.setDetail(id, cache.tasks.crmAccountOf(id), moment);
    cache.tasks.markMessagesFetched(id, moment, moment);
  }

  function snapshot(ids: readonly string[]): Omit<z.infer<typeof TaskSnapshot>, 'pendingBases'> {
    return {
      tasks: ids.map((id) => cache.tasks.getFlat(id)).filter((t) => t !== null) as unknown as Record<
        string,
        unknown
      >[],
      crmAccounts: ids.map((id) => [id, cache.tasks.crmAccountOf(id)]),
      messages: ids.flatMap((id) => cache.messages.listForTask(id)) as unknown as Record<string, unknown>[],
      tags: ids.map((id) => [id, cache.org.tagsOfTask(id).map((t) => t.id)]),
      contacts: ids.map((id) => [id, cache.crm.contactIdsOfTask(id)]),
      dependencies: cache.dependencies.touching(ids),
    };
  }

  function restore(snap: z.infer<typeof TaskSnapshot>): void {
    for (const t of snap.tasks) cache.tasks.codec.upsert(t as unknown as TaskFlat);
    for (const [id, account] of snap.crmAccounts) cache.tasks.setCrmAccount(id, account);
    for (const m of snap.messages) cache.messages.codec.upsert(m as unknown as MessageView);
    for (const [id, tags] of snap.tags) for (const tag of tags) cache.org.addTaskTag(id, tag);
    for (const [id, contacts] of snap.contacts) cache.crm.setTaskContacts(id, contacts);
    cache.dependencies.restore(snap.dependencies);
  }

  /**
   * A message entry was acknowledged: its draft gives way to the service's message when a pull
   * brought that in already, and the task's messages are fetched again next pull either way
   * (the fetch that brought it, or the one to come, may predate the acknowledgement).
   */
  function settleDraft(draftId: string, taskId: string, match: MessageMatch): void {
    const landed = cache.messages
      .listForTask(taskId)
      .some((m) => !m.id.startsWith(LOCAL_ROW_PREFIX) && m.fromUserId === deps.userId && match(m));
    if (landed) cache.messages.delete(draftId);
    cache.tasks.markMessagesStale(taskId);
  }

  return {
    record,
    require,
    settleDraft,
    write,
    descendants,
    addDraft,
    deleteDraft: (id: string) => cache.messages.delete(id),
    touch,
    markLocalComplete,
    snapshot,
    restore,
    hasTag: (taskId: string, tagId: string) => cache.org.taskHasTag(taskId, tagId),
    addTag: (taskId: string, tagId: string) => {
      cache.org.seeTag(tagId);
      cache.org.addTaskTag(taskId, tagId);
    },
    removeTag: (taskId: string, tagId: string) => cache.org.removeTaskTag(taskId, tagId),
  };
}

declare module './support' {
  interface KindModules {
    tasks: ReturnType<typeof taskKinds>;
  }
}

/** What recognises a posted message: the fields a draft and the service's copy share. */
type MessageMatch = (m: Pick<TaskMessage, 'message' | 'communicationFlow' | 'toUserId'>) => boolean;

export function taskKinds(deps: KindDeps) {
  const { cache } = deps;
  const store = taskStore(deps);

  /**
   * `fold`, `lookUp` and the look-up test of a kind that posts a message, recognising it by
   * `matchOf` (null: the entry posts none, and sending it again is harmless).
   */
  function postsMessage<P extends { taskId: string; draftId: string }>(
    parse: (payload: unknown) => P,
    matchOf: (p: P) => MessageMatch | null,
  ) {
    /**
     * Rule 6's test of the post: the message of `messages` that `p` posted, sent at
     * `entry.sentAt` (on its task, from this account, matching, posted after the send; the
     * earliest not taken by `taken`; a message id is never mapped). The look-up and the lists
     * sync stores both ask it.
     */
    const postedIn: FindCreated<ListedMessage, P> = (messages, p, entry, taken = () => false) => {
      const match = matchOf(p);
      if (!match) return undefined;
      return earliestCreated(
        messages,
        { sentAt: entry.sentAt, momentOf: (m) => m.dateCreated, isMapped: taken, clock: lookUpClock(deps) },
        (m) => m.taskId === p.taskId && m.fromUserId === deps.userId && match(m),
      );
    };
    return {
      postedAmong: createdAmongOf(parse, postedIn) satisfies CreatedAmong<ListedMessage>,
      fold: (_ctx: FoldContext, p: P): void => {
        const match = matchOf(p);
        if (match) store.settleDraft(p.draftId, p.taskId, match);
      },
      lookUp: async (client: ServiceClient, p: P, entry: OutboxEntry): Promise<LookUpResult<void>> => {
        if (!matchOf(p)) return { found: false };
        const listed = listedMessages(
          p.taskId,
          await client.call(messageEndpoints.taskMessages, { id: p.taskId }),
        );
        return postedIn(listed, p, entry) ? { found: true, result: undefined } : { found: false };
      },
    };
  }

  /**
   * Rule 6's test of a create: the task of a list that the payload's `input` made (same
   * project, title, creator and parent, created after the send; the earliest not taken by
   * another create, nor by `taken`). The look-up and the lists sync stores
   * (`copiesOfUnfolded`) both ask it.
   */
  const taskCreated = stampedCreate<Task, Pick<z.infer<typeof TaskCreatePayload>, 'input'>>(deps, {
    parse: (p) => TaskCreatePayload.parse(p),
    momentOf: (t) => t.momentCreated,
    matches: (t, { input }) =>
      t.projectId === input.projectId &&
      t.name === input.title &&
      t.createdByUserId === deps.userId &&
      (t.parentTaskId ?? undefined) === input.parentTaskId,
  });

  const create: Kind<
    z.infer<typeof TaskCreatePayload>,
    { id: string; shortId: string; momentCreated: string },
    'task.create'
  > = {
    name: 'task.create',
    parse: (p) => TaskCreatePayload.parse(p),
    keysOf: (p) => [
      `task:${p.tempId}`,
      ...tempKeys('project', p.input.projectId),
      // Always the parent, local or real: a later delete of the parent waits for this create.
      ...(p.input.parentTaskId ? [`task:${p.input.parentTaskId}`] : []),
      ...tempKeys('crmAccount', p.input.crmAccountId),
      ...tempKeys('crmContact', ...(p.input.crmContactIds ?? [])),
    ],
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Create task "${p.input.title}"`,
    apply: (ctx, { tempId, draftId, input }) => {
      const project = cache.projects.get(input.projectId);
      if (!project)
        throw new OutboxError('not-found', `Project ${input.projectId} is not in the cache`, 'projectId');
      if (input.parentTaskId) {
        const parent = cache.tasks.getFlat(input.parentTaskId);
        if (!parent)
          throw new OutboxError(
            'not-found',
            `Task ${input.parentTaskId} is not in the cache`,
            'parentTaskId',
          );
        if (parent.projectId !== input.projectId) {
          throw new OutboxError(
            'invalid-argument',
            'parentTaskId: belongs to another project',
            'parentTaskId',
          );
        }
      }
      // The service's defaults: the project's first workflow status and task type, else the
      // organization's first open status and first type.
      const statuses = cache.org.statuses.all();
      const status =
        statuses.find((s) => s.id === project.settings?.taskCustomWorkflow[0]) ??
        statuses.find((s) => !s.isClosed);
      const types = cache.org.taskTypes.all();
      const typeId = input.taskTypeId ?? project.settings?.taskTypes[0];
      const type = types.find((t) => t.id === typeId) ?? (typeId ? { id: typeId, name: '' } : types[0]);
      const now = stampOf(ctx.now, clockOf(deps));
      const scheduleOnly = input.startDate !== undefined && input.endDate === undefined;
      const users = [deps.userId];
      if (input.toUserId && input.toUserId !== deps.userId) users.push(input.toUserId);
      cache.tasks.codec.upsert({
        id: tempId,
        shortId: '',
        name: input.title,
        projectId: input.projectId,
        parentTaskId: input.parentTaskId ?? null,
        statusId: status?.id ?? '',
        statusName: status?.name ?? '',
        systemStatus: status?.systemStatus ?? 1,
        systemType: 0,
        scheduleStatus: 0,
        taskTypeId: type?.id ?? '',
        taskTypeName: type?.name ?? '',
        priority: input.priority ?? 1,
        assignedToUserId: input.toUserId ?? null,
        actionRequiredUserId: input.toUserId ?? null,
        createdByUserId: deps.userId,
        deadline: input.deadline ?? null,
        startDate: scheduleOnly ? null : (input.startDate ?? null),
        endDate: input.endDate ?? null,
        scheduleDate: scheduleOnly ? (input.startDate ?? null) : null,
        estimate: input.estimate ?? null,
        progress: null,
        momentCreated: now,
        momentClosed: status?.isClosed ? now : null,
        recentActivityMoment: now,
        users,
        customFieldsData: {},
        formSubmission: null,
        storyPoints: input.storyPoints ?? null,
        reportedTime: null,
        todoList: null,
      });
      if (input.crmAccountId) store.write(tempId, { crmAccountId: input.crmAccountId });
      if (input.crmContactIds?.length) cache.crm.setTaskContacts(tempId, input.crmContactIds);
      store.markLocalComplete(tempId, now);
      if (input.message) {
        store.addDraft(draftId, tempId, ctx.now, {
          flow: COMMUNICATION_FLOW.created,
          message: input.message,
          toUserId: input.toUserId ?? null,
        });
      }
    },
    send: (client, { input }) =>
      client.call(taskEndpoints.createTask, { body: { ...input, fromUserId: deps.userId } }),
    fold: (_ctx, { tempId }, result) => {
      const flat = cache.tasks.getFlat(tempId);
      if (flat)
        cache.tasks.codec.upsert({
          ...flat,
          shortId: result.shortId,
          momentCreated: result.momentCreated.replace(' ', 'T'),
        });
      return { realId: result.id };
    },
    lookUp: async (client, p, entry) => {
      const found = taskCreated.find(
        await client.call(taskEndpoints.projectTasks, { id: p.input.projectId, query: { closed: true } }),
        p,
        entry,
      );
      return found
        ? {
            found: true,
            result: { id: found.id, shortId: found.shortId, momentCreated: found.momentCreated },
          }
        : { found: false };
    },
    rollback: (_ctx, { tempId, draftId }) => {
      cache.tasks.delete([tempId]);
      store.deleteDraft(draftId);
      cache.crm.setTaskContacts(tempId, []);
    },
  };

  const update: Kind<z.infer<typeof TaskUpdatePayload>, void, 'task.update'> = {
    name: 'task.update',
    parse: (p) => TaskUpdatePayload.parse(p),
    keysOf: (p) => [
      `task:${p.taskId}`,
      ...tempKeys('project', p.changes.projectId),
      ...tempKeys('task', p.changes.parentTaskId),
      ...tempKeys('crmAccount', p.changes.crmAccountId),
      ...tempKeys('crmContact', ...(p.changes.crmContactIds ?? [])),
    ],
    describe: (p) => `Edit task (${Object.keys(p.changes).join(', ')})`,
    apply: (ctx, { taskId, changes }) => {
      const current = store.require(taskId);
      checkRange(current, changes);
      const { title, ...rest } = changes;
      const wanted: Record<string, unknown> = { ...rest, ...(title !== undefined ? { name: title } : {}) };
      const diff = changedFields(current, wanted);
      // Only what differs is sent (rule 8), under the request's names.
      const sent: Changes = {};
      for (const field of Object.keys(diff)) {
        const key = (field === 'name' ? 'title' : field) as keyof Changes;
        (sent as Record<string, unknown>)[key] = changes[key];
      }
      // The service's semantics: a move detaches from the parent; a new parent brings its project.
      if (diff.projectId && current.parentTaskId !== null)
        diff.parentTaskId = { from: current.parentTaskId, to: null };
      if (diff.parentTaskId && changes.parentTaskId) {
        const parent = cache.tasks.getFlat(changes.parentTaskId);
        if (!parent)
          throw new OutboxError(
            'not-found',
            `Task ${changes.parentTaskId} is not in the cache`,
            'changes.parentTaskId',
          );
        if (changes.parentTaskId === taskId || store.descendants(taskId).includes(changes.parentTaskId)) {
          throw new OutboxError(
            'invalid-argument',
            'changes.parentTaskId: cannot make a task a subtask of itself or of its own subtask',
            'changes.parentTaskId',
          );
        }
        if (parent.projectId !== current.projectId)
          diff.projectId = { from: current.projectId, to: parent.projectId };
      }
      if (!applyChanges(ctx, 'task', taskId, diff, store.write)) return { noop: true };
      if (diff.assignedToUserId) store.touch(taskId, ctx.now, changes.assignedToUserId);
      return { payload: { taskId, changes: sent } };
    },
    send: (client, { taskId, changes }) =>
      client.call(taskEndpoints.updateTask, { id: taskId, body: { userId: deps.userId, ...changes } }),
    fold: () => undefined,
    rollback: (ctx) => restoreReleased(ctx, 'task', store.write),
    withdrawable: () => true,
    merge: (a, b) => {
      const changes = { ...a.changes, ...b.changes };
      if (changes.projectId !== undefined && changes.parentTaskId !== undefined) return undefined;
      return { taskId: a.taskId, changes };
    },
  };

  const statusPosts = postsMessage(
    (p) => TaskStatusPayload.parse(p),
    (p) => (p.message ? (m) => m.message === p.message : null),
  );
  const commentPosts = postsMessage(
    (p) => TaskCommentPayload.parse(p),
    (p) => (m) => m.message === p.message && sameFlow(m.communicationFlow, COMMUNICATION_FLOW.comment),
  );
  const replyPosts = postsMessage(
    (p) => TaskReplyPayload.parse(p),
    (p) => (m) =>
      m.message === (p.message ?? '') &&
      sameFlow(m.communicationFlow, COMMUNICATION_FLOW.reply) &&
      sameIfListed(m.toUserId, p.actionRequiredUserId),
  );

  const setStatus: Kind<z.infer<typeof TaskStatusPayload>, void, 'task.setStatus'> = {
    name: 'task.setStatus',
    parse: (p) => TaskStatusPayload.parse(p),
    keysOf: (p) => [`task:${p.taskId}`],
    describe: () => 'Change status',
    apply: (ctx, p) => {
      const current = store.require(p.taskId);
      const status = cache.org.statuses.all().find((s) => s.id === p.statusId);
      if (!status) throw new OutboxError('invalid-argument', `statusId: no status ${p.statusId}`, 'statusId');
      const was = cache.org.statuses.all().find((s) => s.id === (current.status as { id: string }).id);
      const now = stampOf(ctx.now, clockOf(deps));
      const diff = changedFields(current, {
        status: { id: status.id, name: status.name },
        systemStatus: status.systemStatus,
        momentClosed: status.isClosed ? (was?.isClosed ? current.momentClosed : now) : null,
      });
      applyChanges(ctx, 'task', p.taskId, diff, store.write);
      store.touch(p.taskId, ctx.now, deps.userId);
      if (p.message) {
        store.addDraft(p.draftId, p.taskId, ctx.now, {
          flow: COMMUNICATION_FLOW.comment,
          message: p.message,
          toUserId: (current.actionRequiredUserId as string | null) ?? null,
          systemStatusNew: status.systemStatus,
        });
      }
    },
    send: (client, p) =>
      client.call(taskEndpoints.updateTaskStatus, {
        id: p.taskId,
        body: {
          userId: deps.userId,
          statusId: p.statusId,
          ...(p.message ? { message: p.message } : {}),
        },
      }),
    // Setting a status again is harmless; only its message must not be posted twice.
    fold: statusPosts.fold,
    lookUp: statusPosts.lookUp,
    rollback: (ctx, p) => {
      restoreReleased(ctx, 'task', store.write);
      store.deleteDraft(p.draftId);
    },
    // With a message it posts one: only an undo withdraws it (the message goes with it), never a
    // later status change made on purpose.
    withdrawable: (p, undo) => !p.message || undo,
    withdrawn: (p) => {
      if (p.message) store.deleteDraft(p.draftId);
    },
  };

  const comment: Kind<z.infer<typeof TaskCommentPayload>, void, 'task.comment'> = {
    name: 'task.comment',
    parse: (p) => TaskCommentPayload.parse(p),
    keysOf: (p) => [`task:${p.taskId}`],
    describe: () => 'Comment',
    apply: (ctx, p) => {
      const current = store.require(p.taskId);
      store.addDraft(p.draftId, p.taskId, ctx.now, {
        flow: COMMUNICATION_FLOW.comment,
        message: p.message,
        toUserId: (current.actionRequiredUserId as string | null) ?? null,
      });
      store.touch(p.taskId, ctx.now, deps.userId);
    },
    send: (client, p) =>
      client.call(messageEndpoints.comment, {
        id: p.taskId,
        body: { userId: deps.userId, message: p.message },
      }),
    fold: commentPosts.fold,
    lookUp: commentPosts.lookUp,
    rollback: (_ctx, p) => {
      store.deleteDraft(p.draftId);
    },
  };

  const reply: Kind<z.infer<typeof TaskReplyPayload>, void, 'task.reply'> = {
    name: 'task.reply',
    parse: (p) => TaskReplyPayload.parse(p),
    keysOf: (p) => [`task:${p.taskId}`],
    describe: () => 'Reply',
    apply: (ctx, p) => {
      const current = store.require(p.taskId);
      const diff = changedFields(current, { actionRequiredUserId: p.actionRequiredUserId });
      applyChanges(ctx, 'task', p.taskId, diff, store.write);
      store.touch(p.taskId, ctx.now, deps.userId, p.actionRequiredUserId);
      store.addDraft(p.draftId, p.taskId, ctx.now, {
        flow: COMMUNICATION_FLOW.reply,
        message: p.message ?? '',
        toUserId: p.actionRequiredUserId,
      });
    },
    send: (client, p) =>
      client.call(messageEndpoints.reply, {
        id: p.taskId,
        body: {
          userId: deps.userId,
          actionRequiredUsedId: p.actionRequiredUserId,
          ...(p.message ? { message: p.message } : {}),
        },
      }),
    fold: replyPosts.fold,
    lookUp: replyPosts.lookUp,
    rollback: (ctx, p) => {
      restoreReleased(ctx, 'task', store.write);
      store.deleteDraft(p.draftId);
    },
  };

  /** Tag links as claims (rule 7): entity `taskTag`, id the task's, one field per tag id. */
  const writeTags = (taskId: string, values: Record<string, unknown>): void => {
    for (const [tagId, has] of Object.entries(values)) {
      if (has) store.addTag(taskId, tagId);
      else store.removeTag(taskId, tagId);
    }
  };

  const tagKind = <N extends 'task.addTag' | 'task.removeTag'>(
    name: N,
    add = name === 'task.addTag',
  ): Kind<z.infer<typeof TaskTagPayload>, void, N> => ({
    name,
    parse: (p) => TaskTagPayload.parse(p),
    keysOf: (p) => [`task:${p.taskId}`],
    describe: () => (add ? 'Add tag' : 'Remove tag'),
    apply: (ctx, p) => {
      store.require(p.taskId);
      const had = store.hasTag(p.taskId, p.tagId);
      if (had === add) return { noop: true };
      applyChanges(ctx, 'taskTag', p.taskId, { [p.tagId]: { from: had, to: add } }, writeTags);
      return {};
    },
    // Adding a tag the task has, or removing one it lacks, changes nothing: safe to resend.
    send: (client, p) =>
      add
        ? client.call(taskEndpoints.addTag, { id: p.taskId, tagId: p.tagId, body: { userId: deps.userId } })
        : client.call(taskEndpoints.removeTag, {
            id: p.taskId,
            tagId: p.tagId,
            body: { userId: deps.userId },
          }),
    fold: () => undefined,
    rollback: (ctx) => restoreReleased(ctx, 'taskTag', writeTags),
    withdrawable: () => true,
  });

  const setCustomFields = customFieldsKind<z.infer<typeof TaskCustomFieldsPayload>, 'task.setCustomFields'>({
    name: 'task.setCustomFields',
    entity: 'task',
    parse: (p) => TaskCustomFieldsPayload.parse(p),
    idOf: (p) => p.taskId,
    describe: 'Set custom fields',
    record: (id) => store.require(id),
    write: store.write,
    send: (client, id, body) => client.call(taskEndpoints.setTaskCustomFields, { id, body }),
    userId: deps.userId,
  });

  const remove: Kind<z.infer<typeof TaskDeletePayload>, void, 'task.delete'> = {
    name: 'task.delete',
    deletes: true,
    parse: (p) => TaskDeletePayload.parse(p),
    // Ordered after every waiting change of the task and of the subtasks it takes along; and
    // keyed by its parent, so a later delete of the parent (which the cache can no longer tell
    // takes this task along) waits for this one, and so for this task's own waiting changes.
    keysOf: (p) => [
      `task:${p.taskId}`,
      ...p.subtaskIds.map((id) => `task:${id}`),
      ...(p.parentTaskId ? [`task:${p.parentTaskId}`] : []),
    ],
    removesAlso: (p) => p.subtaskIds.map((id) => `task:${id}`),
    describe: () => 'Delete task',
    apply: (ctx, p) => {
      store.require(p.taskId);
      const ids = [p.taskId, ...p.subtaskIds];
      const undo = {
        ...store.snapshot(ids),
        pendingBases: pendingBasesOf(ctx, 'task', p.taskId, [...TASK_FIELDS_A_DELETE_WATCHES, 'status']),
      };
      cache.tasks.delete(ids);
      for (const id of ids) cache.crm.setTaskContacts(id, []);
      // The service cannot bring a deleted task back: the delete waits so an undo can withdraw it.
      return { undo, holdForUndo: true };
    },
    // Already gone (a parent's delete took it along, or another user deleted it): what the
    // delete asked for holds, so it is done, not refused.
    send: async (client, p) => {
      await gone(() => client.call(taskEndpoints.deleteTask, { id: p.taskId }));
    },
    changedSince: (p, undo, item) => {
      const snapshot = TaskSnapshot.safeParse(undo).data;
      const row = snapshot?.tasks.find((t) => t.id === p.taskId);
      if (!snapshot || !row) return [];
      const bases = snapshot.pendingBases;
      const changed = changedOnService(row, item, TASK_FIELDS_A_DELETE_WATCHES, bases);
      const status = (item.status as { id?: unknown } | undefined)?.id;
      if (typeof status === 'string' && !('status' in bases) && status !== row.statusId)
        changed.push('status');
      return changed;
    },
    fold: () => undefined,
    lookUp: async (client, p) =>
      (await gone(() => client.call(taskEndpoints.task, { id: p.taskId })))
        ? { found: true, result: undefined }
        : { found: false },
    rollback: (_ctx, _p, undo) => store.restore(TaskSnapshot.parse(undo)),
  };

  return {
    kinds: [
      create,
      update,
      setStatus,
      comment,
      reply,
      tagKind('task.addTag'),
      tagKind('task.removeTag'),
      setCustomFields,
      remove,
    ],
    /** The look-up test of `task.create` over a list (a create with files is one too). */
    createdAmong: taskCreated.createdAmong satisfies CreatedAmong<Task>,
    /** The task's create, and each kind that posts a message on a task, with its look-up test. */
    lookUps: [
      listedLookUp('task', 'task.create', taskCreated.createdAmong),
      listedLookUp('message', 'task.setStatus', statusPosts.postedAmong),
      listedLookUp('message', 'task.comment', commentPosts.postedAmong),
      listedLookUp('message', 'task.reply', replyPosts.postedAmong),
    ],
    /** What a delete of the task names: the subtasks it takes along, as the cache knows them, and its parent. */
    deleteScope: (taskId: string) => ({
      subtaskIds: store.descendants(taskId),
      parentTaskId: cache.tasks.getFlat(taskId)?.parentTaskId ?? null,
    }),
  };
}
