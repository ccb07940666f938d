import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { formatLocalTimestamp } from '../../../src/shared/api/common';
import { CreateTaskResponse, TasksResponse } from '../../../src/shared/api/tasks';
import { SEED_IDS } from '../../../src/server/seed/index';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { client, type Res } from './client';

/**
 * What differs between the two profiles of our service, and what both must answer alike: the
 * `goodday` profile answers as GoodDay's live service does (shared/spec/live-service-notes.md),
 * `spec` as the spec's tables say. Both accept the request forms the live service tolerates.
 */

// 2026-11-26 07:53:47.040 UTC: a fraction with trailing zeros, to see them trimmed.
const NOW = new Date(Date.UTC(2026, 10, 26, 7, 53, 47, 40));

const keysOf = (value: unknown) => Object.keys(value as object).sort();
const asObject = (res: Res) => res.json as Record<string, unknown>;
const asList = (res: Res) => res.json as Record<string, unknown>[];

/** A request with a JSON body on any method (fetch refuses a body on GET). */
function rawJson(
  url: string,
  method: string,
  token: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          'svc-api-token': token,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (answer += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer }));
      },
    );
    req.once('error', reject);
    req.end(text);
  });
}

describe.each(SERVICE_PROFILES)('the %s profile', (profile) => {
  let service: RunningService;
  const api = client(() => service);
  const admin = SEED_IDS.users.admin;
  const live = profile === 'goodday';
  let projectId: string;
  let taskId: string;
  let subtaskId: string;

  beforeAll(async () => {
    service = await startService({ profile, seed: 'demo', clock: () => NOW });
    const created = await api.post('/projects/new-project', {
      createdByUserId: admin,
      projectTemplateId: SEED_IDS.templates.project,
      name: 'Live shapes',
      parentProjectId: SEED_IDS.workspace,
    });
    projectId = String(asObject(created)['id']);
    taskId = CreateTaskResponse.parse(
      (await api.post('/tasks', { projectId, title: 'Parent', fromUserId: admin, message: 'Hi' })).json,
    ).id;
    subtaskId = CreateTaskResponse.parse(
      (await api.post('/tasks', { projectId, title: 'Child', fromUserId: admin, parentTaskId: taskId })).json,
    ).id;
  });
  afterAll(() => service.close());

  it('lists statuses with no open/closed flag on goodday, with isClosed on spec', async () => {
    const statuses = asList(await api.get('/statuses'));
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) {
      if (live) {
        expect(keysOf(status)).toEqual(['color', 'description', 'id', 'name', 'systemStatus']);
      } else {
        expect(typeof status['isClosed']).toBe('boolean');
      }
    }
  });

  it('lists projects with systemType on both; no isFolder or customFieldsData and null status on goodday', async () => {
    const projects = asList(await api.get('/projects'));
    const workspace = projects.find((p) => p['id'] === SEED_IDS.workspace)!;
    const mine = projects.find((p) => p['id'] === projectId)!;
    expect(workspace['systemType']).toBe('FOLDER');
    expect(mine['systemType']).toBe('PROJECT');
    for (const p of projects) expect(['FOLDER', 'PROJECT']).toContain(p['systemType']);
    if (live) {
      for (const p of projects) {
        expect(p).not.toHaveProperty('isFolder');
        expect(p).not.toHaveProperty('customFieldsData');
      }
      expect(workspace['status']).toBeNull();
      // No status chosen yet: null, as in most projects of a live list.
      expect(mine['status']).toBeNull();
      expect(mine['statusComments']).toBeNull();
      expect(mine['moment_created']).toBe('2026-11-26T07:53:47.04');
    } else {
      expect(workspace['isFolder']).toBe(true);
      expect(mine).toMatchObject({ isFolder: false, status: 'In Progress', statusComments: '' });
      expect(mine['customFieldsData']).toEqual({});
      expect(mine['moment_created']).toBe(formatLocalTimestamp(NOW));
    }
  });

  it('answers a single project without settings on goodday, with them on spec', async () => {
    const project = asObject(await api.get(`/project/${projectId}`));
    expect(project['systemType']).toBe('PROJECT');
    if (live) {
      expect(project).not.toHaveProperty('settings');
      expect(project).not.toHaveProperty('isFolder');
      expect(project['status']).toBeNull();
      // A chosen status is named, in the project and in the list.
      const other = String(
        asObject(
          await api.post('/projects/new-project', {
            createdByUserId: admin,
            projectTemplateId: SEED_IDS.templates.project,
            name: 'With a status',
          }),
        )['id'],
      );
      const set = await api.put(`/project/${other}`, { userId: admin, statusId: SEED_IDS.statuses.onHold });
      expect(set.status, set.text).toBe(200);
      expect(asObject(await api.get(`/project/${other}`))['status']).toBe('On Hold');
      const listed = asList(await api.get('/projects')).find((p) => p['id'] === other)!;
      expect(listed['status']).toBe('On Hold');
    } else {
      expect(project['settings']).toMatchObject({ workItems: expect.any(Array) as unknown });
    }
  });

  it('lists CRM contacts without userId on goodday; the single contact has userId null', async () => {
    const contacts = asList(await api.get('/crm/contacts'));
    expect(contacts.length).toBeGreaterThan(0);
    for (const c of contacts) {
      if (live) expect(c).not.toHaveProperty('userId');
      else expect(c).toHaveProperty('userId');
    }
    const detail = asObject(await api.get(`/crm/contact/${String(contacts[0]!['id'])}`));
    expect((detail['contact'] as Record<string, unknown>)['userId']).toBeNull();
  });

  it('sends the live extra user fields on goodday only', async () => {
    const users = asList(await api.get('/users'));
    const ada = users.find((u) => u['id'] === admin)!;
    const bob = asObject(await api.get(`/user/${SEED_IDS.users.bob}`));
    if (live) {
      expect(ada).toMatchObject({ companyRole: 'Manager', isAdmin: true, reportsToUserId: null });
      expect(bob).toMatchObject({ companyRole: 'User', isAdmin: false, reportsToUserId: admin });
      expect(bob['momentCreated']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?$/);
      expect(bob['skills']).toEqual([]);
    } else {
      expect(keysOf(ada)).toEqual(['id', 'name', 'primaryEmail']);
      expect(keysOf(bob)).toEqual(['id', 'name', 'primaryEmail']);
    }
  });

  it('sends tasks with reportedTime null and, on goodday, systemType 1 for a task and 2 for a subtask', async () => {
    const tasks = TasksResponse.parse((await api.get(`/project/${projectId}/tasks`)).json);
    const parent = tasks.find((t) => t.id === taskId)!;
    const child = tasks.find((t) => t.id === subtaskId)!;
    expect(parent.reportedTime).toBeNull();
    const detail = asObject(await api.get(`/task/${taskId}`));
    if (live) {
      expect([parent.systemType, child.systemType]).toEqual([1, 2]);
      expect(detail['systemType']).toBe(1);
      expect((detail['subtasks'] as Record<string, unknown>[])[0]!['systemType']).toBe(2);
      expect(parent.momentCreated).toBe('2026-11-26T07:53:47.04');
      expect(parent.recentActivityMoment).toBe('2026-11-26T07:53:47.04');
    } else {
      // The task type's system type (the seed's "Task" type is 1 for both).
      expect(parent.systemType).toBe(child.systemType);
      expect(parent.momentCreated).toBe(formatLocalTimestamp(NOW));
    }
    const messages = asList(await api.get(`/task/${taskId}/messages`));
    expect(messages[0]!['dateCreated']).toBe(live ? '2026-11-26T07:53:47.04' : formatLocalTimestamp(NOW));
  });

  it('answers create task with {id, momentCreated with a space, shortId}; ids are 6 alphanumerics on goodday', async () => {
    const res = await api.post('/tasks', { projectId, title: 'Shape', fromUserId: admin });
    expect(keysOf(res.json)).toEqual(['id', 'momentCreated', 'shortId']);
    const created = CreateTaskResponse.parse(res.json);
    if (live) {
      expect(created.momentCreated).toBe('2026-11-26 07:53:47.04');
      expect(created.id).toMatch(/^[A-Za-z0-9]{6}$/);
      expect(projectId).toMatch(/^[A-Za-z0-9]{6}$/);
    } else {
      expect(created.momentCreated).toBe(formatLocalTimestamp(NOW, ' '));
      expect(created.id).toMatch(/^[A-Za-z0-9]{20}$/);
    }
  });

  it('has no tag or project-template list on goodday (404); spec offers both', async () => {
    for (const path of ['/tags', '/project-templates']) {
      const res = await api.get(path);
      expect(res.status, path).toBe(live ? 404 : 200);
      if (live) expect(res.json).toHaveProperty('errorMessage');
    }
  });

  it('answers 405 to POST on a task status and 404 to task history, activity and message edits', async () => {
    const post = await api.post(`/task/${taskId}/status`, {
      userId: admin,
      statusId: SEED_IDS.statuses.done,
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('PUT');
    expect((await api.get(`/task/${taskId}/history`)).status).toBe(404);
    expect((await api.get(`/task/${taskId}/activity`)).status).toBe(404);
    const messageId = String(asList(await api.get(`/task/${taskId}/messages`))[0]!['id']);
    expect((await api.put(`/task/${taskId}/message/${messageId}`, { message: 'x' })).status).toBe(404);
    expect((await api.put(`/message/${messageId}`, { message: 'x' })).status).toBe(404);
  });

  it('answers writes with no shown response as the JSON string "OK"', async () => {
    const answers = [
      await api.post(`/task/${taskId}/comment`, { userId: admin, message: 'A comment' }),
      await api.put(`/task/${taskId}/update`, { userId: admin, title: 'Parent again' }),
      await api.put(`/project/${projectId}`, { userId: admin, description: 'Described' }),
      await api.post('/crm/contacts', { createdByUserId: admin, firstName: 'Olga' }),
    ];
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.text).toBe('"OK"');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
    // The created-id header is our extension; the live service sends only the body.
    expect(answers[3]!.headers.get('x-created-id')).toSatisfy((id: string | null) =>
      live ? id === null : typeof id === 'string' && id.length > 0,
    );
  });

  it('accepts the custom-fields body as a JSON-encoded string, on tasks and projects', async () => {
    const field = SEED_IDS.customFields.text;
    const encoded = JSON.stringify(
      JSON.stringify({ userId: admin, customFields: [{ id: field, value: 'R-1' }] }),
    );
    const onTask = await api.call('PUT', `/task/${taskId}/custom-fields`, encoded);
    expect(onTask.status, onTask.text).toBe(200);
    expect(asObject(await api.get(`/task/${taskId}`))['customFieldsData']).toMatchObject({ [field]: 'R-1' });
    const onProject = await api.call('PUT', `/project/${projectId}/custom-fields`, encoded);
    expect(onProject.status, onProject.text).toBe(200);
    expect(asObject(await api.get(`/project/${projectId}`))['customFieldsData']).toMatchObject({
      [field]: 'R-1',
    });
    const broken = await api.call('PUT', `/task/${taskId}/custom-fields`, JSON.stringify('{"userId":'));
    expect(broken.status).toBe(400);
  });

  describe('tolerates the request forms the live service accepts', () => {
    it('takes the token in either header or in the query string', async () => {
      const token = service.token;
      for (const name of ['svc-api-token', 'gd-api-token']) {
        expect((await api.get('/users', { [name]: token })).status, name).toBe(200);
        expect((await api.get(`/users?${name}=${token}`, {})).status, name).toBe(200);
      }
      expect((await api.get('/users', {})).status).toBe(401);
    });

    it('accepts double slashes in paths', async () => {
      expect((await api.get(`//project//${projectId}//tasks`)).status).toBe(200);
    });

    it('reads booleans as true/false/0/1', async () => {
      const count = async (q: string) => asList(await api.get(`/project/${projectId}/tasks?${q}`)).length;
      expect(await count('closed=true')).toBe(await count('closed=1'));
      expect(await count('closed=false')).toBe(await count('closed=0'));
      expect((await api.get(`/project/${projectId}/tasks?closed=maybe`)).status).toBe(400);
    });

    it('accepts JSON bodies with a JSON content type on GET and DELETE', async () => {
      const url = `${service.baseUrl}/project/${projectId}/tasks`;
      const open = await rawJson(url, 'GET', service.token, { closed: false });
      const all = await rawJson(url, 'GET', service.token, { closed: true });
      expect([open.status, all.status], all.text).toEqual([200, 200]);
      // The body's parameter is read: closed tasks are listed only with closed=true.
      const closedOne = CreateTaskResponse.parse(
        (await api.post('/tasks', { projectId, title: 'Closed', fromUserId: admin })).json,
      ).id;
      await api.put(`/task/${closedOne}/status`, { userId: admin, statusId: SEED_IDS.statuses.done });
      const ids = async (closed: boolean) =>
        (JSON.parse((await rawJson(url, 'GET', service.token, { closed })).text) as { id: string }[]).map(
          (t) => t.id,
        );
      expect(await ids(true)).toContain(closedOne);
      expect(await ids(false)).not.toContain(closedOne);
      const doomed = CreateTaskResponse.parse(
        (await api.post('/tasks', { projectId, title: 'Doomed', fromUserId: admin })).json,
      ).id;
      const del = await rawJson(`${service.baseUrl}/task/${doomed}`, 'DELETE', service.token, {
        userId: admin,
      });
      expect(del.status, del.text).toBe(200);
      expect((await api.get(`/task/${doomed}`)).status).toBe(404);
    });

    it('accepts explicit nulls for optional fields', async () => {
      const created = await api.post('/tasks', {
        projectId,
        title: 'Nulls',
        fromUserId: admin,
        parentTaskId: null,
        toUserId: null,
        message: null,
        startDate: null,
        endDate: null,
        deadline: null,
        priority: null,
        estimate: null,
        storyPoints: null,
        todoList: null,
        attachments: null,
        crmContactIds: null,
        crmAccountId: null,
      });
      expect(created.status, created.text).toBe(200);
      const id = CreateTaskResponse.parse(created.json).id;
      const comment = await api.post(`/task/${id}/comment`, {
        userId: admin,
        message: 'x',
        attachments: null,
      });
      expect(comment.status, comment.text).toBe(200);
      const status = await api.put(`/task/${id}/status`, {
        userId: admin,
        statusId: SEED_IDS.statuses.inProgress,
        message: null,
      });
      expect(status.status, status.text).toBe(200);
      const folder = await api.post('/projects/new-folder', {
        createdByUserId: admin,
        name: 'Null folder',
        parentProjectId: null,
        color: null,
      });
      expect(folder.status, folder.text).toBe(200);
    });

    it('ignores unknown and read-only fields in a write', async () => {
      const created = await api.post('/tasks', {
        projectId,
        title: 'Extra',
        fromUserId: admin,
        id: 'mine',
        momentCreated: '2020-01-01 00:00:00',
        somethingNew: { nested: true },
      });
      expect(created.status, created.text).toBe(200);
      const id = CreateTaskResponse.parse(created.json).id;
      expect(id).not.toBe('mine');
      const update = await api.put(`/task/${id}/update`, { userId: admin, title: 'Extra 2', shortId: 'x' });
      expect(update.status, update.text).toBe(200);
      expect(asObject(await api.get(`/task/${id}`))['name']).toBe('Extra 2');
    });

    it('reads start-date and end-date in update task', async () => {
      const res = await api.put(`/task/${taskId}/update`, {
        userId: admin,
        'start-date': '2026-12-01',
        'end-date': '2026-12-05',
      });
      expect(res.status, res.text).toBe(200);
      expect(asObject(await api.get(`/task/${taskId}`))).toMatchObject({
        startDate: '2026-12-01',
        endDate: '2026-12-05',
      });
    });

    it('takes actionRequiredUsedId or actionRequiredUserId on reply', async () => {
      for (const [field, user] of [
        ['actionRequiredUsedId', SEED_IDS.users.bob],
        ['actionRequiredUserId', SEED_IDS.users.cleo],
      ] as const) {
        const res = await api.post(`/task/${taskId}/reply`, { userId: admin, [field]: user, message: field });
        expect(res.status, res.text).toBe(200);
        expect(asObject(await api.get(`/task/${taskId}`))['actionRequiredUserId']).toBe(user);
      }
    });
  });
});
