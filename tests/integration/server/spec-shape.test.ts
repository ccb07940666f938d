import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CustomFieldsResponse } from '../../../src/shared/api/custom-fields';
import { StatusesResponse, TaskTypesResponse, UsersResponse } from '../../../src/shared/api/org';
import { TaskDetail, TasksResponse } from '../../../src/shared/api/tasks';
import { TaskMessagesResponse } from '../../../src/shared/api/messages';
import { ProjectDetail, ProjectsResponse } from '../../../src/shared/api/projects';
import { ProjectUsersResponse } from '../../../src/shared/api/members';
import { Document, DocumentsResponse } from '../../../src/shared/api/documents';
import { ProjectHistoryResponse } from '../../../src/shared/api/history';
import {
  CrmAccountDetail,
  CrmAccountsResponse,
  CrmContactDetail,
  CrmContactsResponse,
} from '../../../src/shared/api/crm';
import { DependenciesResponse } from '../../../src/shared/api/dependencies';
import { CalendarEvent, CalendarEventsResponse } from '../../../src/shared/api/events';
import { SERVICE_PROFILES } from '../../support/service';
import { serviceSuite, type Client } from './client';
import {
  SpecCrmAccount,
  SpecCrmAccountDetail,
  SpecCrmContact,
  SpecCrmContactDetail,
  SpecCustomField,
  SpecDependencies,
  SpecDocument,
  SpecDocumentListItem,
  SpecEvent,
  SpecHistoryEvent,
  SpecMessage,
  SpecNamed,
  SpecProject,
  SpecProjectDetail,
  SpecProjectUser,
  SpecTask,
  SpecTaskDetail,
} from './spec-shapes';

/**
 * Every list and single answer of our service, read on both profiles: the `spec` profile must
 * answer each with the spec's full shape (the strict schemas of `spec-shapes.ts`: every field of
 * the spec's tables present with its type), and the `goodday` profile, which answers as the live
 * service does, must read through the tolerant schemas of `src/shared/api` the client uses.
 * The client's own reads go through the tolerant schemas only, so without this a field our
 * service stopped sending would go unnoticed.
 */

/** One shape of answer: the spec's strict schema, and the tolerant one the client reads it with. */
interface Shape {
  strict: z.ZodType;
  tolerant: z.ZodType;
}
const list = (item: z.ZodType) => item.array();
const SHAPES = {
  users: { strict: list(SpecNamed), tolerant: UsersResponse },
  statuses: { strict: list(SpecNamed), tolerant: StatusesResponse },
  taskTypes: { strict: list(SpecNamed), tolerant: TaskTypesResponse },
  customFields: { strict: list(SpecCustomField), tolerant: CustomFieldsResponse },
  projects: { strict: list(SpecProject), tolerant: ProjectsResponse },
  project: { strict: SpecProjectDetail, tolerant: ProjectDetail },
  tasks: { strict: list(SpecTask), tolerant: TasksResponse },
  task: { strict: SpecTaskDetail, tolerant: TaskDetail },
  messages: { strict: list(SpecMessage), tolerant: TaskMessagesResponse },
  members: { strict: list(SpecProjectUser), tolerant: ProjectUsersResponse },
  history: { strict: list(SpecHistoryEvent), tolerant: ProjectHistoryResponse },
  documents: { strict: list(SpecDocumentListItem), tolerant: DocumentsResponse },
  document: { strict: SpecDocument, tolerant: Document },
  events: { strict: list(SpecEvent), tolerant: CalendarEventsResponse },
  event: { strict: SpecEvent, tolerant: CalendarEvent },
  dependencies: { strict: SpecDependencies, tolerant: DependenciesResponse },
  crmContacts: { strict: list(SpecCrmContact), tolerant: CrmContactsResponse },
  crmContact: { strict: SpecCrmContactDetail, tolerant: CrmContactDetail },
  crmAccounts: { strict: list(SpecCrmAccount), tolerant: CrmAccountsResponse },
  crmAccount: { strict: SpecCrmAccountDetail, tolerant: CrmAccountDetail },
} satisfies Record<string, Shape>;
type ShapeName = keyof typeof SHAPES;

interface Answer {
  shape: ShapeName;
  path: string;
  json: unknown;
}

type Item = Record<string, unknown> & { id: string };

/**
 * Reads every list of the seeded service and the single answer of each item it lists (tasks:
 * every task's detail and messages; dependencies of every task, event and project).
 */
async function readAll(api: Client): Promise<Answer[]> {
  const answers: Answer[] = [];
  const read = async (shape: ShapeName, path: string): Promise<unknown> => {
    const res = await api.get(path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    answers.push({ shape, path, json: res.json });
    return res.json;
  };
  const items = (json: unknown): Item[] => (Array.isArray(json) ? (json as Item[]) : []);

  await read('users', '/users');
  await read('statuses', '/statuses');
  await read('taskTypes', '/task-types');
  await read('customFields', '/custom-fields');
  const projects = [
    ...items(await read('projects', '/projects')),
    ...items(await read('projects', '/projects?archived=true')),
  ];
  const taskIds = new Set<string>();
  for (const { id } of new Map(projects.map((p) => [p.id, p])).values()) {
    await read('project', `/project/${id}`);
    await read('members', `/project/${id}/users`);
    await read('history', `/projects/${id}/history`);
    await read('dependencies', `/project/${id}/dependencies`);
    for (const doc of items(await read('documents', `/project/${id}/documents`)))
      await read('document', `/document/${doc.id}`);
    for (const task of items(await read('tasks', `/project/${id}/tasks?closed=true`))) taskIds.add(task.id);
  }
  for (const id of taskIds) {
    await read('task', `/task/${id}`);
    await read('messages', `/task/${id}/messages`);
    await read('dependencies', `/task/${id}/dependencies`);
  }
  for (const event of items(await read('events', '/events?startDate=2000-01-01&endDate=2100-12-31'))) {
    await read('event', `/event/${event.id}`);
    await read('dependencies', `/event/${event.id}/dependencies`);
  }
  for (const contact of items(await read('crmContacts', '/crm/contacts')))
    await read('crmContact', `/crm/contact/${contact.id}`);
  for (const account of items(await read('crmAccounts', '/crm/accounts')))
    await read('crmAccount', `/crm/account/${account.id}`);
  return answers;
}

/** The problems of one answer against a schema, each with the path of the field it names. */
function problems(schema: z.ZodType, answer: Answer): string[] {
  const parsed = schema.safeParse(answer.json);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${answer.path} ${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** Answers that hold something: a list with items, or an object with a non-empty list inside. */
function holdsItems(json: unknown): boolean {
  if (Array.isArray(json)) return json.length > 0;
  return Object.values(json as object).some((v) => (Array.isArray(v) ? v.length > 0 : v !== null));
}

describe.each(SERVICE_PROFILES)('every read of the %s profile', (profile) => {
  const { api } = serviceSuite({ seed: 'demo', profile });
  let answers: Answer[] = [];
  const schemaOf = (name: ShapeName): z.ZodType =>
    profile === 'spec' ? SHAPES[name].strict : SHAPES[name].tolerant;

  it(`answers ${profile === 'spec' ? "with the spec's full shape" : 'what the client reads'}, shape by shape`, async () => {
    answers = await readAll(api);
    const names = Object.keys(SHAPES) as ShapeName[];
    // Each shape is seen holding items at least once: a check of empty lists proves nothing.
    const unseen = names.filter((name) => !answers.some((a) => a.shape === name && holdsItems(a.json)));
    expect(unseen).toEqual([]);
    // One line per shape, field and problem (each names a path where it was seen first).
    const seen = new Map<string, string>();
    for (const a of answers) {
      for (const problem of problems(schemaOf(a.shape), a)) {
        const field = problem.slice(a.path.length + 1).replace(/^\d+\.|(?<=\.)\d+\./g, '');
        if (!seen.has(`${a.shape} ${field}`)) seen.set(`${a.shape} ${field}`, problem);
      }
    }
    expect([...seen.values()]).toEqual([]);
  }, 120_000);

  if (profile === 'spec') {
    it('refuses a project list item without customFieldsData, a task without status, a message without timeReportId', async () => {
      if (!answers.length) answers = await readAll(api);
      const first = (name: ShapeName): Answer => {
        const found = answers.find((a) => a.shape === name && holdsItems(a.json));
        if (!found) throw new Error(`no ${name} answer read`);
        return found;
      };
      const without = (answer: Answer, field: string): Answer => {
        const [head, ...rest] = answer.json as Record<string, unknown>[];
        const { [field]: _dropped, ...kept } = head!;
        return { ...answer, json: [kept, ...rest] };
      };
      expect(problems(SpecProject.array(), without(first('projects'), 'customFieldsData'))).toEqual([
        `${first('projects').path} 0.customFieldsData: Invalid input: expected record, received undefined`,
      ]);
      expect(problems(SpecTask.array(), without(first('tasks'), 'status'))).toHaveLength(1);
      expect(problems(SpecMessage.array(), without(first('messages'), 'timeReportId'))).toHaveLength(1);
      // The tolerant schemas read all three.
      expect(problems(ProjectsResponse, without(first('projects'), 'customFieldsData'))).toEqual([]);
      expect(problems(TaskMessagesResponse, without(first('messages'), 'timeReportId'))).toEqual([]);
    });
  }
});
