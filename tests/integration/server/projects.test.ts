import { describe, expect, it } from 'vitest';
import { CreateProjectResponse, ProjectDetail, ProjectsResponse } from '../../../src/shared/api/projects';
import { ProjectHistoryResponse } from '../../../src/shared/api/history';
import { SEED_IDS } from '../../../src/server/seed/index';
import { errorOf, serviceSuite } from './client';

const { api, seeded } = serviceSuite();
const admin = seeded.actingUserId;

async function newProject(extra: Record<string, unknown> = {}) {
  const res = await api.post('/projects/new-project', {
    createdByUserId: admin,
    projectTemplateId: SEED_IDS.templates.project,
    name: 'Launch',
    parentProjectId: SEED_IDS.workspace,
    ...extra,
  });
  expect(res.status).toBe(200);
  return CreateProjectResponse.parse(res.json);
}

describe('folders and projects', () => {
  it('creates a folder: open, In Progress, moment_created, no customFieldsData', async () => {
    const res = await api.post('/projects/new-folder', { createdByUserId: admin, name: 'Ops', color: 3 });
    expect(res.status).toBe(200);
    const folder = CreateProjectResponse.parse(res.json);
    expect(folder).toMatchObject({
      name: 'Ops',
      systemStatus: 2,
      status: 'In Progress',
      isFolder: true,
      color: 3,
    });
    expect(folder.moment_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(res.json).not.toHaveProperty('customFieldsData');
  });

  it('creates a project from a template with dates, owner and sub-project parent', async () => {
    const project = await newProject({
      projectOwnerUserId: seeded.bob,
      startDate: '2026-03-01',
      endDate: '2026-04-01',
      deadline: '2026-04-15',
    });
    expect(project).toMatchObject({
      startDate: '2026-03-01',
      endDate: '2026-04-01',
      ownerUserId: seeded.bob,
    });
    const detail = ProjectDetail.parse((await api.get(`/project/${project.id}`)).json);
    expect(detail.settings?.taskTypes.length).toBeGreaterThan(0);
    expect(detail.customFieldsData).toEqual({});
    const sub = await newProject({ parentProjectId: project.id, name: 'Sub' });
    expect(sub.parentProjectId).toBe(project.id);
  });

  it('refuses bad create input, naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x', projectTemplateId: SEED_IDS.templates.project }, /^createdByUserId: is required/],
      [{ createdByUserId: admin, name: 'x' }, /^projectTemplateId: is required/],
      [
        { createdByUserId: admin, projectTemplateId: 'nope', name: 'x' },
        /^projectTemplateId: no project template/,
      ],
      [
        { createdByUserId: 'ghost', projectTemplateId: SEED_IDS.templates.project, name: 'x' },
        /^createdByUserId: no user/,
      ],
      [
        { createdByUserId: admin, projectTemplateId: SEED_IDS.templates.project, name: 'x', color: 25 },
        /^color:/,
      ],
      [
        {
          createdByUserId: admin,
          projectTemplateId: SEED_IDS.templates.project,
          name: 'x',
          parentProjectId: 'nope',
        },
        /^parentProjectId:/,
      ],
      [
        {
          createdByUserId: admin,
          projectTemplateId: SEED_IDS.templates.project,
          name: 'x',
          startDate: '2026-13-01',
        },
        /^startDate:/,
      ],
      [{ createdByUserId: admin, projectTemplateId: SEED_IDS.templates.project, name: 5 }, /^name:/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/projects/new-project', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
  });

  it('lists open projects by default, archived ones with archived=true, roots with rootOnly', async () => {
    const project = await newProject({ name: 'To archive' });
    expect((await api.put(`/project/${project.id}`, { userId: admin, systemStatus: 5 })).json).toBe('OK');
    const open = ProjectsResponse.parse((await api.get('/projects')).json);
    expect(open.some((p) => p.id === project.id)).toBe(false);
    const archived = ProjectsResponse.parse((await api.get('/projects?archived=true')).json);
    expect(archived.map((p) => p.id)).toContain(project.id);
    const roots = ProjectsResponse.parse((await api.get('/projects?rootOnly=1')).json);
    expect(roots.every((p) => p.parentProjectId === null)).toBe(true);
    expect((await api.put(`/project/${project.id}`, { userId: admin, systemStatus: 2 })).status).toBe(200);
    expect(ProjectsResponse.parse((await api.get('/projects')).json).map((p) => p.id)).toContain(project.id);
  });

  it('updates fields, resets with null, and records history for every change', async () => {
    const project = await newProject({ startDate: '2026-01-01' });
    const res = await api.put(`/project/${project.id}`, {
      userId: admin,
      statusComments: 'On track',
      priority: 50,
      progress: 40,
      health: 1,
      startDate: null,
      estimate: 120,
    });
    expect(res.status).toBe(200);
    expect(res.json).toBe('OK');
    const detail = ProjectDetail.parse((await api.get(`/project/${project.id}`)).json);
    expect(detail).toMatchObject({
      statusComments: 'On track',
      priority: 50,
      progress: 40,
      startDate: null,
      estimate: 120,
    });
    const history = ProjectHistoryResponse.parse((await api.get(`/projects/${project.id}/history`)).json);
    const comment = history.find((h) => h.eventType === 'STATUS_COMMENTS_UPDATED');
    expect(comment).toMatchObject({ userId: admin, params: { newValue: 'On track', oldValue: '' } });
    expect(history.map((h) => h.eventType)).toEqual(
      expect.arrayContaining(['PROJECT_CREATED', 'PRIORITY_UPDATED', 'START_DATE_UPDATED', 'HEALTH_UPDATED']),
    );
    expect((await api.get(`/project/${project.id}/history`)).json).toEqual(history);
  });

  it('lets statusId win over systemStatus, a closed status archives', async () => {
    const project = await newProject();
    await api.put(`/project/${project.id}`, {
      userId: admin,
      statusId: SEED_IDS.statuses.done,
      systemStatus: 2,
    });
    const detail = ProjectDetail.parse((await api.get(`/project/${project.id}`)).json);
    expect(detail).toMatchObject({ status: 'Done', systemStatus: 5 });
    await api.put(`/project/${project.id}`, { userId: admin, statusId: SEED_IDS.statuses.inProgress });
    expect(ProjectDetail.parse((await api.get(`/project/${project.id}`)).json).systemStatus).toBe(2);
  });

  it('refuses statusId on folders, unknown statuses and bad limits', async () => {
    const folder = CreateProjectResponse.parse(
      (await api.post('/projects/new-folder', { createdByUserId: admin, name: 'F' })).json,
    );
    const cases: [string, Record<string, unknown>, number, RegExp][] = [
      [
        folder.id,
        { userId: admin, statusId: SEED_IDS.statuses.done },
        400,
        /^statusId: is not supported for folders/,
      ],
      [folder.id, { userId: admin, statusId: 'nope' }, 400, /^statusId:/],
      [folder.id, { userId: admin, health: 3 }, 400, /^health:/],
      [folder.id, { userId: admin, priority: 11 }, 400, /^priority:/],
      [folder.id, { userId: admin, progress: 101 }, 400, /^progress:/],
      [folder.id, { userId: admin, systemStatus: 3 }, 400, /^systemStatus:/],
      [folder.id, { userId: admin, parentProjectId: folder.id }, 400, /^parentProjectId:/],
      [folder.id, {}, 400, /^userId: is required/],
      ['nope', { userId: admin }, 404, /project/],
    ];
    for (const [id, body, status, message] of cases) {
      const res = await api.put(`/project/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(errorOf(res)).toMatch(message);
    }
  });

  it('refuses an owner who is not a member (403) and accepts a member', async () => {
    // A root project: no members inherited from the Workspace.
    const project = await newProject({ parentProjectId: null });
    const refused = await api.put(`/project/${project.id}`, { userId: admin, ownerUserId: seeded.dan });
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toMatch(/ownerUserId/);
    await api.post(`/project/${project.id}/user/${seeded.dan}`, { userId: admin, access: 2 });
    expect((await api.put(`/project/${project.id}`, { userId: admin, ownerUserId: seeded.dan })).status).toBe(
      200,
    );
    expect((await api.put(`/project/${project.id}`, { userId: admin, ownerUserId: null })).status).toBe(200);
    expect(ProjectDetail.parse((await api.get(`/project/${project.id}`)).json).ownerUserId).toBeNull();
  });

  it('sets project custom fields checked against their types', async () => {
    const project = await newProject();
    const ok = await api.put(`/project/${project.id}/custom-fields`, {
      customFields: JSON.stringify([
        { id: SEED_IDS.customFields.currency, value: 12.5 },
        { id: SEED_IDS.customFields.rag, value: 2 },
      ]),
    });
    expect(ok.status).toBe(200);
    const detail = ProjectDetail.parse((await api.get(`/project/${project.id}`)).json);
    expect(detail.customFieldsData).toEqual({
      [SEED_IDS.customFields.currency]: 12.5,
      [SEED_IDS.customFields.rag]: 2,
    });
    const bad = await api.put(`/project/${project.id}/custom-fields`, {
      customFields: [{ id: SEED_IDS.customFields.rag, value: 'green' }],
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatch(/^customFields\.0: RAG must be/);
    await api.put(`/project/${project.id}/custom-fields`, {
      customFields: [{ id: SEED_IDS.customFields.rag, value: null }],
    });
    expect(ProjectDetail.parse((await api.get(`/project/${project.id}`)).json).customFieldsData).toEqual({
      [SEED_IDS.customFields.currency]: 12.5,
    });
  });
});
