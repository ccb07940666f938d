// Project, folder and membership writes through the outbox against the real service.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { createDispatch } from '../../../src/main/core/dispatch';
import { writesSuite, type TestEngine } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { memberEndpoints } from '../../../src/shared/api/members';

const suite = writesSuite();

/** A project in the Workspace with the given users as members (access 2). */
async function teamProject(e: TestEngine, name: string, ...members: string[]): Promise<{ id: string }> {
  const project = await e.call('projects.create', {
    name,
    projectTemplateId: SEED_IDS.templates.project,
    parentProjectId: SEED_IDS.workspace,
  });
  for (const userId of members) await e.call('members.add', { projectId: project.id, userId, access: 2 });
  return project;
}

describe('project writes through the outbox', () => {
  it('creates a folder and a project inside it offline, then edits, archives and re-opens', async () => {
    const e = await suite.engine();
    await e.outbox.stop();
    const folder = await e.call('projects.createFolder', {
      name: 'Offline folder',
      parentProjectId: SEED_IDS.workspace,
    });
    const project = await e.call('projects.create', {
      name: 'Offline project',
      projectTemplateId: SEED_IDS.templates.project,
      parentProjectId: folder.id,
      startDate: '2026-12-01',
    });
    await e.call('projects.update', {
      projectId: project.id,
      changes: { description: 'Written offline', priority: 3 },
    });
    const task = await e.call('tasks.create', { projectId: project.id, title: 'Task in an offline project' });
    expect(e.cache.projects.get(project.id)).toMatchObject({
      name: 'Offline project',
      parentProjectId: folder.id,
      priority: 3,
    });
    e.outbox.start();
    await e.drained();
    const [f, p, t] = [folder.id, project.id, task.id].map((x) => e.outbox.realIdOf(x));
    const remote = await suite.api.call(projectEndpoints.project, { id: p! });
    expect(remote).toMatchObject({
      name: 'Offline project',
      parentProjectId: f,
      description: 'Written offline',
      priority: 3,
      startDate: '2026-12-01',
    });
    expect((await suite.api.call(taskEndpoints.projectTasks, { id: p! })).map((x) => x.id)).toEqual([t]);
    expect(e.cache.projects.get(p!)).toMatchObject({ parentProjectId: f, description: 'Written offline' });

    await e.call('projects.update', { projectId: p!, changes: { systemStatus: 5 } });
    expect(e.cache.projects.get(p!)?.systemStatus).toBe(5);
    await e.drained();
    expect(
      (await suite.api.call(projectEndpoints.projects, { query: { archived: true } })).some(
        (x) => x.id === p,
      ),
    ).toBe(true);
    await e.call('projects.update', { projectId: p!, changes: { statusId: SEED_IDS.statuses.inProgress } });
    expect(e.cache.projects.get(p!)).toMatchObject({
      systemStatus: 2,
      statusId: SEED_IDS.statuses.inProgress,
    });
    await e.call('projects.setCustomFields', {
      projectId: p!,
      values: [{ id: SEED_IDS.customFields.text, value: 'P-1' }],
    });
    await e.drained();
    expect(await suite.api.call(projectEndpoints.project, { id: p! })).toMatchObject({
      systemStatus: 2,
      customFieldsData: { [SEED_IDS.customFields.text]: 'P-1' },
    });
  });

  it('read-only access and removal hand the user items to the owner, as the service does', async () => {
    const e = await suite.engine();
    const project = await teamProject(e, 'Team project', suite.svc.users.bob, suite.svc.users.cleo);
    const a = await e.call('tasks.create', {
      projectId: project.id,
      title: 'Bob task',
      toUserId: suite.svc.users.bob,
    });
    const b = await e.call('tasks.create', {
      projectId: project.id,
      title: 'Cleo task',
      toUserId: suite.svc.users.cleo,
    });
    await e.drained();
    const p = e.outbox.realIdOf(project.id);
    await e.call('members.setAccess', { projectId: p, userId: suite.svc.users.bob, access: -10 });
    await e.call('members.remove', { projectId: p, userId: suite.svc.users.cleo });
    const owner = suite.svc.users.actingUserId;
    expect(e.cache.tasks.get(e.outbox.realIdOf(a.id))).toMatchObject({
      assignedToUserId: owner,
      actionRequiredUserId: owner,
    });
    expect(e.cache.tasks.get(e.outbox.realIdOf(b.id))).toMatchObject({ assignedToUserId: owner });
    expect(e.cache.projectParts.membersOf(p).map((m) => [m.id, m.access])).toEqual(
      expect.arrayContaining([[suite.svc.users.bob, 'Read only']]),
    );
    await e.drained();
    const remoteTasks = await suite.api.call(taskEndpoints.projectTasks, { id: p });
    expect(remoteTasks.map((t) => [t.name, t.assignedToUserId]).sort()).toEqual([
      ['Bob task', owner],
      ['Cleo task', owner],
    ]);
    const members = await suite.api.call(memberEndpoints.projectUsers, { id: p });
    expect(members.find((m) => m.id === suite.svc.users.bob)?.access).toBe('Read only');
    expect(members.some((m) => m.id === suite.svc.users.cleo)).toBe(false);
  });

  it('a removal waits for a waiting edit that gives the member a task, and hands it to the owner', async () => {
    // Through the fault proxy: the edit's first attempt is throttled, so without the ordering
    // the removal would reach the service first and the edit would give the task back to bob.
    const e = await suite.engine();
    const project = await teamProject(e, 'Ordered members', suite.svc.users.bob);
    const task = await e.call('tasks.create', { projectId: project.id, title: 'Handed task' });
    await e.drained();
    const [p, t] = [project.id, task.id].map((x) => e.outbox.realIdOf(x)) as [string, string];
    suite.proxy.set({ tooMany: { next: 1, match: new RegExp(`PUT /2.0/task/${t}/update$`) } });
    await e.call('tasks.update', { taskId: t, changes: { assignedToUserId: suite.svc.users.bob } });
    await e.call('members.remove', { projectId: p, userId: suite.svc.users.bob });
    const owner = suite.svc.users.actingUserId;
    expect(e.cache.tasks.get(t)).toMatchObject({ assignedToUserId: owner });
    const removal = e.outbox.entries().find((x) => x.kind === 'member.remove');
    expect(removal?.keys).toContain(`task:${t}`);
    await e.drained();
    expect(suite.proxy.stats().injected.tooMany).toBe(1);
    const [remote] = (await suite.api.call(taskEndpoints.projectTasks, { id: p })).filter((x) => x.id === t);
    expect(remote?.assignedToUserId).toBe(owner);
    expect(
      (await suite.api.call(memberEndpoints.projectUsers, { id: p })).some(
        (m) => m.id === suite.svc.users.bob,
      ),
    ).toBe(false);
  });

  it('a member change waiting behind a refused member add says so, and goes once the add is discarded', async () => {
    const e = await suite.engine();
    const project = await teamProject(e, 'Support desk 2', suite.svc.users.bob);
    await e.drained();
    const p = e.outbox.realIdOf(project.id);
    // The guest is not in the Workspace: the service refuses the add.
    await e.call('members.add', { projectId: p, userId: suite.svc.users.guestUserId, access: 2 });
    await e.drained();
    const [refused] = await e.call('outbox.failed', {});
    expect(refused?.label).toMatch(/^Add member ".+" to project "Support desk 2"$/);
    expect(refused?.errorMessage).toContain('not a member of the Workspace');

    await e.call('members.setAccess', { projectId: p, userId: suite.svc.users.bob, access: 3 });
    queueOf(e.outbox).kick();
    await queueOf(e.outbox).idle();
    const [waiting] = await e.call('outbox.pending', {});
    expect(waiting).toMatchObject({
      kind: 'member.setAccess',
      state: 'pending',
      attempts: 0,
      heldBy: { id: refused!.id, label: refused!.label, state: 'failed' },
    });
    expect(
      (await suite.api.call(memberEndpoints.projectUsers, { id: p })).find(
        (m) => m.id === suite.svc.users.bob,
      )?.access,
    ).not.toBe('Full');

    await e.call('outbox.discard', { id: refused!.id });
    await e.drained();
    expect(await e.call('outbox.pending', {})).toEqual([]);
    const sent = e.outbox.entries('done').filter((x) => x.kind === 'member.setAccess');
    expect(sent.map((x) => x.attempts)).toEqual([1]);
    const members = await suite.api.call(memberEndpoints.projectUsers, { id: p });
    expect(members.find((m) => m.id === suite.svc.users.bob)?.access).toBe('Full');
    expect(members.some((m) => m.id === suite.svc.users.guestUserId)).toBe(false);
  });

  it('removing the owner is refused at once and changes nothing', async () => {
    const e = await suite.engine();
    const project = await e.call('projects.create', {
      name: 'Owned',
      projectTemplateId: SEED_IDS.templates.project,
    });
    await expect(
      e.call('members.remove', { projectId: project.id, userId: suite.svc.users.actingUserId }),
    ).rejects.toMatchObject({
      type: 'invalid-argument',
      field: 'userId',
    });
    expect(e.outbox.status().pending).toBe(1);
  });

  it('a project or task whose end is before its start is refused at once, naming the end date', async () => {
    const e = await suite.engine();
    // Through the dispatch, as the renderer's calls come.
    const dispatch = createDispatch(e.handlers);
    const backwards = { startDate: '2026-11-23', endDate: '2026-11-20' };
    expect(
      await dispatch('projects.create', {
        name: 'Backwards',
        projectTemplateId: SEED_IDS.templates.project,
        ...backwards,
      }),
    ).toMatchObject({ ok: false, error: { type: 'invalid-argument', field: 'endDate' } });
    expect(e.outbox.status().pending).toBe(0);
    const project = await e.call('projects.create', {
      name: 'Forwards',
      projectTemplateId: SEED_IDS.templates.project,
    });
    expect(await dispatch('projects.update', { projectId: project.id, changes: backwards })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'changes.endDate' },
    });
    const task = await e.call('tasks.create', { projectId: project.id, title: 'Dated' });
    expect(await dispatch('tasks.update', { taskId: task.id, changes: backwards })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'changes.endDate' },
    });
    // Only the two creates were queued: nothing of the refused calls.
    expect(e.outbox.status().pending).toBe(2);
  });

  it('a change that sets one date is checked against the other before it is queued', async () => {
    const e = await suite.engine();
    const dispatch = createDispatch(e.handlers);
    const project = await e.call('projects.create', {
      name: 'Dated project',
      projectTemplateId: SEED_IDS.templates.project,
      startDate: '2026-12-01',
      endDate: '2026-12-31',
    });
    const task = await e.call('tasks.create', {
      projectId: project.id,
      title: 'Dated task',
      startDate: '2026-12-02',
      endDate: '2026-12-05',
    });
    await e.drained();
    const [p, t] = [e.outbox.realIdOf(project.id), e.outbox.realIdOf(task.id)];
    // Before: queued, and refused by the service later.
    expect(
      await dispatch('projects.update', { projectId: p, changes: { endDate: '2026-11-30' } }),
    ).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'changes.endDate' },
    });
    expect(await dispatch('tasks.update', { taskId: t, changes: { startDate: '2026-12-06' } })).toMatchObject(
      {
        ok: false,
        error: {
          type: 'invalid-argument',
          field: 'changes.startDate',
          message: 'startDate: must not be after endDate (2026-12-05)',
        },
      },
    );
    // A pending local start counts, as the view shows it.
    await e.outbox.stop();
    await e.call('tasks.update', { taskId: t, changes: { startDate: '2026-12-04' } });
    expect(await dispatch('tasks.update', { taskId: t, changes: { endDate: '2026-12-03' } })).toMatchObject({
      ok: false,
      error: { field: 'changes.endDate', message: 'endDate: must not be before startDate (2026-12-04)' },
    });
    expect(e.outbox.status().pending).toBe(1);
    e.outbox.start();
    await e.drained();
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, failed: 0 });
    expect(await suite.api.call(projectEndpoints.project, { id: p })).toMatchObject({
      startDate: '2026-12-01',
      endDate: '2026-12-31',
    });
    expect(await suite.api.call(taskEndpoints.task, { id: t })).toMatchObject({
      startDate: '2026-12-04',
      endDate: '2026-12-05',
    });
  });
});
