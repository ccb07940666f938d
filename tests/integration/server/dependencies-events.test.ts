import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { CreateTaskResponse } from '../../../src/shared/api/tasks';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import { CreateDependencyResponse, DependenciesResponse } from '../../../src/shared/api/dependencies';
import { CalendarEvent, CalendarEventsResponse, EVENT_TYPES } from '../../../src/shared/api/events';
import { SEED_IDS } from '../../../src/server/seed/index';
import { errorOf, serviceSuite } from './client';

const { api, service, seeded } = serviceSuite();
const admin = seeded.actingUserId;

let project: string;
beforeAll(async () => {
  project = CreateProjectResponse.parse(
    (
      await api.post('/projects/new-project', {
        createdByUserId: admin,
        projectTemplateId: SEED_IDS.templates.project,
        name: 'Plan',
      })
    ).json,
  ).id;
});

/** A GET with a JSON body, sent with node:http (fetch cannot send one). */
function getWithBody(path: string, body: unknown): Promise<string> {
  const url = new URL(service().baseUrl + path);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: {
          'svc-api-token': service().token,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const newTask = async () =>
  CreateTaskResponse.parse(
    (await api.post('/tasks', { projectId: project, title: 't', fromUserId: admin })).json,
  ).id;

async function newEvent(body: Record<string, unknown>) {
  const res = await api.post('/events', {
    createdByUserId: admin,
    name: 'E',
    startDate: '2026-03-02',
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  return CalendarEvent.parse(res.json);
}

describe('events', () => {
  it('creates every type with its rules and lists by range and type', async () => {
    const byType: Record<string, Record<string, unknown>> = {
      'project-milestone': { projectId: project, assignedToUserId: seeded.bob },
      'project-event': { projectId: project, endDate: '2026-03-03' },
      'company-event': { endDate: '2026-03-02', notes: 'All hands' },
      'company-holiday': { endDate: '2026-03-04' },
      'personal-vacation': { userId: seeded.bob, endDate: '2026-03-09' },
      'personal-sick': { userId: seeded.cleo, endDate: '2026-03-02' },
      'personal-travel': { userId: seeded.dan, endDate: '2026-03-05' },
    };
    const created = [];
    for (const eventType of EVENT_TYPES) created.push(await newEvent({ eventType, ...byType[eventType] }));
    const milestone = created[0]!;
    expect(milestone).not.toHaveProperty('endDate');
    expect(milestone).toMatchObject({
      projectId: project,
      userId: null,
      assignedToUserId: seeded.bob,
      notes: null,
    });
    expect(CalendarEvent.parse((await api.get(`/event/${milestone.id}`)).json)).toEqual(milestone);
    const all = CalendarEventsResponse.parse(
      (await api.get('/events?startDate=2026-03-01&endDate=2026-03-31')).json,
    );
    expect(all).toHaveLength(7);
    const some = CalendarEventsResponse.parse(
      (
        await api.get(
          '/events?startDate=2026-03-01&endDate=2026-03-31&eventTypes=personal-sick,company-event',
        )
      ).json,
    );
    expect(some.map((e) => e.eventType).sort()).toEqual(['company-event', 'personal-sick']);
    const viaBody = await fetch(`${service().baseUrl}/events?eventTypes=personal-sick`, {
      method: 'GET',
      headers: { 'svc-api-token': service().token, 'content-type': 'application/json' },
      body: JSON.stringify({ startDate: '2026-03-01', endDate: '2026-03-31' }),
    }).catch(() => undefined);
    // Node's fetch refuses GET bodies; the raw request below is what such clients send.
    expect(viaBody).toBeUndefined();
    const raw = await getWithBody(`/events?eventTypes=personal-sick`, {
      startDate: '2026-03-01',
      endDate: '2026-03-31',
    });
    expect(CalendarEventsResponse.parse(JSON.parse(raw)).map((e) => e.eventType)).toEqual(['personal-sick']);
    const overlap = CalendarEventsResponse.parse(
      (await api.get('/events?startDate=2026-03-08&endDate=2026-03-08')).json,
    );
    expect(overlap.map((e) => e.eventType)).toEqual(['personal-vacation']);
  });

  it('refuses events that break the rules of their type', async () => {
    const base = { createdByUserId: admin, name: 'E', startDate: '2026-03-02' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, eventType: 'project-event', projectId: project }, /^endDate: is required/],
      [{ ...base, eventType: 'project-event', endDate: '2026-03-03' }, /^projectId: is required/],
      [{ ...base, eventType: 'personal-sick', endDate: '2026-03-03' }, /^userId: is required/],
      [
        { ...base, eventType: 'project-milestone', projectId: project, endDate: '2026-03-05' },
        /^endDate: project-milestone is a single-day/,
      ],
      [{ ...base, eventType: 'company-event', endDate: '2026-03-01' }, /^endDate: must not be before/],
      [
        { ...base, eventType: 'company-event', endDate: '2026-03-03', userId: seeded.bob },
        /^userId: is not used/,
      ],
      [{ ...base, eventType: 'project-milestone', projectId: 'nope' }, /^projectId: no project/],
      [{ ...base, eventType: 'personal-travel', userId: 'ghost', endDate: '2026-03-03' }, /^userId: no user/],
      [{ ...base, eventType: 'birthday', endDate: '2026-03-03' }, /^eventType:/],
      [{ ...base, eventType: 'company-event', endDate: '2026-03-03', startDate: 'tomorrow' }, /^startDate:/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/events', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    expect((await api.get('/events?startDate=2026-03-01')).status).toBe(400);
    expect((await api.get('/events?startDate=2026-03-05&endDate=2026-03-01')).status).toBe(400);
    expect((await api.get('/events?startDate=2026-03-01&endDate=2026-03-05&eventTypes=nope')).status).toBe(
      400,
    );
  });

  it('deletes events and their dependencies', async () => {
    const event = await newEvent({ eventType: 'company-holiday', endDate: '2026-03-02' });
    const task = await newTask();
    await api.post('/dependencies', { type: 5, createdByUserId: admin, task1Id: task, event2Id: event.id });
    expect((await api.del(`/event/${event.id}`)).json).toBe('OK');
    expect((await api.get(`/event/${event.id}`)).status).toBe(404);
    expect(DependenciesResponse.parse((await api.get(`/task/${task}/dependencies`)).json).successors).toEqual(
      [],
    );
    expect((await api.del(`/event/${event.id}`)).status).toBe(404);
  });
});

describe('dependencies', () => {
  it('links exactly one predecessor to one successor, in either naming', async () => {
    const a = await newTask();
    const b = await newTask();
    const res = await api.post('/dependencies', {
      type: 6,
      createdByUserId: admin,
      predecessorTaskId: a,
      successorTaskId: b,
    });
    const dep = CreateDependencyResponse.parse(res.json);
    expect(dep).toMatchObject({ type: 6, predecessorTaskId: a, successorTaskId: b, task1Id: a, task2Id: b });
    expect(DependenciesResponse.parse((await api.get(`/task/${a}/dependencies`)).json)).toEqual({
      successors: [{ id: dep.id, type: 6, successorTaskId: b }],
      predecessors: [],
    });
    expect(DependenciesResponse.parse((await api.get(`/task/${b}/dependencies`)).json).predecessors).toEqual([
      { id: dep.id, type: 6, predecessorTaskId: a },
    ]);
    const toProject = CreateDependencyResponse.parse(
      (await api.post('/dependencies', { type: 7, createdByUserId: admin, task1Id: b, project2Id: project }))
        .json,
    );
    expect(
      DependenciesResponse.parse((await api.get(`/project/${project}/dependencies`)).json).predecessors,
    ).toEqual([{ id: toProject.id, type: 7, predecessorTaskId: b }]);
    expect((await api.del(`/dependency/${dep.id}`)).json).toBe('OK');
    expect((await api.del(`/dependency/${dep.id}`)).status).toBe(404);
  });

  it('refuses bad dependencies', async () => {
    const a = await newTask();
    const b = await newTask();
    const base = { type: 5, createdByUserId: admin };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, successorTaskId: b }, /^predecessorTaskId: exactly one/],
      [
        { ...base, predecessorTaskId: a, predecessorProjectId: project, successorTaskId: b },
        /^predecessorTaskId: exactly one/,
      ],
      [{ ...base, predecessorTaskId: a }, /^successorTaskId: exactly one/],
      [{ ...base, type: 4, predecessorTaskId: a, successorTaskId: b }, /^type:/],
      [{ type: 5, predecessorTaskId: a, successorTaskId: b }, /^createdByUserId: is required/],
      [{ ...base, predecessorTaskId: a, successorTaskId: a }, /itself/],
      [{ ...base, predecessorTaskId: 'nope', successorTaskId: b }, /^predecessorTaskId: no task/],
      [{ ...base, predecessorTaskId: a, successorEventId: 'nope' }, /^successorEventId: no event/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/dependencies', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    await api.post('/dependencies', { ...base, predecessorTaskId: a, successorTaskId: b });
    const dup = await api.post('/dependencies', { ...base, predecessorTaskId: a, successorTaskId: b });
    expect(errorOf(dup)).toMatch(/already exists/);
    expect((await api.get('/task/nope/dependencies')).status).toBe(404);
    expect((await api.get('/event/nope/dependencies')).status).toBe(404);
  });
});
