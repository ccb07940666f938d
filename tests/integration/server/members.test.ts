import { describe, expect, it } from 'vitest';
import { TaskDetail } from '../../../src/shared/api/tasks';
import { CreateProjectResponse } from '../../../src/shared/api/projects';
import { ProjectUsersResponse } from '../../../src/shared/api/members';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService } from '../../support/service';
import { client, errorOf, serviceSuite } from './client';

const { api, seeded } = serviceSuite();
const admin = seeded.actingUserId;

/** A project in the Workspace (members inherited from it) or, with `root`, at the top. */
async function project(root = false): Promise<string> {
  const res = await api.post('/projects/new-project', {
    createdByUserId: admin,
    projectTemplateId: SEED_IDS.templates.project,
    name: 'Team',
    parentProjectId: root ? null : SEED_IDS.workspace,
  });
  return CreateProjectResponse.parse(res.json).id;
}

describe('project membership', () => {
  it('adds, updates and lists members with access names', async () => {
    const id = await project();
    expect((await api.post(`/project/${id}/user/${seeded.bob}`, { userId: admin, access: 1 })).json).toBe(
      'OK',
    );
    expect((await api.put(`/project/${id}/user/${seeded.bob}`, { userId: admin, access: 3 })).status).toBe(
      200,
    );
    const users = ProjectUsersResponse.parse((await api.get(`/project/${id}/users`)).json);
    expect(users.find((u) => u.id === seeded.bob)).toMatchObject({ access: 'Full', watchAll: false });
    expect(users.find((u) => u.id === admin)?.access).toBe('Full');
  });

  it('validates access levels per operation', async () => {
    const id = await project(true);
    const add = await api.post(`/project/${id}/user/${seeded.bob}`, { userId: admin, access: -5 });
    expect(add.status).toBe(400);
    expect(errorOf(add)).toMatch(/^access: must be 1, 2 or 3/);
    await api.post(`/project/${id}/user/${seeded.bob}`, { userId: admin, access: 2 });
    expect((await api.put(`/project/${id}/user/${seeded.bob}`, { userId: admin, access: 4 })).status).toBe(
      400,
    );
    expect((await api.post(`/project/${id}/user/ghost`, { userId: admin, access: 2 })).status).toBe(404);
    expect((await api.post(`/project/nope/user/${seeded.bob}`, { userId: admin, access: 2 })).status).toBe(
      404,
    );
    expect((await api.put(`/project/${id}/user/${seeded.dan}`, { userId: admin, access: 2 })).status).toBe(
      404,
    );
  });

  it('refuses adding a non-Workspace member to a project inside the Workspace', async () => {
    const id = await project();
    const res = await api.post(`/project/${id}/user/${seeded.guestUserId}`, { userId: admin, access: 2 });
    expect(res.status).toBe(403);
    expect(errorOf(res)).toMatch(/Workspace/);
    expect(
      (
        await api.post(`/project/${SEED_IDS.workspace}/user/${seeded.guestUserId}`, {
          userId: admin,
          access: 1,
        })
      ).status,
    ).toBe(200);
    expect(
      (await api.post(`/project/${id}/user/${seeded.guestUserId}`, { userId: admin, access: 2 })).status,
    ).toBe(200);
  });

  it('refuses removing the owner and inherited memberships', async () => {
    const id = await project();
    const owner = await api.del(`/project/${id}/user/${admin}`, { userId: admin });
    expect(owner.status).toBe(403);
    expect(errorOf(owner)).toMatch(/owner/);
    const sub = CreateProjectResponse.parse(
      (
        await api.post('/projects/new-project', {
          createdByUserId: seeded.bob,
          projectTemplateId: SEED_IDS.templates.project,
          name: 'Sub',
          parentProjectId: id,
        })
      ).json,
    );
    const inherited = await api.del(`/project/${sub.id}/user/${admin}`, { userId: seeded.bob });
    expect(inherited.status).toBe(403);
    expect(errorOf(inherited)).toMatch(/inherited/);
  });

  it('refuses removing a user from a public project or one who is a member through a team', async () => {
    const demo = await startService({ seed: 'demo' });
    try {
      const demoApi = client(demo);
      // The demo marks its second generated project public.
      const res = await demoApi.del(`/project/g7-p2/user/${demo.users.cleo}`, { userId: admin });
      expect(res.status).toBe(403);
      expect(errorOf(res)).toMatch(/public/);
      // ...and one whose membership comes from a team.
      const team = await demoApi.del(`/project/g7-p4/user/${demo.users.cleo}`, { userId: admin });
      expect(team.status).toBe(403);
      expect(errorOf(team)).toMatch(/inherited \(from team\)/);
    } finally {
      await demo.close();
    }
  });

  it('removes a member and hands their tasks to the owner; read-only access does the same', async () => {
    const id = await project(true);
    for (const user of [seeded.bob, seeded.cleo]) {
      await api.post(`/project/${id}/user/${user}`, { userId: admin, access: 2 });
    }
    const create = async (to: string) =>
      (
        (await api.post('/tasks', { projectId: id, title: 't', fromUserId: admin, toUserId: to })).json as {
          id: string;
        }
      ).id;
    const bobTask = await create(seeded.bob);
    const cleoTask = await create(seeded.cleo);
    expect((await api.del(`/project/${id}/user/${seeded.bob}`, { userId: admin })).json).toBe('OK');
    const bobAfter = TaskDetail.parse((await api.get(`/task/${bobTask}`)).json);
    expect(bobAfter.assignedToUserId).toBe(admin);
    const users = ProjectUsersResponse.parse((await api.get(`/project/${id}/users`)).json);
    expect(users.some((u) => u.id === seeded.bob)).toBe(false);
    await api.put(`/project/${id}/user/${seeded.cleo}`, { userId: admin, access: -10 });
    expect(TaskDetail.parse((await api.get(`/task/${cleoTask}`)).json).assignedToUserId).toBe(admin);
    const missingBody = await api.del(`/project/${id}/user/${seeded.cleo}`);
    expect(missingBody.status).toBe(400);
    expect(errorOf(missingBody)).toMatch(/^userId: is required/);
  });
});
