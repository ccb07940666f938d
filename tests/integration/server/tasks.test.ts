import { beforeAll, describe, expect, it } from 'vitest';
import { CreateTaskResponse, TaskDetail, TasksResponse } from '../../../src/shared/api/tasks';
import { TaskMessagesResponse } from '../../../src/shared/api/messages';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import { DependenciesResponse } from '../../../src/shared/api/dependencies';
import { SEED_IDS } from '../../../src/server/seed/index';
import { errorOf, serviceSuite } from './client';

const { api, seeded } = serviceSuite();
const admin = seeded.actingUserId;

let projectId: string;
beforeAll(async () => {
  projectId = await newProject();
});

async function newProject(template: string = SEED_IDS.templates.project): Promise<string> {
  const res = await api.post('/projects/new-project', {
    createdByUserId: admin,
    projectTemplateId: template,
    name: 'Tasks',
  });
  return CreateProjectResponse.parse(res.json).id;
}

async function createTask(body: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/tasks', { projectId, title: 'A task', fromUserId: admin, ...body });
  expect(res.status, res.text).toBe(200);
  return CreateTaskResponse.parse(res.json).id;
}

const task = async (id: string) => TaskDetail.parse((await api.get(`/task/${id}`)).json);

describe('create task', () => {
  it('answers {id, momentCreated with a space, shortId} and stores the task', async () => {
    const res = await api.post('/tasks', {
      projectId,
      title: 'Write spec',
      fromUserId: admin,
      message: 'Details',
    });
    const created = CreateTaskResponse.parse(res.json);
    expect(created.momentCreated).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    const t = await task(created.id);
    expect(t).toMatchObject({
      id: created.id,
      shortId: created.shortId,
      name: 'Write spec',
      createdByUserId: admin,
      projectId,
      priority: 1,
      momentClosed: null,
      reportedTime: null,
      subtasks: [],
      tags: [],
    });
    expect(t.momentCreated).toBe(created.momentCreated.replace(' ', 'T'));
    expect(t).not.toHaveProperty('crmAccountId');
    const messages = TaskMessagesResponse.parse((await api.get(`/task/${created.id}/messages`)).json);
    expect(messages.map((m) => m.message)).toEqual(['Details']);
  });

  it('treats startDate alone as the schedule date, accepts start-date and explicit nulls', async () => {
    const a = await task(await createTask({ startDate: '2026-05-01' }));
    expect(a).toMatchObject({ scheduleDate: '2026-05-01', startDate: null, endDate: null });
    const b = await task(await createTask({ 'start-date': '2026-05-01', 'end-date': '2026-05-03' }));
    expect(b).toMatchObject({ startDate: '2026-05-01', endDate: '2026-05-03', scheduleDate: null });
    const c = await task(
      await createTask({ toUserId: null, deadline: null, priority: null, parentTaskId: null }),
    );
    expect(c).toMatchObject({ assignedToUserId: null, deadline: null, priority: 1, parentTaskId: null });
  });

  it('sets assignee and action-required user from toUserId', async () => {
    const t = await task(
      await createTask({ toUserId: seeded.bob, priority: 100, estimate: 90, storyPoints: 3 }),
    );
    expect(t).toMatchObject({
      assignedToUserId: seeded.bob,
      actionRequiredUserId: seeded.bob,
      priority: 100,
    });
    expect(t.users).toEqual([admin, seeded.bob]);
  });

  it('creates subtasks that appear in the parent', async () => {
    const parent = await createTask();
    const child = await createTask({ parentTaskId: parent, title: 'Child' });
    const p = await task(parent);
    expect(p.subtasks.map((s) => s.id)).toEqual([child]);
    expect((await task(child)).parentTaskId).toBe(parent);
  });

  it('refuses bad input, naming the field', async () => {
    const other = await newProject();
    const parentElsewhere = CreateTaskResponse.parse(
      (await api.post('/tasks', { projectId: other, title: 'x', fromUserId: admin })).json,
    ).id;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x', fromUserId: admin }, /^projectId: is required/],
      [{ projectId, fromUserId: admin }, /^title: is required/],
      [{ projectId, title: 'x' }, /^fromUserId: is required/],
      [{ projectId, title: '  ', fromUserId: admin }, /^title:/],
      [{ projectId: 'nope', title: 'x', fromUserId: admin }, /^projectId: no project/],
      [{ projectId, title: 'x', fromUserId: 'ghost' }, /^fromUserId: no user/],
      [{ projectId, title: 'x', fromUserId: admin, toUserId: 'ghost' }, /^toUserId: no user/],
      [{ projectId, title: 'x', fromUserId: admin, taskTypeId: 'nope' }, /^taskTypeId:/],
      [{ projectId, title: 'x', fromUserId: admin, priority: 11 }, /^priority:/],
      [{ projectId, title: 'x', fromUserId: admin, priority: 2.5 }, /^priority:/],
      [{ projectId, title: 'x', fromUserId: admin, estimate: '60' }, /^estimate:/],
      [{ projectId, title: 'x', fromUserId: admin, deadline: '2026-02-30' }, /^deadline:/],
      [
        { projectId, title: 'x', fromUserId: admin, startDate: '2026-02-03', endDate: '2026-02-01' },
        /^endDate:/,
      ],
      [{ projectId, title: 'x', fromUserId: admin, parentTaskId: 'nope' }, /^parentTaskId: no task/],
      [{ projectId, title: 'x', fromUserId: admin, parentTaskId: parentElsewhere }, /^parentTaskId: belongs/],
      [{ projectId, title: 'x', fromUserId: admin, crmAccountId: 'nope' }, /^crmAccountId:/],
      [{ projectId, title: 'x', fromUserId: admin, crmContactIds: ['nope'] }, /^crmContactIds\.0:/],
      [
        { projectId, title: 'x', fromUserId: admin, attachments: [{ fileId: 'f' }] },
        /^attachments\.0\.name: is required/,
      ],
      [
        {
          projectId,
          title: 'x',
          fromUserId: admin,
          attachments: Array.from({ length: 21 }, () => ({ fileId: 'f', name: 'a' })),
        },
        /^attachments: at most 20/,
      ],
      [
        { projectId, title: 'x', fromUserId: admin, attachments: [{ fileId: 'f', name: 'a'.repeat(256) }] },
        /^attachments\.0\.name: must be at most 255/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/tasks', body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
  });
});

describe('update task', () => {
  it('changes only what is sent and resets with null', async () => {
    const id = await createTask({ toUserId: seeded.bob, deadline: '2026-06-01', estimate: 30 });
    const res = await api.put(`/task/${id}/update`, {
      userId: admin,
      title: 'Renamed',
      progress: 50,
      deadline: null,
    });
    expect(res.status).toBe(200);
    expect(res.json).toBe('OK');
    const t = await task(id);
    expect(t).toMatchObject({
      name: 'Renamed',
      progress: 50,
      deadline: null,
      estimate: 30,
      assignedToUserId: seeded.bob,
    });
    await api.put(`/task/${id}/update`, {
      userId: admin,
      'start-date': '2026-01-01',
      'end-date': '2026-01-05',
      scheduleDate: '2026-01-02',
    });
    expect(await task(id)).toMatchObject({
      startDate: '2026-01-01',
      endDate: '2026-01-05',
      scheduleDate: '2026-01-02',
    });
    await api.put(`/task/${id}/update`, {
      userId: admin,
      assignedToUserId: null,
      estimate: null,
      storyPoints: null,
    });
    expect(await task(id)).toMatchObject({ assignedToUserId: null, estimate: null });
  });

  it('moves a task and its subtasks to another project; parentTaskId makes a subtask', async () => {
    const other = await newProject();
    const parent = await createTask();
    const child = await createTask({ parentTaskId: parent });
    expect((await api.put(`/task/${parent}/update`, { userId: admin, projectId: other })).status).toBe(200);
    expect((await task(child)).projectId).toBe(other);
    const loose = await createTask();
    expect((await api.put(`/task/${loose}/update`, { userId: admin, parentTaskId: child })).status).toBe(200);
    expect(await task(loose)).toMatchObject({ parentTaskId: child, projectId: other });
    const cycle = await api.put(`/task/${parent}/update`, { userId: admin, parentTaskId: loose });
    expect(cycle.status).toBe(400);
    expect(errorOf(cycle)).toMatch(/^parentTaskId:/);
    const both = await api.put(`/task/${parent}/update`, { userId: admin, parentTaskId: loose, projectId });
    expect(both.status).toBe(400);
  });

  it('refuses bad updates and unknown tasks', async () => {
    const id = await createTask();
    const cases: [string, Record<string, unknown>, number, RegExp][] = [
      [id, {}, 400, /^userId: is required/],
      [id, { userId: 'ghost' }, 400, /^userId: no user/],
      [id, { userId: admin, progress: 101 }, 400, /^progress:/],
      [id, { userId: admin, priority: 'high' }, 400, /^priority:/],
      [id, { userId: admin, projectId: 'nope' }, 400, /^projectId:/],
      [id, { userId: admin, assignedToUserId: 'ghost' }, 400, /^assignedToUserId:/],
      [id, { userId: admin, startDate: '2026-02-02', endDate: '2026-02-01' }, 400, /^endDate:/],
      ['nope', { userId: admin }, 404, /task/],
    ];
    for (const [taskId, body, status, message] of cases) {
      const res = await api.put(`/task/${taskId}/update`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(errorOf(res)).toMatch(message);
    }
    // As the live service: an explicit null for a field that cannot be reset is the field left out.
    const priority = (await task(id)).priority;
    expect((await api.put(`/task/${id}/update`, { userId: admin, priority: null })).status).toBe(200);
    expect((await task(id)).priority).toBe(priority);
  });
});

describe('status, tags, custom fields, delete', () => {
  it('sets the status, momentClosed on a closed status, and stores the message as a comment', async () => {
    const id = await createTask();
    const res = await api.put(`/task/${id}/status`, {
      userId: admin,
      statusId: SEED_IDS.statuses.done,
      message: 'Shipped',
    });
    expect(res.json).toBe('OK');
    const closed = await task(id);
    expect(closed.status).toEqual({ id: SEED_IDS.statuses.done, name: 'Done' });
    expect(closed.momentClosed).not.toBeNull();
    const messages = TaskMessagesResponse.parse((await api.get(`/task/${id}/messages`)).json);
    expect(messages.at(-1)).toMatchObject({
      message: 'Shipped',
      fromUserId: admin,
      taskStatusId: SEED_IDS.statuses.done,
    });
    const open = TasksResponse.parse((await api.get(`/project/${projectId}/tasks`)).json);
    expect(open.some((t) => t.id === id)).toBe(false);
    const all = TasksResponse.parse((await api.get(`/project/${projectId}/tasks?closed=true`)).json);
    expect(all.some((t) => t.id === id)).toBe(true);
    await api.put(`/task/${id}/status`, { userId: admin, statusId: SEED_IDS.statuses.inProgress });
    expect((await task(id)).momentClosed).toBeNull();
    expect((await api.put(`/task/${id}/status`, { userId: admin, statusId: 'nope' })).status).toBe(400);
    expect((await api.put(`/task/${id}/status`, { userId: admin })).status).toBe(400);
  });

  it("keeps to the project's task workflow", async () => {
    const kanban = await newProject(SEED_IDS.templates.kanban);
    const id = CreateTaskResponse.parse(
      (await api.post('/tasks', { projectId: kanban, title: 'k', fromUserId: admin })).json,
    ).id;
    expect((await task(id)).status.id).toBe(SEED_IDS.statuses.new);
    const res = await api.put(`/task/${id}/status`, { userId: admin, statusId: SEED_IDS.statuses.onHold });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatch(/workflow/);
  });

  it('adds and removes tags; lists tasks by tag', async () => {
    const id = await createTask();
    expect((await api.post(`/task/${id}/tag/${SEED_IDS.tags.urgent}`, { userId: admin })).json).toBe('OK');
    expect((await task(id)).tags).toEqual([SEED_IDS.tags.urgent]);
    const tagged = TasksResponse.parse((await api.get(`/tag/${SEED_IDS.tags.urgent}/tasks`)).json);
    expect(tagged.map((t) => t.id)).toContain(id);
    expect((await api.del(`/task/${id}/tag/${SEED_IDS.tags.urgent}`, { userId: admin })).json).toBe('OK');
    expect((await task(id)).tags).toEqual([]);
    expect((await api.post(`/task/${id}/tag/nope`, { userId: admin })).status).toBe(404);
    expect((await api.post(`/task/${id}/tag/${SEED_IDS.tags.urgent}`, {})).status).toBe(400);
    expect((await api.get('/tag/nope/tasks')).status).toBe(404);
  });

  it('sets custom-field values of every type and refuses wrong types', async () => {
    const id = await createTask();
    const f = SEED_IDS.customFields;
    const values: Record<string, unknown> = {
      [f.text]: 'REF-1',
      [f.textarea]: 'a\nb',
      [f.checkbox]: true,
      [f.number]: 3.5,
      [f.currency]: 10,
      [f.percentage]: 12.5,
      [f.date]: '2026-01-31',
      [f.dropdown]: 2,
      [f.multiSelect]: [1, 3],
      [f.rating]: 4,
      [f.email]: 'a@b.test',
      [f.phone]: '+1 555',
      [f.url]: 'https://example.test',
      [f.user]: seeded.bob,
      [f.rag]: 0,
    };
    const customFields = Object.entries(values).map(([fieldId, value]) => ({ id: fieldId, value }));
    expect((await api.put(`/task/${id}/custom-fields`, { customFields })).status).toBe(200);
    expect((await task(id)).customFieldsData).toEqual(values);
    const wrong: [string, unknown][] = [
      [f.checkbox, 'yes'],
      [f.number, '3'],
      [f.date, '31/01/2026'],
      [f.dropdown, 9],
      [f.multiSelect, [1, 'a']],
      [f.email, 'nope'],
      [f.user, 'ghost'],
      [f.rag, 3],
      ['cf-unknown', 1],
    ];
    for (const [fieldId, value] of wrong) {
      const res = await api.put(`/task/${id}/custom-fields`, { customFields: [{ id: fieldId, value }] });
      expect(res.status, fieldId).toBe(400);
      expect(errorOf(res)).toMatch(/^customFields\.0/);
    }
    expect((await api.put(`/task/${id}/custom-fields`, {})).status).toBe(400);
    expect(
      (await api.put(`/task/${id}/custom-fields`, { customFields: '[{"id":"' + f.rag + '","value":null}]' }))
        .status,
    ).toBe(200);
    expect((await task(id)).customFieldsData).not.toHaveProperty(f.rag);
  });

  it('deletes a task with its subtasks, messages, tags and dependencies', async () => {
    const parent = await createTask({ message: 'hello' });
    const child = await createTask({ parentTaskId: parent });
    const grandchild = await createTask({ parentTaskId: child });
    const other = await createTask();
    await api.post(`/task/${child}/tag/${SEED_IDS.tags.backend}`, { userId: admin });
    await api.post('/dependencies', {
      type: 5,
      createdByUserId: admin,
      predecessorTaskId: grandchild,
      successorTaskId: other,
    });
    expect((await api.del(`/task/${parent}`)).json).toBe('OK');
    for (const id of [parent, child, grandchild]) expect((await api.get(`/task/${id}`)).status).toBe(404);
    expect((await api.get(`/task/${parent}/messages`)).status).toBe(404);
    const deps = DependenciesResponse.parse((await api.get(`/task/${other}/dependencies`)).json);
    expect(deps.predecessors).toEqual([]);
    expect((await api.del(`/task/${parent}`)).status).toBe(404);
  });
});

describe('task lists', () => {
  it('lists by project (subfolders), assignee (closed) and action-required user', async () => {
    const sub = CreateProjectResponse.parse(
      (
        await api.post('/projects/new-folder', {
          createdByUserId: admin,
          name: 'Sub',
          parentProjectId: projectId,
        })
      ).json,
    ).id;
    const inSub = CreateTaskResponse.parse(
      (
        await api.post('/tasks', {
          projectId: sub,
          title: 'deep',
          fromUserId: admin,
          toUserId: seeded.dan,
        })
      ).json,
    ).id;
    const direct = TasksResponse.parse((await api.get(`/project/${projectId}/tasks`)).json);
    expect(direct.some((t) => t.id === inSub)).toBe(false);
    const withSub = TasksResponse.parse((await api.get(`/project/${projectId}/tasks?subfolders=1`)).json);
    expect(withSub.some((t) => t.id === inSub)).toBe(true);
    const assigned = TasksResponse.parse((await api.get(`/user/${seeded.dan}/assigned-tasks`)).json);
    expect(assigned.map((t) => t.id)).toEqual([inSub]);
    const action = TasksResponse.parse((await api.get(`/user/${seeded.dan}/action-required-tasks`)).json);
    expect(action.map((t) => t.id)).toEqual([inSub]);
    await api.put(`/task/${inSub}/status`, { userId: admin, statusId: SEED_IDS.statuses.cancelled });
    expect(TasksResponse.parse((await api.get(`/user/${seeded.dan}/assigned-tasks`)).json)).toEqual([]);
    expect(
      TasksResponse.parse((await api.get(`/user/${seeded.dan}/assigned-tasks?closed=true`)).json),
    ).toHaveLength(1);
    expect((await api.get('/user/ghost/assigned-tasks')).status).toBe(404);
    expect((await api.get('/user/ghost/action-required-tasks')).status).toBe(404);
    expect((await api.get('/project/nope/tasks')).status).toBe(404);
  });
});
