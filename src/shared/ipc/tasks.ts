import { z } from 'zod';
import { channel, type ResourceSpec } from './channel';
import { Id, WindowInput, windowOf } from './read-common';
import { CustomFieldValueView } from './org';
import { Tag } from '../api/org';
import { DateString, isCalendarDate } from '../api/common';
import { Task } from '../api/tasks';
import { TaskMessageFields } from '../api/messages';
import { CrmAccount, CrmContact } from '../api/crm';
import { lazySchema } from '../lazy-schema';

/**
 * One row of a task list, flat so the cache can hand it over without reshaping.
 * `closed` means the task has a `momentClosed`.
 */
export const TaskRow = lazySchema(() =>
  z.object({
    id: z.string(),
    shortId: z.string(),
    name: z.string(),
    projectId: z.string(),
    parentTaskId: z.string().nullable(),
    /** A subtask's parent's name, when the parent is cached: the list says whose subtask it is. */
    parentTaskName: z.string().nullable(),
    statusId: z.string(),
    statusName: z.string(),
    taskTypeId: z.string(),
    taskTypeName: z.string(),
    priority: z.number().int(),
    assignedToUserId: z.string().nullable(),
    actionRequiredUserId: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    deadline: z.string().nullable(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    scheduleDate: z.string().nullable(),
    estimate: z.number().int().nullable(),
    progress: z.number().int().nullable(),
    momentCreated: z.string(),
    momentClosed: z.string().nullable(),
    recentActivityMoment: z.string(),
    closed: z.boolean(),
    /** How many files the task's cached messages carry (absent where a row is made by hand). */
    attachmentCount: z.number().int().optional(),
    /** Ticked and all to-do items over the task's lists ("3/5"; absent where a row is made by hand). */
    todoDone: z.number().int().optional(),
    todoTotal: z.number().int().optional(),
  }),
);
export type TaskRow = z.infer<typeof TaskRow>;

/** A cached task: the list shape, plus `crmAccountId` (null until the single-task response came). */
export const TaskView = lazySchema(() => Task.extend({ crmAccountId: z.string().nullable() }));
export type TaskView = z.infer<typeof TaskView>;

export const MessageView = lazySchema(() =>
  TaskMessageFields.extend({
    taskId: z.string(),
    communicationFlow: z.number().int(),
  }),
);
export type MessageView = z.infer<typeof MessageView>;

export const DependencyKind = lazySchema(() => z.enum(['task', 'event', 'project']));
export const DependencyEndView = lazySchema(() =>
  z.object({
    kind: DependencyKind,
    id: z.string(),
    /** Name of the linked item when it is cached. */
    name: z.string().nullable(),
  }),
);
export const DependencyView = lazySchema(() =>
  z.object({
    id: z.string(),
    /** 5 finish-to-start, 6 start-to-start, 7 finish-to-finish. */
    type: z.number().int(),
    predecessor: DependencyEndView,
    successor: DependencyEndView,
  }),
);
export type DependencyView = z.infer<typeof DependencyView>;

export const TaskDetail = lazySchema(() =>
  z.object({
    task: TaskView,
    project: z.object({ id: z.string(), name: z.string() }).nullable(),
    parent: TaskRow.nullable(),
    subtasks: z.array(TaskRow),
    messages: z.array(MessageView),
    tags: z.array(Tag),
    customFields: z.array(CustomFieldValueView),
    dependencies: z.array(DependencyView),
    crmAccount: CrmAccount.nullable(),
    crmContacts: z.array(CrmContact),
    /** When the single-task response / the messages were last fetched; null if never. */
    detailFetchedAt: z.string().nullable(),
    messagesFetchedAt: z.string().nullable(),
  }),
);
export type TaskDetail = z.infer<typeof TaskDetail>;

export const TaskSortKey = lazySchema(() =>
  z.enum([
    'name',
    'shortId',
    'priority',
    'status',
    'deadline',
    'momentCreated',
    'recentActivityMoment',
    'assignedToUserId',
  ]),
);
export const TaskSort = lazySchema(() =>
  z
    .object({ by: TaskSortKey.default('momentCreated'), dir: z.enum(['asc', 'desc']).default('desc') })
    .strict(),
);

export const TaskFilter = lazySchema(() =>
  z
    .object({
      /** 'open' (default) hides closed tasks, 'closed' shows only them, 'all' both. */
      closed: z.enum(['open', 'closed', 'all']).default('open'),
      statusIds: z.array(Id).max(200).optional(),
      assignedToUserId: Id.nullable().optional(),
      actionRequiredUserId: Id.nullable().optional(),
      priorities: z.array(z.number().int()).max(20).optional(),
      /** Only top-level tasks (no subtasks). */
      topLevelOnly: z.boolean().default(false),
    })
    .strict(),
);
export type TaskFilter = z.output<typeof TaskFilter>;

const ListShape = lazySchema(() =>
  WindowInput.extend({
    filter: TaskFilter.default({ closed: 'open', topLevelOnly: false }),
    sort: TaskSort.default({ by: 'momentCreated', dir: 'desc' }),
  }),
);

export const TaskListInput = lazySchema(() =>
  ListShape.extend({
    projectId: Id,
    /** Include tasks of subprojects and subfolders. */
    includeSubprojects: z.boolean().default(false),
  }).strict(),
);

export const MyWorkInput = lazySchema(() =>
  ListShape.extend({
    /** Tasks where the user must act next, or tasks assigned to the user. */
    kind: z.enum(['actionRequired', 'assigned']),
    /** Defaults to the account's acting user. */
    userId: Id.optional(),
  }).strict(),
);

/**
 * The user's open tasks with a deadline up to `through` (Home's "late and due soon"), grouped
 * by the days the caller names on its own calendar: `late` before `today`, `today`, `later`
 * after it. The renderer names the days, so "today" is the user's local day.
 */
export const DueTasksInput = lazySchema(() =>
  z
    .object({
      today: DateString,
      /** The last day listed (the end of the week); not before `today`. */
      through: DateString,
      /** How many rows each group lists; its `total` counts them all. */
      perGroup: z.number().int().min(1).max(200).default(10),
      /** Defaults to the account's acting user. */
      userId: Id.optional(),
    })
    .strict()
    // Compared only when both are dates: a bad `today` is named by its own error, not `through`'s.
    .refine((q) => !isCalendarDate(q.today) || !isCalendarDate(q.through) || q.through >= q.today, {
      message: 'must not be before today',
      path: ['through'],
    }),
);

/**
 * A group's first rows and how many it holds; `unlistedAssigned`: how many of those not listed
 * are assigned to the user (the rest only await the user's action).
 */
const DueGroup = lazySchema(() =>
  z.object({ rows: z.array(TaskRow), total: z.number().int(), unlistedAssigned: z.number().int() }),
);
export const DueTasks = lazySchema(() => z.object({ late: DueGroup, today: DueGroup, later: DueGroup }));
export type DueTasks = z.infer<typeof DueTasks>;

/** A task as a notice names it. */
export const TaskName = lazySchema(() => z.object({ id: Id, name: z.string() }).strict());
export type TaskName = z.output<typeof TaskName>;

export const TagTasksInput = lazySchema(() => ListShape.extend({ tagId: Id }).strict());

/** The resources this domain is the home of (see `RESOURCES` in `../entities.ts`). */
export const taskResources = {
  task: { noun: 'a task', cacheEntities: ['tasks'], outbox: true },
  /** A task's tag links (the tags themselves are `tag`). */
  taskTag: { noun: "a task's tags", cacheEntities: [], outbox: true },
  /** A task's messages: comments, replies, status notes. */
  message: { noun: 'a message', cacheEntities: ['messages'], outbox: true },
} as const satisfies Record<string, ResourceSpec>;

export const taskReadChannels = {
  'tasks.list': channel(
    () => TaskListInput,
    () => windowOf(TaskRow),
  ),
  'tasks.myWork': channel(
    () => MyWorkInput,
    () => windowOf(TaskRow),
  ),
  /** The same list as `tasks.myWork`, each task as its id and name: to learn which tasks are in it. */
  'tasks.myWorkNames': channel(
    () => MyWorkInput,
    () => z.array(TaskName),
  ),
  /** Home's late and due-soon tasks: the user's open tasks by deadline, in three groups. */
  'tasks.due': channel(
    () => DueTasksInput,
    () => DueTasks,
  ),
  'tasks.byTag': channel(
    () => TagTasksInput,
    () => windowOf(TaskRow),
  ),
  'tasks.detail': channel(
    () => z.object({ taskId: Id }).strict(),
    () => TaskDetail,
  ),
};
