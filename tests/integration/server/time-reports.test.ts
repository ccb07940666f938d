import { beforeAll, describe, expect, it } from 'vitest';
import { formatLocalDate } from '../../../src/shared/api/common';
import { CreateTaskResponse, TaskDetail, type TodoLists } from '../../../src/shared/api/tasks';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import { reportMessageText, TimeReport, TimeReportsResponse } from '../../../src/shared/api/time-reports';
import { SEED_IDS } from '../../../src/server/seed/index';
import { SERVICE_PROFILES } from '../../support/service';
import { errorOf, serviceSuite } from './client';

/** The service's clock: a fixed morning, so "today" and "far future" are known. */
const NOW = new Date(2026, 10, 20, 9, 30);
const TODAY = formatLocalDate(NOW);

describe.each(SERVICE_PROFILES)('time reports and to-do lists (%s profile)', (profile) => {
  const { api, seeded } = serviceSuite({ profile, clock: () => NOW });
  const admin = seeded.admin;
  let project: string;
  let folder: string;
  let inFolder: string;
  let task: string;
  let subtask: string;
  let other: string;

  const newTask = async (projectId: string, title: string, parentTaskId?: string) =>
    CreateTaskResponse.parse(
      (
        await api.post('/tasks', {
          projectId,
          title,
          fromUserId: admin,
          ...(parentTaskId ? { parentTaskId } : {}),
        })
      ).json,
    ).id;
  const log = (taskId: string, body: Record<string, unknown>) =>
    api.post(`/task/${taskId}/time-report`, { userId: admin, ...body });
  const reports = async (path: string) => {
    const res = await api.get(path);
    expect(res.status, res.text).toBe(200);
    return TimeReportsResponse.parse(res.json);
  };

  beforeAll(async () => {
    const newProject = async (name: string, parentProjectId?: string, folderKind = false) =>
      CreateProjectResponse.parse(
        (
          await api.post(folderKind ? '/projects/new-folder' : '/projects/new-project', {
            createdByUserId: admin,
            name,
            ...(folderKind ? {} : { projectTemplateId: SEED_IDS.templates.project }),
            ...(parentProjectId ? { parentProjectId } : {}),
          })
        ).json,
      ).id;
    project = await newProject('Hours');
    folder = await newProject('Client work', undefined, true);
    inFolder = await newProject('Inside', folder);
    task = await newTask(project, 'Write the plan');
    subtask = await newTask(project, 'Part one', task);
    other = await newTask(inFolder, 'Elsewhere');
  });

  it('logs time on a task; the task, user and project lists carry it as the live service shapes it', async () => {
    const res = await log(task, {
      reportedMinutes: 90,
      date: '2026-11-18',
      message: 'Drafted <b>it</b> & more',
    });
    expect(res.status, res.text).toBe(200);
    if (profile === 'goodday') expect(res.json).toBe('OK');
    else expect(TimeReport.parse(res.json).reported).toBe(90);

    const [item] = await reports(`/task/${task}/time-reports`);
    expect(item).toMatchObject({
      reportDate: '2026-11-18',
      projectId: project,
      userId: admin,
      taskId: task,
      reported: 90,
      message: 'Drafted &lt;b&gt;it&lt;/b&gt; &amp; more',
    });
    expect(reportMessageText(item!.message)).toBe('Drafted <b>it</b> & more');
    const raw = (await api.get(`/task/${task}/time-reports`)).json as Record<string, unknown>[];
    expect(Object.keys(raw[0]!).sort()).toEqual(
      ['id', 'reportDate', 'momentCreated', 'projectId', 'userId', 'taskId', 'reported', 'message']
        .concat(profile === 'spec' ? ['isBillable'] : [])
        .sort(),
    );
    // The live service stamps UTC with no offset; the spec local time.
    const utc = NOW.toISOString().slice(0, 19);
    if (profile === 'goodday') expect(item!.momentCreated.slice(0, 19)).toBe(utc);
    else expect(item!.momentCreated.slice(0, 16)).toBe(`${TODAY}T09:30`);

    expect((await reports(`/user/${admin}/time-reports`)).map((r) => r.id)).toContain(item!.id);
    expect((await reports(`/project/${project}/time-reports`)).map((r) => r.id)).toEqual([item!.id]);
  });

  it('takes today as the date when none is given, and keeps the billable flag (our extension)', async () => {
    expect((await log(other, { reportedMinutes: 30, isBillable: true })).status).toBe(200);
    const [item] = await reports(`/task/${other}/time-reports`);
    expect(item!.reportDate).toBe(TODAY);
    expect(item!.isBillable).toBe(profile === 'spec');
  });

  it('answers a date range, subtasks and subfolders', async () => {
    expect((await log(subtask, { reportedMinutes: 15, date: '2026-11-10' })).status).toBe(200);
    expect((await reports(`/task/${task}/time-reports`)).map((r) => r.taskId)).toEqual([task]);
    const withSubtasks = await reports(`/task/${task}/time-reports?subtasks=true`);
    expect(withSubtasks.map((r) => r.taskId)).toEqual([subtask, task]);
    expect(
      (await reports(`/task/${task}/time-reports?subtasks=1&startDate=2026-11-11&endDate=2026-11-30`)).map(
        (r) => r.taskId,
      ),
    ).toEqual([task]);
    expect(await reports(`/project/${folder}/time-reports`)).toEqual([]);
    expect((await reports(`/project/${folder}/time-reports?subfolders=true`)).map((r) => r.taskId)).toEqual([
      other,
    ]);
    expect(
      (await reports(`/user/${admin}/time-reports?startDate=2026-11-01&endDate=2026-11-12`)).map(
        (r) => r.taskId,
      ),
    ).toEqual([subtask]);
  });

  it('POST /time-reports reports across projects and users, dates in the body or in the query', async () => {
    const body = await api.post('/time-reports', {
      startDate: '2026-11-01',
      endDate: TODAY,
      projectIds: [project],
      userIds: [admin],
    });
    expect(body.status, body.text).toBe(200);
    expect(new Set(TimeReportsResponse.parse(body.json).map((r) => r.projectId))).toEqual(new Set([project]));
    const query = await api.post(`/time-reports?startDate=2026-11-15&endDate=${TODAY}`);
    expect(query.status, query.text).toBe(200);
    const items = TimeReportsResponse.parse(query.json);
    expect(items.map((r) => r.reportDate).every((d) => d >= '2026-11-15')).toBe(true);
    expect(items.map((r) => r.taskId).sort()).toEqual([task, other].sort());
    const backwards = await api.post('/time-reports', { startDate: '2026-11-15', endDate: '2026-11-01' });
    expect(backwards.status).toBe(400);
    expect(errorOf(backwards)).toMatch(/^endDate: /);
  });

  it('refuses what a user would not mean, naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ reportedMinutes: 0 }, /^reportedMinutes: must be at least 1 minute/],
      [{ reportedMinutes: 1441 }, /^reportedMinutes: must be at most 1440/],
      [{ reportedMinutes: 1.5 }, /^reportedMinutes: must be a whole number/],
      [{}, /^reportedMinutes: is required/],
      [{ reportedMinutes: 10, date: '2062-11-20' }, /^date: must not be after 2026-12-21/],
      [{ reportedMinutes: 10, date: '2026-13-01' }, /^date: must be a date/],
      [{ reportedMinutes: 10, userId: 'nobody' }, /^userId: no user with id "nobody"/],
      [
        { reportedMinutes: 10, userId: seeded.guestUserId },
        /^userId: .* is not a member of the task's project/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await log(task, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    const missing = await log('no-such-task', { reportedMinutes: 10 });
    expect(missing.status).toBe(404);
    expect(errorOf(missing)).toMatch(/task "no-such-task" not found/);
    expect((await api.get('/user/nobody/time-reports')).status).toBe(404);
    expect((await api.get('/project/nothing/time-reports')).status).toBe(404);
    // Nothing refused was stored.
    expect((await reports(`/task/${task}/time-reports`)).map((r) => r.reported)).toEqual([90]);
  });

  it('has no way to edit or delete a report: the service keeps them as logged', async () => {
    const [item] = await reports(`/task/${task}/time-reports`);
    expect((await api.del(`/time-report/${item!.id}`)).status).toBe(404);
    expect((await api.put(`/time-report/${item!.id}`, { reportedMinutes: 5 })).status).toBe(404);
  });

  it('a deleted task takes its reports along', async () => {
    const doomed = await newTask(project, 'Short-lived');
    expect((await log(doomed, { reportedMinutes: 5 })).status).toBe(200);
    expect((await api.del(`/task/${doomed}`)).status).toBe(200);
    expect((await reports(`/project/${project}/time-reports`)).map((r) => r.taskId)).not.toContain(doomed);
  });

  it('stores to-do lists on create and update task and returns them in the documented structure', async () => {
    const lists: TodoLists = [
      {
        uid: 'list-1',
        title: 'Before release',
        items: [
          { properties: { completed: true, title: 'Write notes', userId: admin } },
          { properties: { completed: false, title: 'Tag the build', userId: null } },
        ],
      },
    ];
    const created = await newTaskWith({ todoList: lists });
    const detail = TaskDetail.parse((await api.get(`/task/${created}`)).json);
    expect(detail.todoList).toEqual(lists);
    const listed = (await api.get(`/project/${project}/tasks`)).json as { id: string; todoList: unknown }[];
    expect(listed.find((t) => t.id === created)!.todoList).toEqual(lists);

    const ticked = [
      {
        ...lists[0]!,
        items: lists[0]!.items.map((i) => ({ properties: { ...i.properties, completed: true } })),
      },
    ];
    const update = await api.put(`/task/${created}/update`, { userId: admin, todoList: ticked });
    expect(update.status, update.text).toBe(200);
    expect(TaskDetail.parse((await api.get(`/task/${created}`)).json).todoList).toEqual(ticked);

    const bad: [unknown, RegExp][] = [
      [{ uid: 'x' }, /^todoList: /],
      [[{ uid: '', title: 't', items: [] }], /^todoList\.0\.uid: /],
      [
        [{ uid: 'a', title: 't', items: [{ properties: { completed: 'yes', title: 'x' } }] }],
        /^todoList\.0\.items\.0\.properties\.completed: /,
      ],
      [
        [{ uid: 'a', title: 't', items: [{ properties: { completed: false, title: ' ' } }] }],
        /^todoList\.0\.items\.0\.properties\.title: must not be empty/,
      ],
    ];
    for (const [todoList, message] of bad) {
      const res = await api.put(`/task/${created}/update`, { userId: admin, todoList });
      expect(res.status, JSON.stringify(todoList)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    const refusedCreate = await api.post('/tasks', {
      projectId: project,
      title: 'x',
      fromUserId: admin,
      todoList: 'no',
    });
    expect(refusedCreate.status).toBe(400);
    expect(errorOf(refusedCreate)).toMatch(/^todoList: /);
    // Refused updates changed nothing.
    expect(TaskDetail.parse((await api.get(`/task/${created}`)).json).todoList).toEqual(ticked);
  });

  async function newTaskWith(extra: Record<string, unknown>): Promise<string> {
    const res = await api.post('/tasks', {
      projectId: project,
      title: 'With lists',
      fromUserId: admin,
      ...extra,
    });
    expect(res.status, res.text).toBe(200);
    return CreateTaskResponse.parse(res.json).id;
  }
});

describe('the demo seed', () => {
  const { api, seeded } = serviceSuite({ seed: 'demo' });
  it('has a few weeks of time reports for each workspace member', async () => {
    const items = TimeReportsResponse.parse((await api.get(`/user/${seeded.bob}/time-reports`)).json);
    const days = new Set(items.map((r) => r.reportDate));
    expect(days.size).toBeGreaterThanOrEqual(15);
    expect(items.every((r) => r.reported >= 15 && r.reported <= 240)).toBe(true);
  });
});
