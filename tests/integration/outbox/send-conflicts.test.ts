// Rule 7 at send time: two engines and the service. Engine A edits while it is offline, a
// colleague (engine B, another user) changes the same field on the service meanwhile, and A comes
// back online and sends WITHOUT pulling first. A must journal the colleague's value (who and when
// where the service says), apply its policy (keep mine by default; "ask" holds the change) and
// let the user flip it, which puts the colleague's value back on the service. The same for a
// delete of an item the colleague changed, and for a change of an item the colleague deleted.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { ConflictPolicy } from '../../../src/main/core/outbox/outbox';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { crmEndpoints } from '../../../src/shared/api/crm';

describe.each(SERVICE_PROFILES)('changes sent after a reconnect, %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  let proxy: FaultProxy;
  const open: TestEngine[] = [];

  beforeAll(async () => {
    svc = await startService({ seed: 'empty', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    proxy = await startFaultProxy({ target: svc.baseUrl });
  });
  afterEach(async () => {
    proxy.reset();
    for (const e of open.splice(0)) await e.close();
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.close();
  });

  /** A: the admin, through the proxy (taken offline there); B: Bob, straight to the service. */
  async function engines(
    policy: ConflictPolicy = 'mine',
    freshMs?: number,
  ): Promise<{ a: TestEngine; b: TestEngine }> {
    const a = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, {
      outbox: {
        backoff: { baseMs: 10, maxMs: 100 },
        tickMs: 50,
        conflictPolicy: () => policy,
        ...(freshMs !== undefined ? { freshMs } : {}),
      },
    });
    const b = await testEngine(svc.baseUrl, svc.token, svc.users.bob);
    open.push(a, b);
    return { a, b };
  }

  const offline = () => proxy.set({ dropBefore: { rate: 1 } });
  /** Back online: what waits is sent at once, no pull first (a reconnect as the shell tells it). */
  async function reconnect(a: TestEngine): Promise<void> {
    proxy.set({ dropBefore: undefined });
    a.outbox.reconnected();
    await a.drained();
  }
  async function reconnectUntil(a: TestEngine, test: () => boolean): Promise<void> {
    proxy.set({ dropBefore: undefined });
    a.outbox.reconnected();
    await waitFor(test);
  }
  /** Queues `edit` on A while offline and waits until A tried to send it and failed. */
  async function whileOffline(a: TestEngine, edit: () => Promise<unknown>): Promise<void> {
    offline();
    await edit();
    await queueOf(a.outbox).idle();
    // Refused at the connection: its outcome is not known (in flight), it will be sent again.
    const [entry, ...more] = a.outbox.entries();
    expect(more).toEqual([]);
    expect(entry?.attempts).toBeGreaterThanOrEqual(1);
  }

  interface Case {
    entity: string;
    field: string;
    /** Makes the item (through B, drained) and answers its id. */
    make(b: TestEngine): Promise<string>;
    mine(a: TestEngine, id: string): Promise<unknown>;
    theirs(b: TestEngine, id: string): Promise<unknown>;
    /** The field's value on the service. */
    onService(id: string): Promise<unknown>;
    mineValue: unknown;
    theirsValue: unknown;
  }

  const text = SEED_IDS.customFields.text;
  const inWorkspace = { parentProjectId: SEED_IDS.workspace, projectTemplateId: SEED_IDS.templates.project };
  const cases: Case[] = [
    {
      entity: 'task',
      field: 'priority',
      make: async (b) =>
        (await b.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Shared' })).id,
      mine: (a, id) => a.call('tasks.update', { taskId: id, changes: { priority: 8 } }),
      theirs: (b, id) => b.call('tasks.update', { taskId: id, changes: { priority: 3 } }),
      onService: async (id) => (await api.call(taskEndpoints.task, { id })).priority,
      mineValue: 8,
      theirsValue: 3,
    },
    {
      entity: 'task',
      field: 'name',
      make: async (b) =>
        (await b.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Shared' })).id,
      mine: (a, id) => a.call('tasks.update', { taskId: id, changes: { title: 'Renamed by A' } }),
      theirs: (b, id) => b.call('tasks.update', { taskId: id, changes: { title: 'Renamed by Bob' } }),
      onService: async (id) => (await api.call(taskEndpoints.task, { id })).name,
      mineValue: 'Renamed by A',
      theirsValue: 'Renamed by Bob',
    },
    {
      entity: 'task',
      field: 'customFieldsData',
      make: async (b) =>
        (await b.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Fields' })).id,
      mine: (a, id) => a.call('tasks.setCustomFields', { taskId: id, values: [{ id: text, value: 'A-1' }] }),
      theirs: (b, id) =>
        b.call('tasks.setCustomFields', { taskId: id, values: [{ id: text, value: 'B-1' }] }),
      onService: async (id) => (await api.call(taskEndpoints.task, { id })).customFieldsData,
      mineValue: { [text]: 'A-1' },
      theirsValue: { [text]: 'B-1' },
    },
    {
      entity: 'project',
      field: 'name',
      make: async (b) => (await b.call('projects.create', { ...inWorkspace, name: 'Shared project' })).id,
      mine: (a, id) => a.call('projects.update', { projectId: id, changes: { name: 'Project by A' } }),
      theirs: (b, id) => b.call('projects.update', { projectId: id, changes: { name: 'Project by Bob' } }),
      onService: async (id) => (await api.call(projectEndpoints.project, { id })).name,
      mineValue: 'Project by A',
      theirsValue: 'Project by Bob',
    },
    {
      entity: 'project',
      field: 'customFieldsData',
      make: async (b) => (await b.call('projects.create', { ...inWorkspace, name: 'Project fields' })).id,
      mine: (a, id) =>
        a.call('projects.setCustomFields', { projectId: id, values: [{ id: text, value: 'PA' }] }),
      theirs: (b, id) =>
        b.call('projects.setCustomFields', { projectId: id, values: [{ id: text, value: 'PB' }] }),
      onService: async (id) => (await api.call(projectEndpoints.project, { id })).customFieldsData,
      mineValue: { [text]: 'PA' },
      theirsValue: { [text]: 'PB' },
    },
    {
      entity: 'crmContact',
      field: 'email',
      make: async (b) => (await b.call('crm.createContact', { firstName: 'Shared', lastName: 'Contact' })).id,
      mine: (a, id) => a.call('crm.updateContact', { contactId: id, changes: { email: 'a@x.test' } }),
      theirs: (b, id) => b.call('crm.updateContact', { contactId: id, changes: { email: 'bob@x.test' } }),
      onService: async (id) => (await api.call(crmEndpoints.crmContact, { id })).contact.email,
      mineValue: 'a@x.test',
      theirsValue: 'bob@x.test',
    },
    {
      entity: 'crmAccount',
      field: 'name',
      make: async (b) => (await b.call('crm.createAccount', { name: 'Shared account' })).id,
      mine: (a, id) => a.call('crm.updateAccount', { accountId: id, changes: { name: 'Account by A' } }),
      theirs: (b, id) => b.call('crm.updateAccount', { accountId: id, changes: { name: 'Account by Bob' } }),
      onService: async (id) => (await api.call(crmEndpoints.crmAccount, { id })).account.name,
      mineValue: 'Account by A',
      theirsValue: 'Account by Bob',
    },
  ];

  /** The item made by B, read by both, A's change queued offline, B's change on the service. */
  async function concurrent(c: Case, policy: ConflictPolicy = 'mine') {
    const { a, b } = await engines(policy);
    await b.sync.now();
    const made = await c.make(b);
    await b.drained();
    const id = b.outbox.realIdOf(made);
    await a.sync.now();
    await whileOffline(a, () => c.mine(a, id));
    await c.theirs(b, id);
    await b.drained();
    expect(await c.onService(id)).toEqual(c.theirsValue);
    return { a, b, id };
  }

  it.each(cases)('$entity $field: journaled, kept mine, and "take theirs" puts theirs back', async (c) => {
    const { a, id } = await concurrent(c);
    await reconnect(a);
    expect(await c.onService(id)).toEqual(c.mineValue);
    const conflicts = await a.call('conflicts.list', {});
    expect(conflicts).toMatchObject([
      { entity: c.entity, entityId: id, field: c.field, localValue: c.mineValue, remoteValue: c.theirsValue },
    ]);
    if (c.entity === 'task') expect(conflicts[0]!.remoteAt).toEqual(expect.any(String));
    await a.call('conflicts.resolve', { id: conflicts[0]!.id, choice: 'theirs' });
    await a.drained();
    expect(await c.onService(id)).toEqual(c.theirsValue);
    // Decided. (A pull after the reconnect may journal more on the goodday profile: its project
    // list items carry no custom fields, read as none; see the report of this change.)
    expect((await a.call('conflicts.list', {})).map((x) => x.id)).not.toContain(conflicts[0]!.id);
  });

  it.each(cases)('$entity $field with "ask me": held until the user decides', async (c) => {
    const { a, id } = await concurrent(c, 'ask');
    proxy.set({ dropBefore: undefined });
    a.outbox.reconnected();
    await waitFor(() => a.outbox.entries()[0]?.errorType === 'held');
    // Neither a reconnect nor the timer sends it: it waits for the user.
    a.outbox.reconnected();
    await queueOf(a.outbox).idle();
    expect(await c.onService(id)).toEqual(c.theirsValue);
    const [conflict] = await a.call('conflicts.list', {});
    expect(conflict).toMatchObject({ field: c.field, localValue: c.mineValue, remoteValue: c.theirsValue });
    await a.call('conflicts.resolve', { id: conflict!.id, choice: 'mine' });
    await a.drained();
    expect(await c.onService(id)).toEqual(c.mineValue);
  });

  it('a delete of a task Bob changed meanwhile is held and asked about; "delete anyway" deletes it', async () => {
    const c = cases[0]!;
    const { a, b } = await engines();
    await b.sync.now();
    const { id } = await b.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Doomed' });
    await b.drained();
    const taskId = b.outbox.realIdOf(id);
    await a.sync.now();
    await whileOffline(a, () => a.call('tasks.delete', { taskId }));
    await c.theirs(b, taskId);
    await b.drained();
    proxy.set({ dropBefore: undefined });
    a.outbox.reconnected();
    await waitFor(() => a.outbox.entries()[0]?.errorType === 'held');
    expect((await api.call(taskEndpoints.task, { id: taskId })).priority).toBe(3);
    const [conflict] = await a.call('conflicts.list', {});
    expect(conflict).toMatchObject({
      entity: 'task',
      entityId: taskId,
      field: '*',
      remoteValue: { priority: 3 },
    });
    await a.call('conflicts.resolve', { id: conflict!.id, choice: 'mine' });
    await a.drained();
    await expect(api.call(taskEndpoints.task, { id: taskId })).rejects.toMatchObject({ status: 404 });
  });

  it('a delete held over Bob\'s change: "keep theirs" drops the delete and shows his version', async () => {
    const { a, b } = await engines();
    await b.sync.now();
    const { id } = await b.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Kept' });
    await b.drained();
    const taskId = b.outbox.realIdOf(id);
    await a.sync.now();
    await whileOffline(a, () => a.call('tasks.delete', { taskId }));
    expect(a.cache.tasks.get(taskId)).toBeNull();
    await b.call('tasks.update', { taskId, changes: { title: 'Kept, renamed by Bob' } });
    await b.drained();
    proxy.set({ dropBefore: undefined });
    a.outbox.reconnected();
    await waitFor(() => a.outbox.entries()[0]?.errorType === 'held');
    const [conflict] = await a.call('conflicts.list', {});
    await a.call('conflicts.resolve', { id: conflict!.id, choice: 'theirs' });
    await waitFor(() => a.cache.tasks.get(taskId)?.name === 'Kept, renamed by Bob');
    expect(a.outbox.status().pending).toBe(0);
    expect((await api.call(taskEndpoints.task, { id: taskId })).name).toBe('Kept, renamed by Bob');
  });

  it('a delete after a change of mine the service refused is not taken for a colleague’s change', async () => {
    // Every send reads first, as when the delete waited long behind the refused change.
    const { a } = await engines('mine', 0);
    const { id: taskId } = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        title: 'Refused, then deleted',
        fromUserId: svc.users.actingUserId,
      },
    });
    await a.sync.now();
    // Two changes of one field wait: the first will be applied, the second refused. The first is
    // sent once and lost on the way (its read passes), so the second is an entry of its own.
    proxy.set({ dropBefore: { rate: 1, match: /^PUT / } });
    await a.call('tasks.setCustomFields', { taskId, values: [{ id: text, value: 'applied' }] });
    await queueOf(a.outbox).idle();
    expect(a.outbox.entries()).toMatchObject([{ state: 'in_flight' }]);
    offline();
    await a.call('tasks.setCustomFields', {
      taskId,
      values: [{ id: SEED_IDS.customFields.number, value: 'not a number' }],
    });
    await a.call('tasks.delete', { taskId });
    await reconnectUntil(a, () => a.outbox.entries('failed').length === 1);
    const [refused] = a.outbox.entries('failed');
    await a.call('outbox.discard', { id: refused!.id });
    await a.drained();
    expect(await a.call('conflicts.list', {})).toEqual([]);
    await expect(api.call(taskEndpoints.task, { id: taskId })).rejects.toMatchObject({ status: 404 });
    expect(a.outbox.entries()).toEqual([]);
  });

  it('a change of a task Bob deleted meanwhile fails as such, its values kept to copy', async () => {
    const { a, b } = await engines();
    await b.sync.now();
    const { id } = await b.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Gone' });
    await b.drained();
    const taskId = b.outbox.realIdOf(id);
    await a.sync.now();
    await whileOffline(a, () => a.call('tasks.update', { taskId, changes: { title: 'Edited while gone' } }));
    await b.call('tasks.delete', { taskId });
    await b.drained();
    await reconnect(a);
    const [failed] = await a.call('outbox.failed', {});
    expect(failed).toMatchObject({
      errorType: 'gone',
      errorMessage: expect.stringMatching(/deleted/),
      fields: { title: 'Edited while gone' },
    });
  });

  /** Three tasks of the workspace, made on the service and read by A (and B). */
  async function threeTasks(a: TestEngine, b: TestEngine): Promise<string[]> {
    const ids: string[] = [];
    for (const title of ['Along 1', 'Along 2', 'Along 3'])
      ids.push(
        (
          await api.call(taskEndpoints.createTask, {
            body: { projectId: SEED_IDS.workspace, title, fromUserId: svc.users.bob },
          })
        ).id,
      );
    await a.sync.now();
    await b.sync.now();
    return ids;
  }
  /** What the proxy received since `before`, as `METHOD /path` lines. */
  const requestsSince = (before: number) => proxy.requests().slice(before);
  /** The reads of tasks among them (a reconnect also refreshes users, statuses and such). */
  const taskReads = (before: number) =>
    requestsSince(before).filter((r) => /^GET \/2\.0\/(task\/|project\/[^/]+\/tasks)/.test(r));

  it('after a reconnect, the changes of several tasks of one project read its task list once', async () => {
    const { a, b } = await engines();
    const ids = await threeTasks(a, b);
    offline();
    for (const id of ids) await a.call('tasks.update', { taskId: id, changes: { priority: 8 } });
    await queueOf(a.outbox).idle();
    // No retries while offline: what the reconnect sends is all that is counted.
    await a.outbox.stop();
    await b.call('tasks.update', { taskId: ids[1]!, changes: { priority: 3 } });
    await b.drained();
    const before = proxy.requests().length;
    // Back online, replay starts again: every waiting change is due from now.
    proxy.set({ dropBefore: undefined });
    a.outbox.start();
    await a.drained();
    expect(taskReads(before)).toEqual([`GET /2.0/project/${SEED_IDS.workspace}/tasks`]);
    expect(requestsSince(before).filter((r) => r.startsWith('PUT'))).toHaveLength(3);
    expect(await a.call('conflicts.list', {})).toMatchObject([
      { entity: 'task', entityId: ids[1], field: 'priority', localValue: 8, remoteValue: 3 },
    ]);
    for (const id of ids) expect((await api.call(taskEndpoints.task, { id })).priority).toBe(8);
  });

  it('a queue sent more than the fresh time after its read reads the project list once, not each task', async () => {
    const { a, b } = await engines('mine', 300);
    const ids = await threeTasks(a, b);
    a.outbox.stop();
    for (const id of ids) await a.call('tasks.update', { taskId: id, changes: { title: `${id} by A` } });
    await b.call('tasks.update', { taskId: ids[2]!, changes: { title: 'Renamed by Bob' } });
    await b.drained();
    await new Promise((r) => setTimeout(r, 400));
    const before = proxy.requests().length;
    a.outbox.start();
    await a.drained();
    expect(taskReads(before)).toEqual([`GET /2.0/project/${SEED_IDS.workspace}/tasks`]);
    expect(requestsSince(before).filter((r) => r.startsWith('PUT'))).toHaveLength(3);
    expect(await a.call('conflicts.list', {})).toMatchObject([
      {
        entity: 'task',
        entityId: ids[2],
        field: 'name',
        localValue: `${ids[2]} by A`,
        remoteValue: 'Renamed by Bob',
      },
    ]);
  });

  it('a retry reads again once replay restarts: a read from before does not cover a colleague’s change since', async () => {
    const { a, b } = await engines('mine', 60_000);
    const [id] = await threeTasks(a, b);
    // The first attempt goes unread (just synced) and is lost; the second reads, and is lost too.
    offline();
    await a.call('tasks.update', { taskId: id!, changes: { priority: 9 } });
    await queueOf(a.outbox).idle();
    proxy.set({ dropBefore: { rate: 1, match: /^PUT / } });
    const before = proxy.requests().length;
    a.outbox.reconnected();
    await waitFor(() => requestsSince(before).some((r) => r.startsWith('PUT')));
    await a.outbox.stop();
    expect(taskReads(before)[0]).toBe(`GET /2.0/task/${id}`);
    await b.call('tasks.update', { taskId: id!, changes: { priority: 2 } });
    await b.drained();
    proxy.set({ dropBefore: undefined });
    a.outbox.start();
    await a.drained();
    expect(await a.call('conflicts.list', {})).toMatchObject([
      { entity: 'task', entityId: id, field: 'priority', localValue: 9, remoteValue: 2 },
    ]);
  });

  it('online, a change of a task a steady pull met as stored is sent without a read first', async () => {
    // The first pull's read of the task is older than the fresh time when the change is sent;
    // the second pull finds its list as stored (nothing parsed) and that read covers it.
    const { a } = await engines('mine', 1_500);
    const { id } = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        title: 'Met again',
        fromUserId: svc.users.actingUserId,
      },
    });
    await a.sync.now();
    await new Promise((r) => setTimeout(r, 1_600));
    const idOf = vi.spyOn(a.cache.taskFingerprints, 'idOf');
    expect((await a.sync.now()).lastError).toBeNull();
    expect(idOf).not.toHaveBeenCalled();
    const before = proxy.stats().received;
    await a.call('tasks.update', { taskId: id, changes: { priority: 6 } });
    await a.drained();
    expect(proxy.stats().received - before).toBe(1);
    expect((await api.call(taskEndpoints.task, { id })).priority).toBe(6);
  });

  it('online, a change of an item just read is sent without a read first', async () => {
    const { a } = await engines();
    const { id } = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: SEED_IDS.workspace,
        title: 'Fresh',
        fromUserId: svc.users.actingUserId,
      },
    });
    await a.sync.now();
    const before = proxy.stats().received;
    await a.call('tasks.update', { taskId: id, changes: { priority: 6 } });
    await a.drained();
    expect(proxy.stats().received - before).toBe(1);
    expect((await api.call(taskEndpoints.task, { id })).priority).toBe(6);
  });
});

async function waitFor(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
