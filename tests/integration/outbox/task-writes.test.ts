// Every task write through the outbox against the real service: applied to the cache at once,
// sent once, and after draining the service holds exactly what the cache showed.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { writesSuite } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';

const suite = writesSuite();

describe('task writes through the outbox', () => {
  it('creates a task with a subtask and a comment offline-style, all remapped after the acks', async () => {
    const e = await suite.engine();
    await e.outbox.stop();
    const parent = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Prepare launch',
      message: 'First notes',
      toUserId: suite.svc.users.bob,
      startDate: '2026-12-01',
    });
    expect(parent.id).toMatch(/^local-/);
    const sub = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Book venue',
      parentTaskId: parent.id,
    });
    await e.call('tasks.comment', { taskId: parent.id, message: 'Looks good' });
    await e.call('tasks.update', { taskId: sub.id, changes: { priority: 50, deadline: '2026-12-24' } });
    await e.call('tasks.addTag', { taskId: parent.id, tagId: SEED_IDS.tags.urgent });

    // The view shows it all before anything is sent.
    const detail = await e.call('tasks.detail', { taskId: parent.id });
    expect(detail.task).toMatchObject({
      name: 'Prepare launch',
      scheduleDate: '2026-12-01',
      assignedToUserId: suite.svc.users.bob,
    });
    expect(detail.subtasks.map((s) => s.name)).toEqual(['Book venue']);
    expect(detail.messages.map((m) => m.message)).toEqual(['First notes', 'Looks good']);
    expect(detail.tags.map((t) => t.id)).toEqual([SEED_IDS.tags.urgent]);
    expect(e.outbox.status()).toMatchObject({ pending: 5, failed: 0 });

    e.outbox.start();
    await e.drained();
    const realParent = e.outbox.realIdOf(parent.id);
    const realSub = e.outbox.realIdOf(sub.id);
    expect(realParent).not.toMatch(/^local-/);
    const onService = await suite.api.call(taskEndpoints.task, { id: realParent });
    expect(onService).toMatchObject({
      name: 'Prepare launch',
      scheduleDate: '2026-12-01',
      tags: [SEED_IDS.tags.urgent],
    });
    expect(onService.subtasks.map((s) => [s.id, s.name, s.priority, s.deadline])).toEqual([
      [realSub, 'Book venue', 50, '2026-12-24'],
    ]);
    expect(
      (await suite.api.call(messageEndpoints.taskMessages, { id: realParent })).map((m) => m.message),
    ).toEqual(['First notes', 'Looks good']);
    // The cache holds the real ids only.
    expect(e.cache.tasks.get(parent.id)).toBeNull();
    expect(e.cache.tasks.get(realParent)?.shortId).toBe(onService.shortId);
    expect(e.cache.tasks.subtasks(realParent).map((s) => s.id)).toEqual([realSub]);
  });

  it('status with message, reply, custom fields, tag removal and moves follow the service', async () => {
    const e = await suite.engine();
    const { id } = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Status work' });
    await e.drained();
    const taskId = e.outbox.realIdOf(id);
    await e.call('tasks.setStatus', { taskId, statusId: SEED_IDS.statuses.done, message: 'Finished' });
    await e.call('tasks.reply', {
      taskId,
      actionRequiredUserId: suite.svc.users.cleo,
      message: 'Over to you',
    });
    await e.call('tasks.setCustomFields', {
      taskId,
      values: [
        { id: SEED_IDS.customFields.text, value: 'REF-1' },
        { id: SEED_IDS.customFields.checkbox, value: true },
      ],
    });
    const local = e.cache.tasks.get(taskId)!;
    expect(local.status.id).toBe(SEED_IDS.statuses.done);
    expect(local.momentClosed).not.toBeNull();
    expect(local.actionRequiredUserId).toBe(suite.svc.users.cleo);
    await e.drained();
    const remote = await suite.api.call(taskEndpoints.task, { id: taskId });
    expect(remote).toMatchObject({
      status: { id: SEED_IDS.statuses.done },
      actionRequiredUserId: suite.svc.users.cleo,
      customFieldsData: { [SEED_IDS.customFields.text]: 'REF-1', [SEED_IDS.customFields.checkbox]: true },
    });
    expect(remote.momentClosed).not.toBeNull();
    const messages = await suite.api.call(messageEndpoints.taskMessages, { id: taskId });
    expect(messages.map((m) => [m.message, m.toUserId])).toEqual([
      ['Finished', null],
      ['Over to you', suite.svc.users.cleo],
    ]);
  });

  it('deleting a task takes its subtasks, in the view at once and on the service', async () => {
    const e = await suite.engine();
    const parent = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Doomed' });
    const child = await e.call('tasks.create', {
      projectId: SEED_IDS.workspace,
      title: 'Doomed child',
      parentTaskId: parent.id,
    });
    await e.drained();
    const [p, c] = [e.outbox.realIdOf(parent.id), e.outbox.realIdOf(child.id)];
    await e.call('tasks.update', { taskId: c, changes: { title: 'Renamed before delete' } });
    await e.call('tasks.delete', { taskId: p });
    expect(e.cache.tasks.get(p)).toBeNull();
    expect(e.cache.tasks.get(c)).toBeNull();
    await e.drained();
    await expect(suite.api.call(taskEndpoints.task, { id: p })).rejects.toMatchObject({ status: 404 });
    await expect(suite.api.call(taskEndpoints.task, { id: c })).rejects.toMatchObject({ status: 404 });
  });

  it('a rejected write rolls back, keeps the message, and can be edited or discarded', async () => {
    const e = await suite.engine();
    const { id } = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Will be refused' });
    await e.drained();
    const taskId = e.outbox.realIdOf(id);
    await e.call('tasks.setCustomFields', {
      taskId,
      values: [{ id: SEED_IDS.customFields.number, value: 'not a number' }],
    });
    expect(e.cache.tasks.get(taskId)?.customFieldsData).toEqual({
      [SEED_IDS.customFields.number]: 'not a number',
    });
    await e.drained();
    const [failed] = await e.call('outbox.failed', {});
    expect(failed).toMatchObject({ kind: 'task.setCustomFields', state: 'failed' });
    expect(failed!.errorMessage).toMatch(/customFields/);
    expect(e.cache.tasks.get(taskId)?.customFieldsData).toEqual({});
    await e.call('outbox.edit', {
      id: failed!.id,
      payload: { taskId, values: [{ id: SEED_IDS.customFields.number, value: 12 }] },
    });
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).customFieldsData).toEqual({
      [SEED_IDS.customFields.number]: 12,
    });
    expect(await e.call('outbox.status', {})).toMatchObject({ pending: 0, failed: 0 });
  });
});
