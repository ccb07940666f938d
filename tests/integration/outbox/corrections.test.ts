// A create the service refused is corrected and sent again: through the IPC handlers, against
// the real service.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { createDispatch } from '../../../src/main/core/dispatch';
import { writesSuite, type TestEngine } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { taskEndpoints } from '../../../src/shared/api/tasks';

const suite = writesSuite();

describe('correcting a refused create', () => {
  it('a refused project create is corrected under its local id, applied once, and its waiting task follows', async () => {
    const e = await suite.engine();
    const dispatch = createDispatch(e.handlers);
    // Queued through the core's outbox directly, as another caller (or an older version) could:
    // an owner the service does not know.
    const tempId = e.outbox.newTempId();
    e.outbox.write('project.create', {
      type: 'project',
      tempId,
      input: {
        name: 'Refused launch',
        projectTemplateId: SEED_IDS.templates.project,
        parentProjectId: SEED_IDS.workspace,
        projectOwnerUserId: 'u-nobody',
        startDate: '2026-11-23',
        endDate: '2026-11-30',
      },
    });
    const task = await e.call('tasks.create', { projectId: tempId, title: 'Waits for its project' });
    // The task's create waits behind the refused one: the outbox settles with one of each.
    while ((await e.call('outbox.status', {})).failed === 0) {
      queueOf(e.outbox).kick();
      await queueOf(e.outbox).idle();
    }
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 1, failed: 1 });
    const [failed] = await e.call('outbox.failed', {});
    expect(failed).toMatchObject({ kind: 'project.create', state: 'failed' });
    expect(failed!.errorMessage).toMatch(/projectOwnerUserId/);
    expect(failed!.fields).toMatchObject({ name: 'Refused launch', projectOwnerUserId: 'u-nobody' });
    expect(e.cache.projects.get(tempId)).toBeNull();

    // A correction the create schema refuses names the field and changes nothing.
    expect(
      await dispatch('outbox.correct', { id: failed!.id, fields: { endDate: '2026-11-20' } }),
    ).toMatchObject({ ok: false, error: { type: 'invalid-argument', field: 'endDate' } });
    expect(await dispatch('outbox.correct', { id: failed!.id, fields: { tempId: 'local-x' } })).toMatchObject(
      {
        ok: false,
        error: { type: 'invalid-argument', field: 'tempId' },
      },
    );
    expect(await e.call('outbox.failed', {})).toEqual([failed]);
    expect(e.cache.projects.get(tempId)).toBeNull();

    await e.call('outbox.correct', {
      id: failed!.id,
      fields: { projectOwnerUserId: suite.svc.users.actingUserId, name: 'Corrected launch' },
    });
    expect(e.cache.projects.get(tempId)).toMatchObject({ name: 'Corrected launch' });
    await e.drained();
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, failed: 0 });

    const made = (await suite.api.call(projectEndpoints.projects)).filter((p) => p.name.endsWith(' launch'));
    expect(made.map((p) => p.name)).toEqual(['Corrected launch']);
    expect(made[0]).toMatchObject({ startDate: '2026-11-23', endDate: '2026-11-30' });
    const projectId = e.outbox.realIdOf(tempId);
    expect(projectId).toBe(made[0]!.id);
    expect(
      (await suite.api.call(taskEndpoints.projectTasks, { id: projectId })).map((t) => [t.id, t.name]),
    ).toEqual([[e.outbox.realIdOf(task.id), 'Waits for its project']]);
  });

  it('a refused task create is corrected through outbox.correct, as a refused update is', async () => {
    const e = await suite.engine();
    const task = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Handed to nobody',
      toUserId: 'u-nobody',
      deadline: '2026-12-24',
    });
    await e.drained();
    const [failed] = await e.call('outbox.failed', {});
    expect(failed).toMatchObject({ kind: 'task.create', entityKey: `task:${task.id}` });
    await e.call('outbox.correct', { id: failed!.id, fields: { toUserId: suite.svc.users.actingUserId } });
    await e.drained();
    const made = await suite.api.call(taskEndpoints.task, { id: e.outbox.realIdOf(task.id) });
    expect(made).toMatchObject({
      name: 'Handed to nobody',
      assignedToUserId: suite.svc.users.actingUserId,
      deadline: '2026-12-24',
    });
  });

  /**
   * A project created offline (and what `then` queues while replay is stopped), its create stored
   * with its end before its start, as an older version stored it before project creates checked
   * their dates; answers once the create failed as unreadable.
   */
  async function storedBackwards(e: TestEngine, name: string, then: (projectId: string) => Promise<unknown>) {
    await e.outbox.stop();
    const project = await e.call('projects.create', {
      name,
      projectTemplateId: SEED_IDS.templates.project,
      startDate: '2026-11-23',
      endDate: '2026-11-30',
    });
    await then(project.id);
    const entry = e.outbox.entries().find((x) => x.kind === 'project.create')!;
    const input = (entry.payload as { input: Record<string, unknown> }).input;
    queueOf(e.outbox).store.setPayload(
      entry.id,
      { ...(entry.payload as object), input: { ...input, endDate: '2026-11-20' } },
      entry.undo,
      Date.now(),
    );
    e.outbox.start();
    while ((await e.call('outbox.status', {})).failed === 0) {
      queueOf(e.outbox).kick();
      await queueOf(e.outbox).idle();
    }
    return project;
  }

  it('a project stored with its end before its start (before the check) is corrected and made once', async () => {
    const e = await suite.engine();
    const project = await storedBackwards(e, 'Stored backwards', async () => {});
    const [failed] = await e.call('outbox.failed', {});
    expect(failed!.errorMessage).toMatch(/endDate: must not be before startDate/);
    expect(failed!.fields).toMatchObject({ startDate: '2026-11-23', endDate: '2026-11-20' });
    await e.call('outbox.correct', { id: failed!.id, fields: { endDate: '2026-11-24' } });
    await e.drained();
    const made = (await suite.api.call(projectEndpoints.projects)).filter(
      (p) => p.name === 'Stored backwards',
    );
    expect(made).toMatchObject([
      { id: e.outbox.realIdOf(project.id), startDate: '2026-11-23', endDate: '2026-11-24' },
    ]);
  });

  it('discarding an unreadable project create removes it and its waiting task from the view', async () => {
    const e = await suite.engine();
    let taskId = '';
    const project = await storedBackwards(e, 'Unreadable launch', async (projectId) => {
      taskId = (await e.call('tasks.create', { projectId, title: 'Inside the unreadable project' })).id;
    });
    const [failed] = await e.call('outbox.failed', {});
    expect(failed).toMatchObject({ kind: 'project.create', errorType: 'internal' });
    expect(failed!.errorMessage).toMatch(/unreadable: input.endDate: must not be before startDate/);
    // Failed like a refused create (rule 4): its project leaves the view, its task waits.
    expect(e.cache.projects.get(project.id)).toBeNull();
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 1, failed: 1 });

    await e.call('outbox.discard', { id: failed!.id });
    expect(e.cache.projects.get(project.id)).toBeNull();
    expect(e.cache.tasks.getFlat(taskId)).toBeNull();
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, failed: 0 });
    await e.drained();
    expect(
      (await suite.api.call(projectEndpoints.projects)).filter((p) => p.name === 'Unreadable launch'),
    ).toEqual([]);
  });
});
