// Undo against the real service (both profiles: the `integration-goodday` project runs this file
// again): a change still waiting is withdrawn and nothing reaches the service; one already sent
// is reverted by an ordinary update whose base is the value we sent, so a colleague's change made
// since is journalled, never silently overwritten; a task delete waits a few seconds, and a
// discard within that window keeps the task on the service.
import { describe, expect, it, vi } from 'vitest';
import type { ChannelInput } from '../../../src/shared/ipc/contract';
import { SEED_IDS } from '../../../src/server/seed/index';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { startFaultProxy } from '../../support/fault-proxy';
import { FAST_OUTBOX, testEngine, writesSuite, type TestEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { crmEndpoints } from '../../../src/shared/api/crm';
import { eventEndpoints } from '../../../src/shared/api/events';
import { memberEndpoints } from '../../../src/shared/api/members';

const suite = writesSuite();

/** Requests the proxy passed to the service that write the task (not reads). */
function writesOf(taskId: string): string[] {
  return suite.proxy.requests().filter((r) => !r.startsWith('GET ') && r.includes(taskId));
}

async function seededTask(e: TestEngine, title: string): Promise<string> {
  const { id } = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
  await e.drained();
  return e.outbox.realIdOf(id);
}

describe('undo through the outbox', () => {
  it('withdraws a status change still waiting: the service never sees it', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Withdrawn status');
    const was = e.cache.tasks.getFlat(taskId)!.statusId;
    // Waiting: the queue is not sending (as offline, or before the next tick).
    await e.outbox.stop();
    const done = await e.call('tasks.setStatus', { taskId, statusId: SEED_IDS.statuses.done });
    expect(done.replaced).toEqual({ statusId: was });
    expect(e.cache.tasks.getFlat(taskId)?.statusId).toBe(SEED_IDS.statuses.done);
    const undo = await e.call('tasks.setStatus', { taskId, statusId: was });
    expect(undo).toMatchObject({ entryId: null, withdrawn: true });
    expect(e.outbox.entries()).toEqual([]);
    expect(e.cache.tasks.getFlat(taskId)?.statusId).toBe(was);
    e.outbox.start();
    await e.drained();
    expect(writesOf(taskId).filter((r) => r.includes('/status'))).toEqual([]);
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).status.id).toBe(was);
  });

  it('withdraws a status change with a message undone while waiting: neither status nor message is sent', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Status with a word');
    const was = e.cache.tasks.getFlat(taskId)!.statusId;
    await e.outbox.stop();
    const done = await e.call('tasks.setStatus', {
      taskId,
      statusId: SEED_IDS.statuses.done,
      message: 'Closing: shipped',
    });
    expect(done.replaced).toEqual({ statusId: was });
    expect(e.cache.messages.listForTask(taskId).map((m) => m.message)).toContain('Closing: shipped');
    // ...an undo does, the message with it.
    const undo = await e.call('tasks.setStatus', { taskId, statusId: was, undo: true });
    expect(undo).toMatchObject({ entryId: null, withdrawn: true });
    expect(e.outbox.entries()).toEqual([]);
    expect(e.cache.tasks.getFlat(taskId)?.statusId).toBe(was);
    expect(e.cache.messages.listForTask(taskId).map((m) => m.message)).not.toContain('Closing: shipped');
    e.outbox.start();
    await e.drained();
    expect(writesOf(taskId).filter((r) => r.includes('/status') || r.includes('/comment'))).toEqual([]);
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).status.id).toBe(was);
    expect(
      (await suite.api.call(messageEndpoints.taskMessages, { id: taskId })).map((m) => m.message),
    ).not.toContain('Closing: shipped');
  });

  it('a status change made on purpose after one with a message withdraws nothing: both are sent', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Said and changed');
    const was = e.cache.tasks.getFlat(taskId)!.statusId;
    await e.outbox.stop();
    await e.call('tasks.setStatus', { taskId, statusId: SEED_IDS.statuses.done, message: 'Closing it' });
    const later = await e.call('tasks.setStatus', { taskId, statusId: was });
    expect(later.withdrawn).toBeUndefined();
    expect(e.outbox.entries()).toHaveLength(2);
    e.outbox.start();
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).status.id).toBe(was);
    expect(
      (await suite.api.call(messageEndpoints.taskMessages, { id: taskId })).map((m) => m.message),
    ).toContain('Closing it');
  });

  it('reverts a status change with a message already sent: the status goes back, the message stays', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Sent with a word');
    const was = e.cache.tasks.getFlat(taskId)!.statusId;
    await e.call('tasks.setStatus', { taskId, statusId: SEED_IDS.statuses.done, message: 'Done, see notes' });
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).status.id).toBe(SEED_IDS.statuses.done);
    const undo = await e.call('tasks.setStatus', { taskId, statusId: was, undo: true });
    expect(undo.withdrawn).toBeUndefined();
    expect(undo.entryId).toBeTypeOf('number');
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).status.id).toBe(was);
    // The service cannot remove a message: it stays, once.
    const messages = (await suite.api.call(messageEndpoints.taskMessages, { id: taskId })).map(
      (m) => m.message,
    );
    expect(messages.filter((m) => m === 'Done, see notes')).toHaveLength(1);
  });

  it('a status change tried while no connection can be made stays plainly waiting: the undo withdraws it', async () => {
    // The engine reaches the service through a proxy of its own, closed once the task is made:
    // its port then refuses every connection, as on a machine with no network.
    const own = await startFaultProxy({ target: suite.svc.baseUrl });
    const e = await testEngine(own.baseUrl, suite.svc.token, suite.svc.users.actingUserId);
    try {
      await e.sync.now();
      const taskId = await seededTask(e, 'Tried with no network');
      const was = e.cache.tasks.getFlat(taskId)!.statusId;
      await own.close();
      // A connection kept open from before is cut by the close: a request on it may have reached
      // the service (outcome unknown). A pull that finds the service gone uses it up first.
      await e.sync.now();
      expect(e.sync.status().online).toBe(false);
      await e.call('tasks.setStatus', { taskId, statusId: SEED_IDS.statuses.done, message: 'Shipped' });
      const outbox = queueOf(e.outbox);
      // Tried and refused at the connection: nothing reached the service, so the change is not
      // "outcome unknown" (which no undo could withdraw) but plainly waiting.
      await vi.waitFor(
        () => {
          outbox.kick();
          expect(e.outbox.entries().some((entry) => entry.attempts > 0)).toBe(true);
        },
        { timeout: 10_000, interval: 50 },
      );
      await outbox.stop();
      for (const entry of e.outbox.entries()) {
        expect(entry).toMatchObject({ state: 'pending', errorMessage: 'The service could not be reached' });
      }
      const undo = await e.call('tasks.setStatus', { taskId, statusId: was, undo: true });
      expect(undo).toMatchObject({ entryId: null, withdrawn: true });
      expect(e.outbox.entries()).toEqual([]);
      expect(e.cache.messages.listForTask(taskId).map((m) => m.message)).not.toContain('Shipped');
      expect((await suite.api.call(taskEndpoints.task, { id: taskId })).status.id).toBe(was);
      expect(
        (await suite.api.call(messageEndpoints.taskMessages, { id: taskId })).map((m) => m.message),
      ).not.toContain('Shipped');
    } finally {
      await e.close();
      await own.close().catch(() => {});
    }
  });

  it('withdraws a field edit undone while waiting, with the replaced value the write answered', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Field before');
    const { priority } = e.cache.tasks.getFlat(taskId)!;
    await e.outbox.stop();
    const edit = await e.call('tasks.update', { taskId, changes: { title: 'Field after', priority: 50 } });
    expect(edit.replaced).toEqual({ title: 'Field before', priority });
    const undo = await e.call('tasks.update', { taskId, changes: edit.replaced! });
    expect(undo.withdrawn).toBe(true);
    e.outbox.start();
    await e.drained();
    expect(writesOf(taskId).filter((r) => r.startsWith('PUT '))).toEqual([]);
    expect(await suite.api.call(taskEndpoints.task, { id: taskId })).toMatchObject({
      name: 'Field before',
      priority,
    });
  });

  it('withdraws a tag added then taken back by an undo; without the undo mark both are sent', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Tagged');
    const tagId = SEED_IDS.tags.urgent;
    await e.outbox.stop();
    await e.call('tasks.addTag', { taskId, tagId });
    expect(await e.call('tasks.removeTag', { taskId, tagId, undo: true })).toMatchObject({ withdrawn: true });
    expect(e.outbox.entries()).toEqual([]);
    // A person adding and removing a tag on purpose: both go, as before.
    await e.call('tasks.addTag', { taskId, tagId });
    await e.call('tasks.removeTag', { taskId, tagId });
    expect(e.outbox.entries()).toHaveLength(2);
    e.outbox.start();
    await e.drained();
    expect(writesOf(taskId).filter((r) => r.includes('/tag/'))).toHaveLength(2);
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).tags ?? []).toEqual([]);
  });

  it('withdraws a custom field set and undone while waiting; reverts one already sent', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Custom undo');
    const field = SEED_IDS.customFields.text;
    await e.outbox.stop();
    const set = await e.call('tasks.setCustomFields', { taskId, values: [{ id: field, value: 'REF-9' }] });
    expect(set.replaced).toEqual({ [field]: null });
    const back = Object.entries(set.replaced!).map(([id, value]) => ({ id, value }));
    expect(await e.call('tasks.setCustomFields', { taskId, values: back })).toMatchObject({
      withdrawn: true,
    });
    expect(e.outbox.entries()).toEqual([]);
    e.outbox.start();
    await e.call('tasks.setCustomFields', { taskId, values: [{ id: field, value: 'REF-10' }] });
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).customFieldsData?.[field]).toBe(
      'REF-10',
    );
    await e.call('tasks.setCustomFields', { taskId, values: back });
    await e.drained();
    expect(
      (await suite.api.call(taskEndpoints.task, { id: taskId })).customFieldsData?.[field] ?? null,
    ).toBeNull();
  });

  it('reverts a change already sent: the service has the old value again', async () => {
    const e = await suite.engine();
    const taskId = await seededTask(e, 'Revert me');
    const edit = await e.call('tasks.update', { taskId, changes: { title: 'Reverted soon' } });
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).name).toBe('Reverted soon');
    const undo = await e.call('tasks.update', { taskId, changes: edit.replaced! });
    expect(undo.withdrawn).toBeUndefined();
    expect(undo.entryId).toBeTypeOf('number');
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).name).toBe('Revert me');
    expect(e.outbox.status().conflicts).toBe(0);
  });

  it('a revert that meets a newer change by a colleague is journalled with their value', async () => {
    // freshMs 0: the revert reads the task before it is sent, whenever it was last read.
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, freshMs: 0 } });
    const taskId = await seededTask(e, 'Shared plan');
    const edit = await e.call('tasks.update', { taskId, changes: { title: 'My plan' } });
    await e.drained();
    await suite.api.call(taskEndpoints.updateTask, {
      id: taskId,
      body: { userId: suite.svc.users.bob, title: 'Their plan' },
    });
    await e.call('tasks.update', { taskId, changes: edit.replaced! });
    await e.drained();
    const conflicts = await e.call('conflicts.list', {});
    expect(conflicts).toMatchObject([
      {
        entity: 'task',
        entityId: taskId,
        field: 'name',
        localValue: 'Shared plan',
        remoteValue: 'Their plan',
      },
    ]);
    // Their value is kept in the journal: taking it puts it back on the service.
    await e.call('conflicts.resolve', { id: conflicts[0]!.id, choice: 'theirs' });
    await e.drained();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).name).toBe('Their plan');
  });

  it('a revert under the "ask" policy is held and the colleague keeps the service', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, freshMs: 0, conflictPolicy: () => 'ask' } });
    const taskId = await seededTask(e, 'Asked plan');
    const edit = await e.call('tasks.update', { taskId, changes: { title: 'My asked plan' } });
    await e.drained();
    await suite.api.call(taskEndpoints.updateTask, {
      id: taskId,
      body: { userId: suite.svc.users.bob, title: 'Their asked plan' },
    });
    await e.call('tasks.update', { taskId, changes: edit.replaced! });
    await expect.poll(() => e.outbox.status().conflicts, { timeout: 10_000 }).toBe(1);
    await queueOf(e.outbox).idle();
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).name).toBe('Their asked plan');
  });

  it('a task delete waits its undo window; discarded within it, the service still has the task', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, undoHoldMs: 1_500 } });
    const taskId = await seededTask(e, 'Nearly deleted');
    const { entryId } = await e.call('tasks.delete', { taskId });
    expect(e.cache.tasks.get(taskId)).toBeNull();
    expect(e.outbox.entries()).toMatchObject([
      { id: entryId, kind: 'task.delete', errorType: 'undo-window' },
    ]);
    // A reconnect within the window does not cut it short.
    e.outbox.reconnected();
    await queueOf(e.outbox).idle();
    expect(writesOf(taskId).filter((r) => r.startsWith('DELETE '))).toEqual([]);
    await e.call('outbox.discard', { id: entryId! });
    expect(e.cache.tasks.get(taskId)?.name).toBe('Nearly deleted');
    await new Promise((r) => setTimeout(r, 2_000));
    await e.drained();
    expect(writesOf(taskId).filter((r) => r.startsWith('DELETE '))).toEqual([]);
    expect((await suite.api.call(taskEndpoints.task, { id: taskId })).name).toBe('Nearly deleted');
  });

  it('a task delete left alone is sent once its window has passed', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, undoHoldMs: 1_000 } });
    const taskId = await seededTask(e, 'Really deleted');
    await e.call('tasks.delete', { taskId });
    await e.drained(10_000);
    await expect(suite.api.call(taskEndpoints.task, { id: taskId })).rejects.toMatchObject({ status: 404 });
  });

  it('withdraws a create undone while waiting, with what was queued on it', async () => {
    const e = await suite.engine();
    const mark = suite.proxy.requests().length;
    await e.outbox.stop();
    const created = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Never made' });
    await e.call('tasks.comment', { taskId: created.id, message: 'on the new task' });
    await e.call('outbox.discard', { id: created.entryId! });
    expect(e.outbox.entries()).toEqual([]);
    expect(e.cache.tasks.get(created.id)).toBeNull();
    e.outbox.start();
    await e.drained();
    expect(
      suite.proxy
        .requests()
        .slice(mark)
        .filter((r) => !r.startsWith('GET ')),
    ).toEqual([]);
  });
});

const OFFSITE = {
  eventType: 'company-event',
  name: 'Team offsite',
  startDate: '2026-12-07',
  endDate: '2026-12-09',
} as const;

describe('undo of project, event and CRM edits through the outbox', () => {
  async function seededProject(e: TestEngine, name: string): Promise<string> {
    const { id } = await e.call('projects.create', { name, projectTemplateId: SEED_IDS.templates.project });
    await e.drained();
    return e.outbox.realIdOf(id);
  }
  async function seededContact(e: TestEngine, firstName: string): Promise<string> {
    const { id } = await e.call('crm.createContact', { firstName, lastName: 'Undo' });
    await e.drained();
    return e.outbox.realIdOf(id);
  }

  it('withdraws a project edit undone while waiting: the service never sees it', async () => {
    const e = await suite.engine();
    const projectId = await seededProject(e, 'Project before');
    await e.outbox.stop();
    const edit = await e.call('projects.update', {
      projectId,
      changes: { name: 'Project after', priority: 9 },
    });
    expect(edit.replaced).toMatchObject({ name: 'Project before' });
    const undo = await e.call('projects.update', { projectId, changes: edit.replaced! });
    expect(undo).toMatchObject({ entryId: null, withdrawn: true });
    expect(e.outbox.entries()).toEqual([]);
    e.outbox.start();
    await e.drained();
    expect(writesOf(projectId).filter((r) => r.startsWith('PUT '))).toEqual([]);
    expect((await suite.api.call(projectEndpoints.project, { id: projectId })).name).toBe('Project before');
  });

  it('reverts a project edit already sent; a colleague’s newer name is journalled, not overwritten', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, freshMs: 0 } });
    const projectId = await seededProject(e, 'Plan of record');
    const edit = await e.call('projects.update', { projectId, changes: { name: 'My plan of record' } });
    await e.drained();
    expect((await suite.api.call(projectEndpoints.project, { id: projectId })).name).toBe(
      'My plan of record',
    );
    // Reverted with nobody in between: the service has the old name again.
    const undo = await e.call('projects.update', { projectId, changes: edit.replaced! });
    expect(undo.withdrawn).toBeUndefined();
    await e.drained();
    expect((await suite.api.call(projectEndpoints.project, { id: projectId })).name).toBe('Plan of record');
    // Edited again, then a colleague renames it before the undo is sent.
    const again = await e.call('projects.update', { projectId, changes: { name: 'Second plan' } });
    await e.drained();
    await suite.api.call(projectEndpoints.updateProject, {
      id: projectId,
      body: { userId: suite.svc.users.bob, name: 'Their plan of record' },
    });
    await e.call('projects.update', { projectId, changes: again.replaced! });
    await e.drained();
    expect(await e.call('conflicts.list', {})).toMatchObject([
      { entity: 'project', entityId: projectId, field: 'name', remoteValue: 'Their plan of record' },
    ]);
  });

  it('withdraws a contact edit undone while waiting; reverts one already sent, a colleague’s change journalled', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, freshMs: 0 } });
    const contactId = await seededContact(e, 'Undone');
    await e.outbox.stop();
    const edit = await e.call('crm.updateContact', { contactId, changes: { phone: '+1 555 0100' } });
    expect(edit.replaced).toEqual({ phone: '' });
    expect(await e.call('crm.updateContact', { contactId, changes: edit.replaced! })).toMatchObject({
      withdrawn: true,
    });
    expect(e.outbox.entries()).toEqual([]);
    e.outbox.start();
    await e.drained();
    expect(writesOf(contactId).filter((r) => r.startsWith('PUT '))).toEqual([]);

    const sent = await e.call('crm.updateContact', { contactId, changes: { email: 'mine@example.test' } });
    await e.drained();
    expect((await suite.api.call(crmEndpoints.crmContact, { id: contactId })).contact.email).toBe(
      'mine@example.test',
    );
    await suite.api.call(crmEndpoints.updateCrmContact, {
      id: contactId,
      body: {
        updatedByUserId: suite.svc.users.bob,
        email: 'theirs@example.test',
      },
    });
    await e.call('crm.updateContact', { contactId, changes: sent.replaced! });
    await e.drained();
    expect(await e.call('conflicts.list', {})).toMatchObject([
      { entity: 'crmContact', entityId: contactId, field: 'email', remoteValue: 'theirs@example.test' },
    ]);
  });

  it('reverts an account edit already sent: the service has the old name again', async () => {
    const e = await suite.engine();
    const { id } = await e.call('crm.createAccount', { name: 'Account before' });
    await e.drained();
    const accountId = e.outbox.realIdOf(id);
    const edit = await e.call('crm.updateAccount', { accountId, changes: { name: 'Account after' } });
    expect(edit.replaced).toEqual({ name: 'Account before' });
    await e.drained();
    await e.call('crm.updateAccount', { accountId, changes: edit.replaced! });
    await e.drained();
    expect((await suite.api.call(crmEndpoints.crmAccount, { id: accountId })).account.name).toBe(
      'Account before',
    );
  });

  it('an event edit undone while waiting: the create discarded takes its delete along, nothing is sent', async () => {
    const e = await suite.engine();
    const { id } = await e.call('events.create', { ...OFFSITE, name: 'Offsite as planned' });
    await e.drained();
    const old = e.outbox.realIdOf(id);
    await e.outbox.stop();
    const edit = await e.call('events.edit', { eventId: old, input: { ...OFFSITE, name: 'Offsite moved' } });
    // What it replaced is the old event as a create's input: the undo once sent.
    expect(edit.replaced).toEqual({ ...OFFSITE, name: 'Offsite as planned' });
    await e.call('outbox.discard', { id: edit.entryId! });
    expect(e.outbox.entries()).toEqual([]);
    expect(e.cache.events.storedRow(old)).toMatchObject({ name: 'Offsite as planned' });
    e.outbox.start();
    await e.drained();
    expect(writesOf(old)).toEqual([]);
    expect((await suite.api.call(eventEndpoints.event, { id: old })).name).toBe('Offsite as planned');
  });

  it('an event edit undone once sent: the old event made again, the new one deleted', async () => {
    const e = await suite.engine();
    const { id } = await e.call('events.create', { ...OFFSITE, name: 'Offsite first' });
    await e.drained();
    const edit = await e.call('events.edit', {
      eventId: e.outbox.realIdOf(id),
      input: { ...OFFSITE, name: 'Offsite second', startDate: '2026-12-14', endDate: '2026-12-15' },
    });
    await e.drained();
    const edited = e.outbox.realIdOf(edit.id);
    const back = await e.call('events.edit', {
      eventId: edit.id,
      input: edit.replaced as ChannelInput<'events.edit'>['input'],
    });
    await e.drained();
    await expect(suite.api.call(eventEndpoints.event, { id: edited })).rejects.toMatchObject({ status: 404 });
    const again = await suite.api.call(eventEndpoints.event, { id: e.outbox.realIdOf(back.id) });
    expect(again).toMatchObject({ name: 'Offsite first', startDate: '2026-12-07' });
  });

  it('an event delete waits its undo window; discarded within it, the service keeps the event', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, undoHoldMs: 1_500 } });
    const { id } = await e.call('events.create', { ...OFFSITE, name: 'Offsite kept' });
    await e.drained();
    const eventId = e.outbox.realIdOf(id);
    const deleted = await e.call('events.delete', { eventId });
    // What it replaced is the event as a create's input: the undo once the delete was sent.
    expect(deleted.replaced).toEqual({ ...OFFSITE, name: 'Offsite kept' });
    expect(e.cache.events.storedRow(eventId)).toBeUndefined();
    expect(e.outbox.entries()).toMatchObject([{ kind: 'event.delete', errorType: 'undo-window' }]);
    await queueOf(e.outbox).idle();
    await e.call('outbox.discard', { id: deleted.entryId! });
    expect(e.cache.events.storedRow(eventId)).toMatchObject({ name: 'Offsite kept' });
    await new Promise((r) => setTimeout(r, 2_000));
    await e.drained();
    expect(writesOf(eventId)).toEqual([]);
    expect((await suite.api.call(eventEndpoints.event, { id: eventId })).name).toBe('Offsite kept');
  });

  it('an event delete undone once sent: the event is made again from what the delete replaced', async () => {
    const e = await suite.engine();
    const { id } = await e.call('events.create', { ...OFFSITE, name: 'Offsite gone' });
    await e.drained();
    const eventId = e.outbox.realIdOf(id);
    const deleted = await e.call('events.delete', { eventId });
    await e.drained();
    await expect(suite.api.call(eventEndpoints.event, { id: eventId })).rejects.toMatchObject({
      status: 404,
    });
    const made = await e.call('events.create', deleted.replaced as ChannelInput<'events.create'>);
    await e.drained();
    expect(await suite.api.call(eventEndpoints.event, { id: e.outbox.realIdOf(made.id) })).toMatchObject({
      name: 'Offsite gone',
      startDate: '2026-12-07',
      endDate: '2026-12-09',
    });
  });

  it('creates of an event, a contact, an account and a project undone while waiting: nothing is sent', async () => {
    const e = await suite.engine();
    const mark = suite.proxy.requests().length;
    await e.outbox.stop();
    const made = [
      await e.call('events.create', { ...OFFSITE, name: 'Never held' }),
      await e.call('crm.createContact', { firstName: 'Never', lastName: 'Met' }),
      await e.call('crm.createAccount', { name: 'Never signed' }),
      await e.call('projects.create', {
        name: 'Never started',
        projectTemplateId: SEED_IDS.templates.project,
      }),
    ];
    for (const { entryId } of made) await e.call('outbox.discard', { id: entryId! });
    expect(e.outbox.entries()).toEqual([]);
    expect(e.cache.events.storedRow(made[0]!.id)).toBeUndefined();
    expect(e.cache.crm.contact(made[1]!.id)).toBeNull();
    expect(e.cache.crm.account(made[2]!.id)).toBeNull();
    expect(e.cache.projects.get(made[3]!.id)).toBeNull();
    e.outbox.start();
    await e.drained();
    const writes = suite.proxy
      .requests()
      .slice(mark)
      .filter((r) => !r.startsWith('GET '));
    expect(writes).toEqual([]);
  });

  it('a contact created and sent is undone by its delete; a contact delete is held and withdrawn', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, undoHoldMs: 1_500 } });
    const contactId = await seededContact(e, 'Created');
    // The create's undo once sent: the delete of what it made (held a moment, then sent).
    await e.call('crm.deleteContact', { contactId });
    await e.drained(10_000);
    // Deleted: marked so, or not found (as each profile answers it).
    const after = await suite.api.call(crmEndpoints.crmContact, { id: contactId }).then(
      ({ contact }) => contact.isDeleted,
      (error: { status?: number }) => error.status === 404,
    );
    expect(after).toBe(true);

    const keptId = await seededContact(e, 'Kept');
    const deleted = await e.call('crm.deleteContact', { contactId: keptId });
    expect(e.outbox.entries()).toMatchObject([{ kind: 'crmContact.delete', errorType: 'undo-window' }]);
    await e.call('outbox.discard', { id: deleted.entryId! });
    expect(e.cache.crm.contact(keptId)?.isDeleted).toBe(false);
    await new Promise((r) => setTimeout(r, 2_000));
    await e.drained();
    expect(writesOf(keptId).filter((r) => r.startsWith('DELETE '))).toEqual([]);
    expect((await suite.api.call(crmEndpoints.crmContact, { id: keptId })).contact.isDeleted).toBe(false);
  });

  it('an account delete is held and withdrawn: its tasks keep their link', async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, undoHoldMs: 1_500 } });
    const { id } = await e.call('crm.createAccount', { name: 'Account kept' });
    await e.drained();
    const accountId = e.outbox.realIdOf(id);
    const taskId = await seededTask(e, 'Linked to the account');
    await e.call('tasks.update', { taskId, changes: { crmAccountId: accountId } });
    await e.drained();
    const deleted = await e.call('crm.deleteAccount', { accountId });
    expect(e.cache.tasks.idsLinkedToAccount(accountId)).toEqual([]);
    await e.call('outbox.discard', { id: deleted.entryId! });
    expect(e.cache.tasks.idsLinkedToAccount(accountId)).toEqual([taskId]);
    await new Promise((r) => setTimeout(r, 2_000));
    await e.drained();
    expect(writesOf(accountId).filter((r) => r.startsWith('DELETE '))).toEqual([]);
    expect((await suite.api.call(crmEndpoints.crmAccount, { id: accountId })).account.isDeleted).toBe(false);
  });

  it("a project's custom field: withdrawn while waiting, reverted once sent, a colleague's newer value journalled", async () => {
    const e = await suite.engine({ outbox: { ...FAST_OUTBOX, freshMs: 0 } });
    const projectId = await seededProject(e, 'Fields undone');
    const field = SEED_IDS.customFields.text;
    await e.outbox.stop();
    const set = await e.call('projects.setCustomFields', {
      projectId,
      values: [{ id: field, value: 'P-1' }],
    });
    expect(set.replaced).toEqual({ [field]: null });
    const back = Object.entries(set.replaced!).map(([id, value]) => ({ id, value }));
    expect(await e.call('projects.setCustomFields', { projectId, values: back })).toMatchObject({
      withdrawn: true,
    });
    expect(e.outbox.entries()).toEqual([]);
    e.outbox.start();
    await e.drained();
    expect(writesOf(projectId).filter((r) => !r.startsWith('GET '))).toEqual([]);

    // Sent, then reverted with nobody in between.
    const sent = await e.call('projects.setCustomFields', {
      projectId,
      values: [{ id: field, value: 'P-2' }],
    });
    await e.drained();
    const sentBack = Object.entries(sent.replaced!).map(([id, value]) => ({ id, value }));
    await e.call('projects.setCustomFields', { projectId, values: sentBack });
    await e.drained();
    expect(e.outbox.status().conflicts).toBe(0);

    // Set again; a colleague sets it before the undo is sent: their value is journalled.
    const again = await e.call('projects.setCustomFields', {
      projectId,
      values: [{ id: field, value: 'P-3' }],
    });
    await e.drained();
    await suite.api.call(projectEndpoints.setProjectCustomFields, {
      id: projectId,
      body: {
        userId: suite.svc.users.bob,
        customFields: [{ id: field, value: 'THEIRS' }],
      },
    });
    const againBack = Object.entries(again.replaced!).map(([id, value]) => ({ id, value }));
    await e.call('projects.setCustomFields', { projectId, values: againBack });
    await e.drained();
    expect(await e.call('conflicts.list', {})).toMatchObject([{ entity: 'project', entityId: projectId }]);
  });

  it('a member added and removed: each answers the access it replaced; undone while waiting nothing is sent', async () => {
    const e = await suite.engine();
    const projectId = await seededProject(e, 'Members undone');
    const userId = suite.svc.users.bob;
    await e.outbox.stop();
    const added = await e.call('members.add', { projectId, userId, access: 2 });
    expect(added.replaced).toEqual({ access: null });
    await e.call('outbox.discard', { id: added.entryId! });
    expect(e.outbox.entries()).toEqual([]);
    e.outbox.start();
    await e.drained();
    expect(writesOf(projectId).filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(
      (await suite.api.call(memberEndpoints.projectUsers, { id: projectId })).map((m) => m.id),
    ).not.toContain(userId);

    // Sent, then removed: the removal answers the access to add back, and the undo adds it.
    await e.call('members.add', { projectId, userId, access: 3 });
    await e.drained();
    const access = await e.call('members.setAccess', { projectId, userId, access: 1 });
    expect(access.replaced).toEqual({ access: 3 });
    await e.drained();
    const removed = await e.call('members.remove', { projectId, userId });
    expect(removed.replaced).toEqual({ access: 1 });
    await e.drained();
    expect(
      (await suite.api.call(memberEndpoints.projectUsers, { id: projectId })).map((m) => m.id),
    ).not.toContain(userId);
    await e.call('members.add', { projectId, userId, access: removed.replaced!.access as 1 });
    await e.drained();
    expect(
      (await suite.api.call(memberEndpoints.projectUsers, { id: projectId })).map((m) => m.id),
    ).toContain(userId);
  });

  it('a membership undo sent after someone changed it is refused, never sent over theirs', async () => {
    const e = await suite.engine();
    const projectId = await seededProject(e, 'Members changed meanwhile');
    const userId = suite.svc.users.bob;
    const accessOnService = async () =>
      (await suite.api.call(memberEndpoints.projectUsers, { id: projectId })).find((m) => m.id === userId)
        ?.access ?? null;
    await e.call('members.add', { projectId, userId, access: 3 });
    await e.drained();
    const set = await e.call('members.setAccess', { projectId, userId, access: 1 });
    expect(set.replaced).toEqual({ access: 3 });
    await e.drained();

    // A colleague makes Bob Standard; the undo expects Limited (what it set): refused, kept.
    await suite.api.call(memberEndpoints.updateProjectUser, {
      projectId,
      userId,
      body: { userId: suite.svc.users.admin, access: 2 },
    });
    const undo = await e.call('members.setAccess', { projectId, userId, access: 3, expectAccess: 1 });
    await e.drained();
    expect(await accessOnService()).toBe('Standard');
    const [failed] = e.outbox.entries('failed');
    expect(failed).toMatchObject({ id: undo.entryId, kind: 'member.setAccess' });
    expect(failed!.errorMessage).toContain('now Standard');

    // Nobody in between: the undo goes.
    await e.call('outbox.discard', { id: undo.entryId! });
    await e.call('members.setAccess', { projectId, userId, access: 1, expectAccess: 2 });
    await e.drained();
    expect(await accessOnService()).toBe('Limited');

    // Already as the undo wants it (an earlier attempt's answer lost): done, nothing more sent.
    await suite.api.call(memberEndpoints.removeProjectUser, {
      projectId,
      userId,
      body: { userId: suite.svc.users.admin },
    });
    const before = suite.proxy.requests().filter((r) => r.startsWith('DELETE ')).length;
    await e.call('members.remove', { projectId, userId, expectAccess: 1 });
    await e.drained();
    expect(e.outbox.entries('failed')).toEqual([]);
    expect(suite.proxy.requests().filter((r) => r.startsWith('DELETE ')).length).toBe(before);
    expect(await accessOnService()).toBeNull();
  });
});
