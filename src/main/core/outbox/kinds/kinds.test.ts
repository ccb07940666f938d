// One test per operation kind: the optimistic state in the cache, the request sent, and the
// state after the acknowledgement. A recording fake stands in for the service client.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServiceClient } from '../../api/testing';
import { RejectedError } from '../../api/errors';
import type { Cache } from '../../cache/cache';
import { openCacheDb } from '../../cache/db';
import { aContact, anAccount, anEvent, aProject, aTask } from '../../cache/fixtures';
import { flattenTask } from '../../cache/repos/tasks';
import { ACKED_ITEM } from '../../sync/pending';
import { queueOf, stoppedClockOutbox } from '../testing';
import { accountCache, ENTITIES, KIND_FACTORIES } from '../../handlers/index';
import type { AccountOutbox } from '../account-outbox';

const ME = 'u-me';

/** Records every call; answers what a test put in `answers` for an endpoint (or undefined). */
function recordingClient() {
  const calls: [string, ...unknown[]][] = [];
  const answers: Record<string, (...args: unknown[]) => unknown> = {};
  const client = fakeServiceClient(answers, (name, args) => calls.push([name, ...args]));
  return { client, calls, answers };
}

interface Rig {
  cache: Cache;
  outbox: AccountOutbox;
  calls: [string, ...unknown[]][];
  answers: Record<string, (...args: unknown[]) => unknown>;
  /** Sends everything queued and waits for the acknowledgements. */
  ack(): Promise<void>;
}

function rig(): Rig {
  const cache = accountCache(openCacheDb(':memory:'));
  const { client, calls, answers } = recordingClient();
  const outbox = stoppedClockOutbox({
    cache,
    client,
    userId: ME,
    now: Date.UTC(2026, 10, 21, 12),
    kindModules: KIND_FACTORIES,
    entities: ENTITIES,
  });
  cache.transaction(() => {
    cache.projects.upsertMany([aProject({ id: 'p1', ownerUserId: ME }), aProject({ id: 'p2' })]);
    cache.org.statuses.replace([
      { id: 's-new', name: 'New', systemStatus: 1, isClosed: false },
      { id: 's-done', name: 'Done', systemStatus: 4, isClosed: true },
    ]);
    cache.org.taskTypes.replace([{ id: 'tt1', name: 'Task' }]);
    cache.org.users.replace([
      { id: ME, name: 'Me', primaryEmail: 'me@x.test' },
      { id: 'u-bob', name: 'Bob', primaryEmail: 'bob@x.test' },
    ]);
    cache.tasks.upsertMany([
      flattenTask(aTask({ id: 't1', projectId: 'p1', status: { id: 's-new', name: 'New' } })),
      flattenTask(aTask({ id: 't2', projectId: 'p1', parentTaskId: 't1' })),
    ]);
  });
  return {
    cache,
    outbox,
    calls,
    answers,
    async ack() {
      outbox.start();
      await queueOf(outbox).idle();
      await outbox.stop();
    },
  };
}

let r: Rig;
beforeEach(() => {
  r = rig();
});

describe('task kinds', () => {
  it('task.create: shown at once under a local id, sent with the acting user, remapped on ack', async () => {
    r.outbox.write('task.create', {
      tempId: 'local-a',
      draftId: 'draft-a',
      input: {
        projectId: 'p1',
        title: 'New one',
        message: 'hello',
        toUserId: 'u-bob',
        startDate: '2026-12-01',
      },
    });
    expect(r.cache.tasks.get('local-a')).toMatchObject({
      name: 'New one',
      status: { id: 's-new' },
      assignedToUserId: 'u-bob',
      scheduleDate: '2026-12-01',
      startDate: null,
      createdByUserId: ME,
    });
    expect(r.cache.messages.listForTask('local-a').map((m) => m.message)).toEqual(['hello']);
    r.answers.createTask = () => ({ id: 'T9', shortId: '9', momentCreated: '2026-11-21 12:00:00.000000' });
    await r.ack();
    expect(r.calls).toEqual([
      [
        'createTask',
        {
          projectId: 'p1',
          title: 'New one',
          message: 'hello',
          toUserId: 'u-bob',
          startDate: '2026-12-01',
          fromUserId: ME,
        },
      ],
    ]);
    expect(r.cache.tasks.get('local-a')).toBeNull();
    expect(r.cache.tasks.get('T9')).toMatchObject({ shortId: '9', name: 'New one' });
    expect(r.cache.messages.listForTask('T9')).toHaveLength(1);
  });

  it('task.update: only changed fields, a move takes the subtasks along, settled on ack', async () => {
    r.outbox.write('task.update', {
      taskId: 't1',
      changes: { title: 'Task t1', priority: 5, projectId: 'p2' },
    });
    expect(r.cache.tasks.get('t1')).toMatchObject({ priority: 5, projectId: 'p2' });
    expect(r.cache.tasks.get('t2')?.projectId).toBe('p2');
    expect([...r.outbox.pending.pendingFieldsFor('task', 't1')].sort()).toEqual(['priority', 'projectId']);
    await r.ack();
    expect(r.calls).toEqual([['updateTask', 't1', { userId: ME, priority: 5, projectId: 'p2' }]]);
    expect(r.outbox.pending.pendingFieldsFor('task', 't1').size).toBe(0);
  });

  it('task.setStatus: status, close moment and the message as a comment', async () => {
    r.outbox.write('task.setStatus', {
      taskId: 't1',
      statusId: 's-done',
      message: 'done!',
      draftId: 'draft-s',
    });
    expect(r.cache.tasks.get('t1')).toMatchObject({
      status: { id: 's-done', name: 'Done' },
      systemStatus: 4,
    });
    expect(r.cache.tasks.get('t1')?.momentClosed).not.toBeNull();
    expect(r.cache.messages.listForTask('t1').map((m) => m.message)).toEqual(['done!']);
    await r.ack();
    expect(r.calls).toEqual([
      ['updateTaskStatus', 't1', { userId: ME, statusId: 's-done', message: 'done!' }],
    ]);
  });

  it('task.comment and task.reply: drafts at once; reply moves the action-required user', async () => {
    r.outbox.write('task.comment', { taskId: 't1', message: 'a note', draftId: 'draft-c' });
    r.outbox.write('task.reply', {
      taskId: 't1',
      actionRequiredUserId: 'u-bob',
      message: 'yours',
      draftId: 'draft-r',
    });
    expect(r.cache.tasks.get('t1')?.actionRequiredUserId).toBe('u-bob');
    expect(r.cache.messages.listForTask('t1').map((m) => [m.message, m.toUserId])).toEqual([
      ['a note', null],
      ['yours', 'u-bob'],
    ]);
    expect(r.outbox.pending.isPendingStructural('message', 'draft-c')).toBe(true);
    await r.ack();
    expect(r.calls).toEqual([
      ['comment', 't1', { userId: ME, message: 'a note' }],
      ['reply', 't1', { userId: ME, actionRequiredUsedId: 'u-bob', message: 'yours' }],
    ]);
    expect(r.outbox.pending.isPendingStructural('message', 'draft-c')).toBe(false);
  });

  it('task.addTag / task.removeTag: toggled at once; adding a present tag sends nothing', async () => {
    r.outbox.write('task.addTag', { taskId: 't1', tagId: 'tag1' });
    expect(r.outbox.write('task.addTag', { taskId: 't1', tagId: 'tag1' }).entryId).toBeUndefined();
    expect(r.cache.org.tagsOfTask('t1').map((t) => t.id)).toEqual(['tag1']);
    r.outbox.write('task.removeTag', { taskId: 't1', tagId: 'tag1' });
    expect(r.cache.org.tagsOfTask('t1')).toEqual([]);
    await r.ack();
    expect(r.calls).toEqual([
      ['addTag', 't1', 'tag1', { userId: ME }],
      ['removeTag', 't1', 'tag1', { userId: ME }],
    ]);
  });

  it('task.setCustomFields: values merged, null resets; successive unsent sets merge', async () => {
    r.outbox.write('task.setCustomFields', { taskId: 't1', values: [{ id: 'cf1', value: 'x' }] });
    r.outbox.write('task.setCustomFields', { taskId: 't1', values: [{ id: 'cf2', value: 2 }] });
    expect(r.cache.tasks.get('t1')?.customFieldsData).toEqual({ cf1: 'x', cf2: 2 });
    await r.ack();
    expect(r.calls).toEqual([
      [
        'setTaskCustomFields',
        't1',
        {
          userId: ME,
          customFields: [
            { id: 'cf1', value: 'x' },
            { id: 'cf2', value: 2 },
          ],
        },
      ],
    ]);
  });

  it('task.delete: the task and its subtasks leave the view; a rejection would restore them', async () => {
    r.outbox.write('task.delete', { taskId: 't1', subtaskIds: ['t2'] });
    expect(r.cache.tasks.get('t1')).toBeNull();
    expect(r.cache.tasks.get('t2')).toBeNull();
    expect(r.outbox.pending.isPendingStructural('task', 't1')).toBe(true);
    await r.ack();
    expect(r.calls).toEqual([['deleteTask', 't1']]);
  });

  it('task.delete: a subtask taken along counts as deleted here, waiting and acknowledged; the parent does not', async () => {
    const structural = (id: string) => queueOf(r.outbox).isPendingStructural('task', id);
    const mark = queueOf(r.outbox).ackMark();
    r.outbox.write('task.delete', { taskId: 't1', subtaskIds: ['t2'] });
    expect([structural('t1'), structural('t2')]).toEqual([true, true]);
    await r.ack();
    expect([structural('t1'), structural('t2')]).toEqual([false, false]);
    expect(queueOf(r.outbox).ackedSince('task', 't2', mark).has(ACKED_ITEM)).toBe(true);
  });

  it('pendingStructuralAmong: one read of the open entries answers as isPendingStructural does, id by id', async () => {
    r.outbox.write('task.create', {
      tempId: 'local-a',
      draftId: 'draft-a',
      input: { projectId: 'p1', title: 'New one' },
    });
    r.outbox.write('task.comment', { taskId: 't1', message: 'a note', draftId: 'draft-c' });
    r.outbox.write('task.delete', { taskId: 't1', subtaskIds: ['t2'] });
    r.outbox.write('project.update', { projectId: 'p2', changes: { name: 'Renamed' } });
    const queue = queueOf(r.outbox);
    const asked = {
      task: ['t1', 't2', 't3', 'local-a', 'draft-a', 'p2', 'nope'],
      message: ['draft-c', 'draft-a', 't1', 'nope'],
      project: ['p1', 'p2', 't1'],
    } as const;
    const oneByOne = (entity: keyof typeof asked) =>
      asked[entity].filter((id) => queue.isPendingStructural(entity, id));
    // The one-by-one answers, as they stand with these entries open (a draft's id counts while
    // an entry's payload names it):
    expect(oneByOne('task')).toEqual(['t1', 't2', 'local-a', 'draft-a']);
    expect(oneByOne('message')).toEqual(['draft-c', 'draft-a']);
    expect(oneByOne('project')).toEqual([]);
    const same = () => {
      for (const entity of ['task', 'message', 'project'] as const)
        expect([...queue.pendingStructuralAmong(entity, asked[entity])].sort()).toEqual(
          oneByOne(entity).sort(),
        );
    };
    same();
    // A backlog of edits is not read: only creates and removing kinds are (not the project's
    // rename, nor the comment, whose draft is asked about by its own query).
    const wholeList = vi.spyOn(queue.store, 'list');
    const read = vi.spyOn(queue.store, 'openStructural');
    queue.pendingStructuralAmong('project', asked.project);
    expect(wholeList).not.toHaveBeenCalled();
    expect(read.mock.results[0]?.value.map((entry: { kind: string }) => entry.kind)).toEqual([
      'task.create',
      'task.delete',
    ]);
    // A create is read as its row alone; a delete that takes more along with its payload and keys.
    const [created, deleted] = read.mock.results[0]?.value as { payload?: unknown; keys?: string[] }[];
    expect([created?.payload, created?.keys]).toEqual([undefined, undefined]);
    expect(deleted?.keys).toContain('task:t1');
    read.mockRestore();
    wholeList.mockRestore();
    // Once the delete is acknowledged its items no longer count, in either answer.
    await r.ack();
    expect(oneByOne('task')).not.toContain('t1');
    same();
  });

  it('task.delete: the parent of the deleted task is neither pending nor acknowledged as deleted', async () => {
    const mark = queueOf(r.outbox).ackMark();
    r.outbox.write('task.delete', { taskId: 't2', subtaskIds: [], parentTaskId: 't1' });
    expect(queueOf(r.outbox).isPendingStructural('task', 't1')).toBe(false);
    await r.ack();
    expect(queueOf(r.outbox).ackedSince('task', 't1', mark).has(ACKED_ITEM)).toBe(false);
    expect(queueOf(r.outbox).ackedSince('task', 't2', mark).has(ACKED_ITEM)).toBe(true);
  });

  it('task.delete: the dependencies of the deleted tasks leave with them; a refusal puts them back', async () => {
    r.cache.tasks.upsertMany([flattenTask(aTask({ id: 't3', projectId: 'p1' }))]);
    r.cache.dependencies.replaceFor('task', 't3', {
      predecessors: [{ id: 'd1', type: 5, predecessorTaskId: 't2' }],
      successors: [],
    });
    expect(r.cache.dependencies.listFor('t3').map((d) => d.id)).toEqual(['d1']);
    r.answers.deleteTask = () => {
      throw new RejectedError('DELETE', '/task/t1', 403, 'not allowed');
    };
    r.outbox.write('task.delete', { taskId: 't1', subtaskIds: ['t2'] });
    // The service drops a task's dependencies with it: the other end no longer lists it.
    expect(r.cache.dependencies.listFor('t3')).toEqual([]);
    await r.ack();
    expect(r.outbox.status().failed).toBe(1);
    expect(r.cache.tasks.get('t2')).not.toBeNull();
    expect(r.cache.dependencies.listFor('t3')).toEqual([
      {
        id: 'd1',
        type: 5,
        predecessor: { kind: 'task', id: 't2', name: r.cache.tasks.get('t2')!.name },
        successor: { kind: 'task', id: 't3', name: r.cache.tasks.get('t3')!.name },
      },
    ]);
  });
});

describe('project, member, calendar and CRM kinds', () => {
  it('project.update: a closed status archives; only changed fields sent', async () => {
    r.outbox.write('project.update', {
      projectId: 'p1',
      changes: { statusId: 's-done', name: 'Project p1' },
    });
    expect(r.cache.projects.get('p1')).toMatchObject({ statusId: 's-done', status: 'Done', systemStatus: 5 });
    await r.ack();
    expect(r.calls).toEqual([['updateProject', 'p1', { userId: ME, statusId: 's-done' }]]);
  });

  it('project.create: the answer replaces the local row and id', async () => {
    r.outbox.write('project.create', {
      type: 'folder',
      tempId: 'local-f',
      input: { name: 'F', parentProjectId: 'p1' },
    });
    expect(r.cache.projects.get('local-f')).toMatchObject({
      name: 'F',
      isFolder: true,
      parentProjectId: 'p1',
    });
    r.answers.newFolder = () =>
      aProject({ id: 'F1', name: 'F', parentProjectId: 'p1', isFolder: true, color: 4 });
    await r.ack();
    expect(r.calls).toEqual([['newFolder', { name: 'F', parentProjectId: 'p1', createdByUserId: ME }]]);
    expect(r.cache.projects.get('F1')).toMatchObject({ name: 'F', color: 4 });
  });

  it('member.setAccess: read-only hands the user tasks to the owner', async () => {
    r.cache.transaction(() => {
      r.cache.projectParts.replaceMembers('p1', [
        { id: 'u-bob', name: 'Bob', primaryEmail: 'bob@x.test', access: 'Standard', watchAll: false },
      ]);
      r.cache.tasks.upsertMany([
        flattenTask(aTask({ id: 't3', projectId: 'p1', assignedToUserId: 'u-bob' })),
      ]);
    });
    // What the change hands to the owner is found when it is applied.
    r.outbox.write('member.setAccess', {
      projectId: 'p1',
      userId: 'u-bob',
      access: -10,
      hands: { tasks: [], events: [], subprojects: [] },
    });
    expect(r.cache.tasks.get('t3')?.assignedToUserId).toBe(ME);
    expect(r.cache.projectParts.membersOf('p1')[0]?.access).toBe('Read only');
    await r.ack();
    expect(r.calls).toEqual([['updateProjectUser', 'p1', 'u-bob', { userId: ME, access: -10 }]]);
  });

  it('event.create and dependency.create between local items', async () => {
    r.outbox.write('event.create', {
      tempId: 'local-e',
      input: { eventType: 'project-milestone', name: 'M', startDate: '2026-12-01', projectId: 'p1' },
    });
    r.outbox.write('dependency.create', {
      tempId: 'local-d',
      input: {
        type: 5,
        predecessor: { kind: 'task', id: 't1' },
        successor: { kind: 'event', id: 'local-e' },
      },
    });
    expect(r.cache.dependencies.listFor('local-e').map((d) => d.id)).toEqual(['local-d']);
    r.answers.createEvent = () => ({
      id: 'E1',
      eventType: 'project-milestone',
      name: 'M',
      notes: null,
      startDate: '2026-12-01',
      userId: null,
      projectId: 'p1',
      assignedToUserId: null,
      momentCreated: '2026-11-21T12:00:00',
    });
    r.answers.createDependency = () => ({
      id: 'D1',
      type: 5,
      predecessorTaskId: 't1',
      successorEventId: 'E1',
    });
    await r.ack();
    expect(r.calls.map((c) => c[0])).toEqual(['createEvent', 'createDependency']);
    expect(r.calls[1]![1]).toEqual({
      type: 5,
      createdByUserId: ME,
      predecessorTaskId: 't1',
      successorEventId: 'E1',
    });
    expect(r.cache.dependencies.listFor('E1').map((d) => d.id)).toEqual(['D1']);
  });

  describe('event.delete', () => {
    const event = anEvent({ id: 'e1', startDate: '2026-12-01', endDate: '2026-12-02', projectId: 'p1' });
    const refuse = () => {
      r.answers.deleteEvent = () => {
        throw new RejectedError('DELETE', '/event/e1', 403, 'not allowed');
      };
    };
    beforeEach(() => {
      r.cache.events.upsert(event);
      r.cache.dependencies.replaceFor('event', 'e1', {
        predecessors: [{ id: 'd1', type: 5, predecessorTaskId: 't1' }],
        successors: [{ id: 'd2', type: 6, successorProjectId: 'p2' }],
      });
    });

    it('its dependencies leave with it, as on the service; a refusal puts both back', async () => {
      const before = r.cache.dependencies.touching(['e1']);
      expect(before.map((d) => d.id)).toEqual(['d1', 'd2']);
      refuse();
      r.outbox.write('event.delete', { eventId: 'e1' });
      expect(r.cache.events.list({ from: '2026-12-01', to: '2026-12-31' })).toEqual([]);
      expect(r.cache.dependencies.listFor('t1')).toEqual([]);
      expect(r.cache.dependencies.listFor('p2')).toEqual([]);
      await r.ack();
      expect(r.outbox.status().failed).toBe(1);
      expect(r.cache.events.list({ from: '2026-12-01', to: '2026-12-31' })).toEqual([event]);
      expect(r.cache.dependencies.touching(['e1'])).toEqual(before);
    });

    it('an entry stored with the event row alone (before deletes took dependencies) still rolls back', async () => {
      refuse();
      const { entryId } = queueOf(r.outbox).submit('event.delete', { eventId: 'e1' });
      const stored = queueOf(r.outbox).store.get(entryId!)!;
      const bare = (stored.undo as { event: unknown }).event;
      queueOf(r.outbox).store.setPayload(entryId!, stored.payload, bare, stored.updatedAt);
      await r.ack();
      expect(r.outbox.status().failed).toBe(1);
      expect(r.cache.events.list({ from: '2026-12-01', to: '2026-12-31' })).toEqual([event]);
    });
  });

  it('crmContact.create: the id-less answer is followed by finding the new contact', async () => {
    r.outbox.write('crmContact.create', { tempId: 'local-c', input: { firstName: 'Ola' }, known: [] });
    expect(r.cache.crm.contact('local-c')).toMatchObject({ firstName: 'Ola', contactOwnerUserId: ME });
    // Before the send the service has a twin (C6); after it, the new one too (C7).
    const twin = { ...r.cache.crm.contact('local-c')!, id: 'C6' };
    let created = false;
    r.answers.createCrmContact = () => void (created = true);
    r.answers.crmContacts = () => (created ? [twin, { ...twin, id: 'C7' }] : [twin]);
    await r.ack();
    expect(r.calls.map((c) => c[0])).toEqual(['crmContacts', 'createCrmContact', 'crmContacts']);
    expect(r.cache.crm.contact('C7')?.firstName).toBe('Ola');
    expect(r.outbox.entries('done')[0]?.payload).toMatchObject({ known: ['C6'] });
  });
});

describe('correcting a refused create (outbox.correct)', () => {
  const refuse = (path: string, message: string) => () => {
    throw new RejectedError('POST', path, 400, message);
  };

  it('a refused task create is corrected under its local id; the change waiting for it follows', async () => {
    r.answers.createTask = refuse('/tasks/new-task', 'toUserId: no such user');
    r.outbox.write('task.create', {
      tempId: 'local-a',
      draftId: 'draft-a',
      input: { projectId: 'p1', title: 'Typed once', toUserId: 'u-gone', deadline: '2026-12-01' },
    });
    r.outbox.write('task.update', { taskId: 'local-a', changes: { priority: 5 } });
    await r.ack();
    const [failed] = r.outbox.entries('failed');
    expect(failed?.kind).toBe('task.create');
    expect(r.cache.tasks.get('local-a')).toBeNull();

    // Bad input is refused naming the field, and changes nothing.
    expect(() => r.outbox.correct(failed!.id, { title: '' })).toThrow(
      expect.objectContaining({ type: 'invalid-argument', field: 'title' }),
    );
    expect(() => r.outbox.correct(failed!.id, { startDate: '2026-12-01' })).toThrow(
      expect.objectContaining({ field: 'startDate' }),
    );
    expect(queueOf(r.outbox).store.get(failed!.id)).toMatchObject({
      state: 'failed',
      payload: failed!.payload,
    });
    expect(r.cache.tasks.get('local-a')).toBeNull();

    r.outbox.correct(failed!.id, { toUserId: 'u-bob', title: 'Typed once, corrected' });
    expect(r.cache.tasks.get('local-a')).toMatchObject({
      name: 'Typed once, corrected',
      assignedToUserId: 'u-bob',
    });
    r.calls.length = 0;
    r.answers.createTask = () => ({ id: 'T9', shortId: '9', momentCreated: '2026-11-21 12:00:00.000000' });
    await r.ack();
    expect(r.calls.map((c) => c[0])).toEqual(['createTask', 'updateTask']);
    expect(r.calls[0]![1]).toMatchObject({
      title: 'Typed once, corrected',
      toUserId: 'u-bob',
      deadline: '2026-12-01',
    });
    expect(r.calls[1]![1]).toBe('T9');
    expect(r.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('a refused project create: a correction the create schema refuses names the field; a good one is sent', async () => {
    r.answers.newProject = refuse('/projects/new-project', 'projectOwnerUserId: no such user');
    r.outbox.write('project.create', {
      type: 'project',
      tempId: 'local-p',
      input: {
        name: 'Launch',
        projectTemplateId: 'tpl',
        projectOwnerUserId: 'u-gone',
        startDate: '2026-11-23',
      },
    });
    await r.ack();
    const [failed] = r.outbox.entries('failed');
    expect(() => r.outbox.correct(failed!.id, { startDate: 'soon' })).toThrow(
      expect.objectContaining({ field: 'startDate' }),
    );
    r.outbox.correct(failed!.id, { projectOwnerUserId: 'u-bob' });
    expect(r.cache.projects.get('local-p')).toMatchObject({ name: 'Launch', ownerUserId: 'u-bob' });
    expect(queueOf(r.outbox).store.get(failed!.id)).toMatchObject({ state: 'pending' });
  });
});

describe('a change that sets one date of a range', () => {
  it('task.update: one date is checked against the cached other, the pending local value included', () => {
    r.outbox.write('task.update', { taskId: 't1', changes: { startDate: '2026-12-10' } });
    const before = r.outbox.status().pending;
    // The start is only local so far: the end is checked against it all the same.
    expect(() => r.outbox.write('task.update', { taskId: 't1', changes: { endDate: '2026-12-01' } })).toThrow(
      expect.objectContaining({
        type: 'invalid-argument',
        field: 'changes.endDate',
        message: 'endDate: must not be before startDate (2026-12-10)',
      }),
    );
    expect(r.outbox.status().pending).toBe(before);
    expect(r.cache.tasks.get('t1')).toMatchObject({ startDate: '2026-12-10', endDate: null });
    r.outbox.write('task.update', { taskId: 't1', changes: { endDate: '2026-12-12' } });
    expect(() =>
      r.outbox.write('task.update', { taskId: 't1', changes: { startDate: '2026-12-13' } }),
    ).toThrow(
      expect.objectContaining({
        field: 'changes.startDate',
        message: 'startDate: must not be after endDate (2026-12-12)',
      }),
    );
    // Clearing the other date, or setting both in order, passes.
    r.outbox.write('task.update', {
      taskId: 't1',
      changes: { startDate: '2026-12-13', endDate: '2026-12-14' },
    });
    r.outbox.write('task.update', { taskId: 't1', changes: { startDate: null } });
    r.outbox.write('task.update', { taskId: 't1', changes: { endDate: '2026-11-01' } });
    expect(r.cache.tasks.get('t1')).toMatchObject({ startDate: null, endDate: '2026-11-01' });
  });

  it('project.update: the same check against the cached project', () => {
    r.cache.projects.upsertMany([aProject({ id: 'p3', startDate: '2026-12-01', endDate: '2026-12-31' })]);
    expect(() =>
      r.outbox.write('project.update', { projectId: 'p3', changes: { endDate: '2026-11-30' } }),
    ).toThrow(expect.objectContaining({ field: 'changes.endDate' }));
    expect(() =>
      r.outbox.write('project.update', { projectId: 'p3', changes: { startDate: '2027-01-01' } }),
    ).toThrow(expect.objectContaining({ field: 'changes.startDate' }));
    expect(r.outbox.status().pending).toBe(0);
    expect(r.cache.projects.get('p3')).toMatchObject({ startDate: '2026-12-01', endDate: '2026-12-31' });
  });
});

describe('CRM changes name their record', () => {
  it('two contacts edited offline, an account and their creates and deletes are told apart', () => {
    r.cache.crm.contacts.upsert(aContact({ id: 'c1', firstName: 'Ada', lastName: 'Lind' }));
    r.cache.crm.contacts.upsert(aContact({ id: 'c2', firstName: 'Bo', lastName: '' }));
    r.cache.crm.accounts.upsert(anAccount({ id: 'a1', name: 'Acme' }));
    r.outbox.write('crmContact.update', { id: 'c1', changes: { phone: '+1 555 0101' } });
    r.outbox.write('crmContact.update', { id: 'c2', changes: { phone: '+1 555 0102' } });
    r.outbox.write('crmAccount.update', { id: 'a1', changes: { website: 'acme.test' } });
    r.outbox.write('crmContact.create', {
      tempId: 'local-c',
      input: { firstName: 'Cy', lastName: 'Ng' },
      known: [],
    });
    r.outbox.write('crmAccount.delete', { id: 'a1' });
    const labels = r.outbox.entries().map((e) => r.outbox.describe(e));
    expect(labels).toEqual([
      'Edit contact "Ada Lind" (phone)',
      'Edit contact "Bo" (phone)',
      'Edit account "Acme" (website)',
      'Create contact "Cy Ng"',
      'Delete account "Acme"',
    ]);
  });

  it('a project change names its project too, as the cache holds it', () => {
    r.outbox.write('project.update', { projectId: 'p1', changes: { name: 'Launch', priority: 3 } });
    expect(r.outbox.describe(r.outbox.entries()[0]!)).toBe('Edit project "Launch" (name, priority)');
  });

  it('member changes name the member and the project', () => {
    r.cache.transaction(() => {
      r.cache.projectParts.replaceMembers('p1', [
        { id: 'u-bob', name: 'Bob', primaryEmail: 'bob@x.test', access: 'Standard', watchAll: false },
      ]);
      r.cache.projects.upsertMany([aProject({ id: 'p1', name: 'Launch', ownerUserId: ME })]);
    });
    r.outbox.write('member.add', { projectId: 'p1', userId: ME, access: 3 });
    r.outbox.write('member.setAccess', {
      projectId: 'p1',
      userId: 'u-bob',
      access: 3,
      hands: { tasks: [], events: [], subprojects: [] },
    });
    r.outbox.write('member.remove', {
      projectId: 'p1',
      userId: 'u-bob',
      hands: { tasks: [], events: [], subprojects: [] },
    });
    const labels = r.outbox.entries().map((e) => r.outbox.describe(e));
    expect(labels).toEqual([
      'Add member "Me" to project "Launch"',
      'Change access of member "Bob" in project "Launch"',
      'Remove member "Bob" from project "Launch"',
    ]);
    r.cache.projects.delete(['p1']);
    r.cache.org.users.replace([]);
    expect(r.outbox.describe(r.outbox.entries()[0]!)).toBe('Add member');
  });

  it('a record the cache no longer holds is left unnamed', () => {
    r.cache.crm.contacts.upsert(aContact({ id: 'c1', firstName: 'Ada' }));
    r.outbox.write('crmContact.update', { id: 'c1', changes: { phone: '1' } });
    r.cache.crm.deleteContacts(['c1']);
    expect(r.outbox.describe(r.outbox.entries()[0]!)).toBe('Edit contact (phone)');
  });
});
