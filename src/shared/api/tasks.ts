import { z } from 'zod';
import { Attachments } from './attachments';
import {
  CustomFieldsData,
  DateString,
  Id,
  LocalTimestamp,
  Minutes,
  NamedRef,
  OptionalFlag,
  orDefault,
  Priority,
  Progress,
  Title,
  withAliases,
} from './common';
import { endpoint, endpoints } from './endpoint';
import { SetCustomFieldsBody } from './custom-fields';
import { lazySchema } from '../lazy-schema';

const FormField = lazySchema(() =>
  z.looseObject({
    config: z.looseObject({
      fieldId: z.string(),
      label: z.string(),
      type: z.string(),
      options: z.array(z.string()).optional(),
      isRequired: z.boolean(),
      description: z.string(),
    }),
    value: z.unknown(),
  }),
);
export const FormSubmission = lazySchema(() =>
  z.looseObject({ requestFormName: z.string(), formFields: z.array(FormField) }),
);
export type FormSubmission = z.infer<typeof FormSubmission>;

/**
 * To-do lists of a task, in the structure GoodDay documents for `todoList` on create and update
 * task: lists `{uid, title, items: [{properties: {completed, title, userId}}]}`.
 */
export const TodoItem = lazySchema(() =>
  z.looseObject({
    properties: z.looseObject({
      completed: z.boolean(),
      title: z.string().trim().min(1, 'must not be empty').max(1000),
      userId: Id.nullish(),
    }),
  }),
);
export type TodoItem = z.infer<typeof TodoItem>;
export const TodoList = lazySchema(() =>
  z.looseObject({
    uid: z.string().min(1, 'must be a non-empty id').max(200),
    title: z.string().max(1000),
    items: z.array(TodoItem).max(500),
  }),
);
export type TodoList = z.infer<typeof TodoList>;
export const TodoLists = lazySchema(() => z.array(TodoList).max(100));
export type TodoLists = z.infer<typeof TodoLists>;

/** A task's to-do lists as read: lists that cannot be read cost the lists, not the task. */
const TodoListsRead = lazySchema(() => TodoLists.nullable().catch(null));

const nullable = <T extends z.ZodType>(schema: T) => orDefault(schema.nullable(), () => null);

/**
 * A task as every task list answers it. What the client cannot do without is required (id,
 * name, project, status, type, moments); the rest reads as null, empty or the spec's default
 * when the live service leaves it out (it sends `reportedTime` null, for one).
 */
export const Task = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    shortId: orDefault(z.string(), () => ''),
    name: z.string(),
    actionRequiredUserId: nullable(z.string()),
    assignedToUserId: nullable(z.string()),
    createdByUserId: nullable(z.string()),
    customFieldsData: orDefault(CustomFieldsData, () => ({})),
    deadline: nullable(DateString),
    startDate: nullable(DateString),
    endDate: nullable(DateString),
    scheduleDate: nullable(DateString),
    estimate: nullable(z.number().int()),
    progress: nullable(z.number().int()),
    priority: orDefault(z.number().int(), () => 5),
    reportedTime: z.unknown(),
    momentCreated: LocalTimestamp,
    momentClosed: nullable(LocalTimestamp),
    recentActivityMoment: LocalTimestamp,
    parentTaskId: nullable(z.string()),
    projectId: z.string(),
    status: NamedRef,
    systemStatus: z.number().int(),
    /** 1 a task, 2 a subtask (the live service's saved list). */
    systemType: orDefault(z.number().int(), () => 1),
    scheduleStatus: orDefault(z.number().int(), () => 0),
    taskType: NamedRef,
    users: orDefault(z.array(z.string()), () => []),
    formSubmission: FormSubmission.nullable().optional(),
    /** Extension (accepted on create/update, not in the spec's Task table). */
    storyPoints: z.number().int().nullable().optional(),
    /** The task's to-do lists; null when it has none or the answer leaves them out. */
    todoList: TodoListsRead,
  }),
);
export type Task = z.infer<typeof Task>;
export const TasksResponse = lazySchema(() => z.array(Task));

/** GET /task/{id}: the task with its subtasks; `crmAccountId` when linked; `tags` (extension). */
export const TaskDetail = lazySchema(() =>
  Task.extend({
    subtasks: z.array(Task),
    crmAccountId: z.string().optional(),
    /** Extension: ids of the task's tags (names come from GET /tags). */
    tags: z.array(z.string()).optional(),
    /** Extension: ids of linked CRM contacts. */
    crmContactIds: z.array(z.string()).optional(),
  }),
);
export type TaskDetail = z.infer<typeof TaskDetail>;

/** GET /project/{id}/tasks */
export const ProjectTasksQuery = lazySchema(() =>
  z.object({ closed: OptionalFlag, subfolders: OptionalFlag }),
);
/** GET /user/{id}/assigned-tasks, GET /tag/{id}/tasks */
export const ClosedQuery = lazySchema(() => z.object({ closed: OptionalFlag }));

const DATE_ALIASES = { 'start-date': 'startDate', 'end-date': 'endDate' };
/** Story points a request may set. */
export const StoryPoints = lazySchema(() => z.int('must be an integer').min(0).max(1_000_000));

/** POST /tasks. Optional fields also accept an explicit null, meaning absent. */
export const CreateTaskBody = lazySchema(() =>
  withAliases(
    z.object({
      projectId: Id,
      title: Title,
      fromUserId: Id,
      parentTaskId: Id.nullish(),
      message: z.string().max(200_000).nullish(),
      toUserId: Id.nullish(),
      taskTypeId: Id.nullish(),
      startDate: DateString.nullish(),
      endDate: DateString.nullish(),
      deadline: DateString.nullish(),
      estimate: Minutes.nullish(),
      storyPoints: StoryPoints.nullish(),
      priority: Priority.nullish(),
      todoList: TodoLists.nullish(),
      crmContactIds: z.array(Id).max(100).nullish(),
      crmAccountId: Id.nullish(),
      attachments: Attachments.nullish(),
    }),
    DATE_ALIASES,
  ),
);
export type CreateTaskBody = z.input<typeof CreateTaskBody>;

export const CreateTaskResponse = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    /** `YYYY-MM-DD HH:MM:SS.ffffff` (space between date and time). */
    momentCreated: LocalTimestamp,
    shortId: z.string(),
  }),
);
export type CreateTaskResponse = z.infer<typeof CreateTaskResponse>;

/**
 * The fields of PUT /task/{id}/update but the acting user. Absent fields are unchanged; null
 * resets where the spec allows. The IPC's task changes are these (src/shared/ipc/tasks-write.ts).
 */
export const TaskUpdateFields = lazySchema(() =>
  z.object({
    title: Title.optional(),
    /** Moves the task (and its subtasks) to another project or folder. */
    projectId: Id.optional(),
    /** Makes the task a subtask of this task. */
    parentTaskId: Id.optional(),
    startDate: DateString.nullable().optional(),
    endDate: DateString.nullable().optional(),
    deadline: DateString.nullable().optional(),
    scheduleDate: DateString.nullable().optional(),
    priority: Priority.optional(),
    estimate: Minutes.nullable().optional(),
    progress: Progress.nullable().optional(),
    storyPoints: StoryPoints.nullable().optional(),
    assignedToUserId: Id.nullable().optional(),
    todoList: TodoLists.nullable().optional(),
    crmContactIds: z.array(Id).max(100).optional(),
    crmAccountId: Id.nullable().optional(),
  }),
);

/** PUT /task/{id}/update */
export const UpdateTaskBody = lazySchema(() =>
  withAliases(z.object({ userId: Id, ...TaskUpdateFields.shape }), DATE_ALIASES),
);
export type UpdateTaskBody = z.input<typeof UpdateTaskBody>;

/** PUT /task/{id}/status */
export const UpdateTaskStatusBody = lazySchema(() =>
  z.object({
    userId: Id,
    statusId: Id,
    message: z.string().max(200_000).optional(),
  }),
);
export type UpdateTaskStatusBody = z.infer<typeof UpdateTaskStatusBody>;

/** POST|DELETE /task/{id}/tag/{tagId} */
export const TaskTagBody = lazySchema(() => z.object({ userId: Id }));
export type TaskTagBody = z.infer<typeof TaskTagBody>;
export const TaskTagParams = lazySchema(() => z.object({ id: Id, tagId: Id }));

/** The service's endpoints of tasks. */
export const taskEndpoints = endpoints({
  projectTasks: endpoint({
    method: 'GET',
    path: '/project/{id}/tasks',
    read: 'list',
    query: ProjectTasksQuery,
    response: TasksResponse,
  }),
  /**
   * A project's tasks as a pull reads them again: the elements the caller holds (`known`, unchanged
   * since they were stored) come back as ids, the others as tasks with their fingerprints, handed
   * to `each` a slice at a time as the answer arrives when it is given.
   */
  projectTaskList: endpoint({
    method: 'GET',
    path: '/project/{id}/tasks',
    read: 'fingerprintedList',
    query: ProjectTasksQuery,
    response: TasksResponse,
  }),
  actionRequiredTasks: endpoint({
    method: 'GET',
    path: '/user/{id}/action-required-tasks',
    read: 'list',
    response: TasksResponse,
  }),
  assignedTasks: endpoint({
    method: 'GET',
    path: '/user/{id}/assigned-tasks',
    read: 'list',
    query: ClosedQuery,
    response: TasksResponse,
  }),
  /**
   * The acting user's lists as a first pull reads them: handed to `each` a slice at a time as the
   * answer arrives (thousands of tasks are not parsed, nor stored, in one stretch).
   */
  actionRequiredTaskList: endpoint({
    method: 'GET',
    path: '/user/{id}/action-required-tasks',
    read: 'fingerprintedList',
    response: TasksResponse,
  }),
  assignedTaskList: endpoint({
    method: 'GET',
    path: '/user/{id}/assigned-tasks',
    read: 'fingerprintedList',
    query: ClosedQuery,
    response: TasksResponse,
  }),
  tagTasks: endpoint({
    method: 'GET',
    path: '/tag/{id}/tasks',
    read: 'list',
    query: ClosedQuery,
    response: TasksResponse,
  }),
  task: endpoint({ method: 'GET', path: '/task/{id}', read: 'item', response: TaskDetail }),
  createTask: endpoint({
    method: 'POST',
    path: '/tasks',
    read: 'item',
    body: CreateTaskBody,
    response: CreateTaskResponse,
  }),
  addTag: endpoint({ method: 'POST', path: '/task/{id}/tag/{tagId}', read: 'none', body: TaskTagBody }),
  removeTag: endpoint({ method: 'DELETE', path: '/task/{id}/tag/{tagId}', read: 'none', body: TaskTagBody }),
  updateTaskStatus: endpoint({
    method: 'PUT',
    path: '/task/{id}/status',
    read: 'none',
    body: UpdateTaskStatusBody,
  }),
  updateTask: endpoint({ method: 'PUT', path: '/task/{id}/update', read: 'none', body: UpdateTaskBody }),
  deleteTask: endpoint({ method: 'DELETE', path: '/task/{id}', read: 'none' }),
  setTaskCustomFields: endpoint({
    method: 'PUT',
    path: '/task/{id}/custom-fields',
    read: 'none',
    body: SetCustomFieldsBody,
  }),
});
