import type { z } from 'zod';
import { UploadUrlsResponse, type UploadUrlsBody } from '../../../shared/api/attachments';
import { CustomFieldsResponse, type SetCustomFieldsBody } from '../../../shared/api/custom-fields';
import {
  ProjectTemplatesResponse,
  StatusesResponse,
  TagsResponse,
  TaskTypesResponse,
  User,
  UsersResponse,
} from '../../../shared/api/org';
import {
  CreateTaskResponse,
  TaskDetail,
  TasksResponse,
  type CreateTaskBody,
  type Task,
  type TaskTagBody,
  type UpdateTaskBody,
  type UpdateTaskStatusBody,
} from '../../../shared/api/tasks';
import { TaskMessagesResponse, type CommentBody, type ReplyBody } from '../../../shared/api/messages';
import {
  CreateProjectResponse,
  ProjectDetail,
  ProjectsResponse,
  type NewFolderBody,
  type NewProjectBody,
  type UpdateProjectBody,
} from '../../../shared/api/projects';
import {
  ProjectUsersResponse,
  type AddMemberBody,
  type RemoveMemberBody,
  type UpdateMemberBody,
} from '../../../shared/api/members';
import { Document, DocumentsResponse } from '../../../shared/api/documents';
import { ProjectHistoryResponse } from '../../../shared/api/history';
import {
  CrmAccountDetail,
  CrmAccountsResponse,
  CrmContactDetail,
  CrmContactsResponse,
  type CreateCrmAccountBody,
  type CreateCrmContactBody,
  type UpdateCrmAccountBody,
  type UpdateCrmContactBody,
} from '../../../shared/api/crm';
import {
  CreateDependencyResponse,
  DependenciesResponse,
  type CreateDependencyBody,
} from '../../../shared/api/dependencies';
import {
  CalendarEvent,
  CalendarEventsResponse,
  type CreateEventBody,
  type EventType,
} from '../../../shared/api/events';
import { TimeReport, TimeReportsResponse, type CreateTimeReportBody } from '../../../shared/api/time-reports';
import { RejectedError } from './errors';
import {
  createHttp,
  type ConnectionSettings,
  type FingerprintedListAnswer,
  type KnownElements,
  type ListSliceReader,
  type UnreadableItem,
  type UploadBody,
} from './http';

export type {
  ConnectionSettings,
  FingerprintedListAnswer,
  KnownElements,
  ListSliceReader,
  UnreadableItem,
} from './http';

/** One list read as it went: how many items the answer held and which could not be read. */
export interface ListRead {
  method: string;
  path: string;
  total: number;
  skipped: UnreadableItem[];
}

/** Per-call options: every method takes an optional AbortSignal last. */
type Sig = AbortSignal | undefined;

const seg = encodeURIComponent;

/**
 * The typed client of the Work Management Service 2.0: one method per endpoint of the spec
 * (plus the organization reads the service offers). Responses are parsed with the shared
 * schemas; failures are the classes in `./errors`.
 */
export function createServiceClient(settings: ConnectionSettings) {
  const http = createHttp(settings);
  const get = <S extends z.ZodType>(
    path: string,
    schema: S,
    signal: Sig,
    query?: Record<string, string | boolean | undefined>,
  ) => http.json('GET', path, schema, { signal, query });

  const listReads = new Set<(read: ListRead) => void>();
  /** A list read item by item: an unreadable element is skipped and reported, the rest returned. */
  const list = async <S extends z.ZodType>(
    path: string,
    schema: z.ZodArray<S>,
    signal: Sig,
    query?: Record<string, string | boolean | undefined>,
  ): Promise<z.output<S>[]> => {
    const { items, skipped } = await http.list('GET', path, schema.element, { signal, query });
    const read: ListRead = { method: 'GET', path, total: items.length + skipped.length, skipped };
    for (const listener of listReads) listener(read);
    return items;
  };
  /** As `list`, with fingerprints; the elements `known` holds come back as ids only. */
  const fingerprintedList = async <S extends z.ZodType>(
    path: string,
    schema: z.ZodArray<S>,
    known: KnownElements | undefined,
    signal: Sig,
    query?: Record<string, string | boolean | undefined>,
    each?: ListSliceReader<z.output<S>>,
  ): Promise<FingerprintedListAnswer<z.output<S>>> => {
    const answer = await http.fingerprintedList('GET', path, schema.element, {
      signal,
      query,
      ...(known ? { known } : {}),
      ...(each ? { each } : {}),
    });
    const read: ListRead = { method: 'GET', path, total: answer.total, skipped: answer.skipped };
    for (const listener of listReads) listener(read);
    return answer;
  };
  // Which path answers a project's history: the spec's `/projects/{id}/history`, or the
  // `/project/{id}/history` one client of the live service calls; learnt from the first 404.
  let historyPaths = ['projects', 'project'];

  /** For reads the spec does not list: a 404 means "not offered here", answered as null. */
  async function offered<T>(call: Promise<T>): Promise<T | null> {
    try {
      return await call;
    } catch (err) {
      if (err instanceof RejectedError && (err.status === 404 || err.status === 405)) return null;
      throw err;
    }
  }

  return {
    get requestCount(): number {
      return http.requestCount;
    },
    /** Told of every list read: its size and the items that could not be read. */
    onListRead(listener: (read: ListRead) => void): () => void {
      listReads.add(listener);
      return () => listReads.delete(listener);
    },

    // --- projects and folders
    projects: (q: { archived?: boolean; rootOnly?: boolean } = {}, signal?: Sig) =>
      list('/projects', ProjectsResponse, signal, { archived: q.archived, rootOnly: q.rootOnly }),
    project: (id: string, signal?: Sig) => get(`/project/${seg(id)}`, ProjectDetail, signal),
    updateProject: (id: string, body: UpdateProjectBody, signal?: Sig) =>
      http.write('PUT', `/project/${seg(id)}`, { body, signal }),
    newFolder: (body: NewFolderBody, signal?: Sig) =>
      http.json('POST', '/projects/new-folder', CreateProjectResponse, { body, signal }),
    newProject: (body: NewProjectBody, signal?: Sig) =>
      http.json('POST', '/projects/new-project', CreateProjectResponse, { body, signal }),
    projectUsers: (id: string, signal?: Sig) =>
      list(`/project/${seg(id)}/users`, ProjectUsersResponse, signal),
    addProjectUser: (projectId: string, userId: string, body: AddMemberBody, signal?: Sig) =>
      http.write('POST', `/project/${seg(projectId)}/user/${seg(userId)}`, { body, signal }),
    updateProjectUser: (projectId: string, userId: string, body: UpdateMemberBody, signal?: Sig) =>
      http.write('PUT', `/project/${seg(projectId)}/user/${seg(userId)}`, { body, signal }),
    removeProjectUser: (projectId: string, userId: string, body: RemoveMemberBody, signal?: Sig) =>
      http.write('DELETE', `/project/${seg(projectId)}/user/${seg(userId)}`, { body, signal }),
    /** Tries the spec's path, then the other on a 404; a 404 on both is the caller's to read. */
    async projectHistory(id: string, signal?: Sig) {
      for (const [i, base] of historyPaths.entries()) {
        try {
          const events = await list(`/${base}/${seg(id)}/history`, ProjectHistoryResponse, signal);
          if (i > 0) historyPaths = [base, ...historyPaths.filter((b) => b !== base)];
          return events;
        } catch (err) {
          if (!(err instanceof RejectedError && err.status === 404) || i === historyPaths.length - 1)
            throw err;
        }
      }
      return [];
    },
    projectDocuments: (id: string, q: { subfolders?: boolean } = {}, signal?: Sig) =>
      list(`/project/${seg(id)}/documents`, DocumentsResponse, signal, { subfolders: q.subfolders }),
    document: (id: string, signal?: Sig) => get(`/document/${seg(id)}`, Document, signal),
    setProjectCustomFields: (id: string, body: SetCustomFieldsBody, signal?: Sig) =>
      http.write('PUT', `/project/${seg(id)}/custom-fields`, { body, signal }),

    // --- tasks
    projectTasks: (id: string, q: { closed?: boolean; subfolders?: boolean } = {}, signal?: Sig) =>
      list(`/project/${seg(id)}/tasks`, TasksResponse, signal, {
        closed: q.closed,
        subfolders: q.subfolders,
      }),
    /**
     * A project's tasks read as a pull reads them again: the elements `known` holds (unchanged
     * since they were stored) come back as ids, the others as tasks with their fingerprints,
     * handed to `each` a slice at a time as the answer arrives when it is given.
     */
    projectTaskList: (
      id: string,
      q: { closed?: boolean; subfolders?: boolean },
      known: KnownElements | undefined,
      signal?: Sig,
      each?: ListSliceReader<Task>,
    ) =>
      fingerprintedList(
        `/project/${seg(id)}/tasks`,
        TasksResponse,
        known,
        signal,
        { closed: q.closed, subfolders: q.subfolders },
        each,
      ),
    actionRequiredTasks: (userId: string, signal?: Sig) =>
      list(`/user/${seg(userId)}/action-required-tasks`, TasksResponse, signal),
    assignedTasks: (userId: string, q: { closed?: boolean } = {}, signal?: Sig) =>
      list(`/user/${seg(userId)}/assigned-tasks`, TasksResponse, signal, { closed: q.closed }),
    tagTasks: (tagId: string, q: { closed?: boolean } = {}, signal?: Sig) =>
      list(`/tag/${seg(tagId)}/tasks`, TasksResponse, signal, { closed: q.closed }),
    task: (id: string, signal?: Sig) => get(`/task/${seg(id)}`, TaskDetail, signal),
    createTask: (body: CreateTaskBody, signal?: Sig) =>
      http.json('POST', '/tasks', CreateTaskResponse, { body, signal }),
    taskMessages: (id: string, signal?: Sig) =>
      list(`/task/${seg(id)}/messages`, TaskMessagesResponse, signal),
    comment: (id: string, body: CommentBody, signal?: Sig) =>
      http.write('POST', `/task/${seg(id)}/comment`, { body, signal }),
    reply: (id: string, body: ReplyBody, signal?: Sig) =>
      http.write('POST', `/task/${seg(id)}/reply`, { body, signal }),
    addTag: (taskId: string, tagId: string, body: TaskTagBody, signal?: Sig) =>
      http.write('POST', `/task/${seg(taskId)}/tag/${seg(tagId)}`, { body, signal }),
    removeTag: (taskId: string, tagId: string, body: TaskTagBody, signal?: Sig) =>
      http.write('DELETE', `/task/${seg(taskId)}/tag/${seg(tagId)}`, { body, signal }),
    updateTaskStatus: (id: string, body: UpdateTaskStatusBody, signal?: Sig) =>
      http.write('PUT', `/task/${seg(id)}/status`, { body, signal }),
    updateTask: (id: string, body: UpdateTaskBody, signal?: Sig) =>
      http.write('PUT', `/task/${seg(id)}/update`, { body, signal }),
    deleteTask: (id: string, signal?: Sig) => http.write('DELETE', `/task/${seg(id)}`, { signal }),
    setTaskCustomFields: (id: string, body: SetCustomFieldsBody, signal?: Sig) =>
      http.write('PUT', `/task/${seg(id)}/custom-fields`, { body, signal }),

    // --- organization
    customFields: (signal?: Sig) => list('/custom-fields', CustomFieldsResponse, signal),
    /** Null when the service does not offer the list (it is not in the spec). */
    users: (signal?: Sig) => offered(list('/users', UsersResponse, signal)),
    user: (id: string, signal?: Sig) => offered(get(`/user/${seg(id)}`, User, signal)),
    statuses: (signal?: Sig) => offered(list('/statuses', StatusesResponse, signal)),
    taskTypes: (signal?: Sig) => offered(list('/task-types', TaskTypesResponse, signal)),
    tags: (signal?: Sig) => offered(list('/tags', TagsResponse, signal)),
    /** The `projectTemplateId` values new-project accepts (an extension; null when not offered). */
    projectTemplates: (signal?: Sig) => offered(list('/project-templates', ProjectTemplatesResponse, signal)),

    // --- attachments
    uploadUrls: (body: UploadUrlsBody, signal?: Sig) =>
      http.json('POST', '/attachments/upload-urls', UploadUrlsResponse, { body, signal }),
    upload: (uploadUrl: string, bytes: UploadBody, mime: string, signal?: Sig, size?: number) =>
      http.upload(uploadUrl, bytes, mime, signal, size),
    /**
     * An attachment's bytes, streamed (extension: the spec shows no download). Null when the
     * service does not offer downloads or no longer has the file (404 or 405).
     */
    attachment: (fileId: string, signal?: Sig) =>
      offered(http.download(`/attachments/${seg(fileId)}`, signal)),

    // --- CRM
    crmContacts: (signal?: Sig) => list('/crm/contacts', CrmContactsResponse, signal),
    createCrmContact: (body: CreateCrmContactBody, signal?: Sig) =>
      http.write('POST', '/crm/contacts', { body, signal }),
    crmContact: (id: string, signal?: Sig) => get(`/crm/contact/${seg(id)}`, CrmContactDetail, signal),
    updateCrmContact: (id: string, body: UpdateCrmContactBody, signal?: Sig) =>
      http.write('PUT', `/crm/contact/${seg(id)}`, { body, signal }),
    deleteCrmContact: (id: string, signal?: Sig) =>
      http.write('DELETE', `/crm/contact/${seg(id)}`, { signal }),
    crmAccounts: (signal?: Sig) => list('/crm/accounts', CrmAccountsResponse, signal),
    createCrmAccount: (body: CreateCrmAccountBody, signal?: Sig) =>
      http.write('POST', '/crm/accounts', { body, signal }),
    crmAccount: (id: string, signal?: Sig) => get(`/crm/account/${seg(id)}`, CrmAccountDetail, signal),
    updateCrmAccount: (id: string, body: UpdateCrmAccountBody, signal?: Sig) =>
      http.write('PUT', `/crm/account/${seg(id)}`, { body, signal }),
    deleteCrmAccount: (id: string, signal?: Sig) =>
      http.write('DELETE', `/crm/account/${seg(id)}`, { signal }),

    // --- dependencies
    dependencies: (kind: 'task' | 'event' | 'project', id: string, signal?: Sig) =>
      get(`/${kind}/${seg(id)}/dependencies`, DependenciesResponse, signal),
    createDependency: (body: CreateDependencyBody, signal?: Sig) =>
      http.json('POST', '/dependencies', CreateDependencyResponse, { body, signal }),
    deleteDependency: (id: string, signal?: Sig) =>
      http.write('DELETE', `/dependency/${seg(id)}`, { signal }),

    // --- calendar events
    events: (q: { startDate: string; endDate: string; eventTypes?: readonly EventType[] }, signal?: Sig) =>
      list('/events', CalendarEventsResponse, signal, {
        startDate: q.startDate,
        endDate: q.endDate,
        eventTypes: q.eventTypes?.join(','),
      }),
    event: (id: string, signal?: Sig) => get(`/event/${seg(id)}`, CalendarEvent, signal),
    createEvent: (body: CreateEventBody, signal?: Sig) =>
      http.json('POST', '/events', CalendarEvent, { body, signal }),
    deleteEvent: (id: string, signal?: Sig) => http.write('DELETE', `/event/${seg(id)}`, { signal }),

    // --- time reports (the live service's; not in the spec)
    userTimeReports: (id: string, range: { startDate: string; endDate: string }, signal?: Sig) =>
      list(`/user/${seg(id)}/time-reports`, TimeReportsResponse, signal, range),
    taskTimeReports: (id: string, range: { startDate?: string; endDate?: string } = {}, signal?: Sig) =>
      list(`/task/${seg(id)}/time-reports`, TimeReportsResponse, signal, range),
    /** Answers the new report (our service), or null for `OK` (the live service): then look it up. */
    createTimeReport: (taskId: string, body: CreateTimeReportBody, signal?: Sig) =>
      http.itemOrOk('POST', `/task/${seg(taskId)}/time-report`, TimeReport, { body, signal }),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
