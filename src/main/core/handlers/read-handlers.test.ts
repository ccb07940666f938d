import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import { openCacheDb } from '../cache/db';
import { aContact, aDocument, aMessage, anAccount, aProject, aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { createDispatch } from '../dispatch';
import { noPending, type PendingFields } from '../sync/pending';
import { createSync } from '../sync/sync';
import { accountCache, PULL_PARTS } from './index';
import { readHandlers } from './index';
import type { FetchLike } from '../api/http';

/** Handlers over an in-memory cache whose service answers `answer` (default: unreachable). */
function setup(
  answer: FetchLike = () => Promise.reject(new TypeError('fetch failed')),
  {
    clock = () => new Date(2026, 0, 15),
    pending = noPending,
  }: { clock?: () => Date; pending?: PendingFields } = {},
) {
  const cache = accountCache(openCacheDb(':memory:'));
  const client = createServiceClient({
    baseUrl: 'http://svc.test/2.0',
    token: 't',
    fetch: answer,
    timeoutMs: 1000,
  });
  const log: string[] = [];
  const sync = createSync({
    cache,
    pullParts: PULL_PARTS,
    client,
    pending,
    userId: 'me',
    clock,
    log: (m) => log.push(m),
    emitChange: () => {},
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const dispatch = createDispatch(
    readHandlers({ cache, sync, userId: 'me', log: (m) => log.push(m), clock }),
  );
  return { cache, sync, dispatch, log };
}

describe('read handlers', () => {
  it('answers a task detail from the cache when the service cannot be reached', async () => {
    const { cache, dispatch, sync } = setup();
    cache.projects.upsertMany([aProject({ id: 'p1', name: 'Alpha' })]);
    cache.tasks.upsertMany(
      [
        aTask({ id: 't1', projectId: 'p1', customFieldsData: { cf: 3 } }),
        aTask({ id: 't2', projectId: 'p1', parentTaskId: 't1' }),
      ].map(flattenTask),
    );
    cache.messages.replaceForTask('t1', [aMessage({ id: 'm1' })]);
    cache.org.customFields.replace([
      { id: 'cf', name: 'Size', type: 4, access: 1, params: {}, sortPosition: 1 },
    ]);
    const result = await dispatch('tasks.detail', { taskId: 't1' });
    expect(result).toMatchObject({
      ok: true,
      value: {
        task: { id: 't1' },
        project: { id: 'p1', name: 'Alpha' },
        subtasks: [{ id: 't2' }],
        messages: [{ id: 'm1', taskId: 't1' }],
        customFields: [{ fieldId: 'cf', value: 3, definition: { name: 'Size' } }],
        detailFetchedAt: null,
      },
    });
    expect(sync.status().online).toBe(false);
  });

  it('once offline, answers from the cache without asking the service again', async () => {
    let requests = 0;
    const { cache, dispatch, sync } = setup(() => {
      requests += 1;
      return Promise.reject(new TypeError('fetch failed'));
    });
    cache.projects.upsertMany([aProject({ id: 'p1', name: 'Alpha' })]);
    cache.tasks.upsertMany([aTask({ id: 't1', projectId: 'p1' })].map(flattenTask));
    expect(await dispatch('tasks.detail', { taskId: 't1' })).toMatchObject({ ok: true });
    expect(sync.status().online).toBe(false);
    const asked = requests;
    expect(asked).toBeGreaterThan(0);
    // Opened again (never fetched, so still stale): the cache answers, nothing is sent.
    expect(await dispatch('tasks.detail', { taskId: 't1' })).toMatchObject({
      ok: true,
      value: { task: { id: 't1' } },
    });
    expect(requests).toBe(asked);
  });

  it('answers not-found naming the field for an unknown id, and invalid-argument for a bad window', async () => {
    const { dispatch } = setup(
      async () => new Response(JSON.stringify({ errorMessage: 'no such task' }), { status: 404 }),
    );
    expect(await dispatch('tasks.detail', { taskId: 'nope' })).toEqual({
      ok: false,
      error: { type: 'not-found', message: 'Task nope is not in the cache', field: 'taskId' },
    });
    expect(await dispatch('tasks.list', { projectId: 'p', limit: 0 })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'limit' },
    });
  });

  it('answers not-found for a task the service calls gone even when its dependencies could not be read', async () => {
    // The task and its messages answer 404; its dependencies 500. The service did say the task
    // is gone: a view must be told so, not that the service could not be asked.
    const { cache, dispatch } = setup(async (url) =>
      String(url).includes('/dependencies')
        ? new Response(JSON.stringify({ errorMessage: 'boom' }), { status: 500 })
        : new Response(JSON.stringify({ errorMessage: 'no such task' }), { status: 404 }),
    );
    cache.projects.upsertMany([aProject({ id: 'p1', name: 'Alpha' })]);
    cache.tasks.upsertMany([aTask({ id: 't1', projectId: 'p1' })].map(flattenTask));
    expect(await dispatch('tasks.detail', { taskId: 't1' })).toMatchObject({
      ok: false,
      error: { type: 'not-found', field: 'taskId' },
    });
    expect(cache.tasks.get('t1')).toBeNull();
  });

  it('never answers not-found for an item the cache lacks when the ask about it failed (a 500, the network)', async () => {
    // A task with time in My Time the cache never held: the service could not say, so the
    // answer must not read as "deleted" (a view calls a not-found while online gone).
    const failing = setup(
      async () => new Response(JSON.stringify({ errorMessage: 'boom' }), { status: 500 }),
    );
    expect(await failing.dispatch('tasks.detail', { taskId: 't404' })).toEqual({
      ok: false,
      error: {
        type: 'offline',
        message: 'The service did not answer about this task just now (t404, not kept here); try again',
        field: 'taskId',
      },
    });
    expect(await failing.dispatch('crm.contact', { contactId: 'c404' })).toEqual({
      ok: false,
      error: {
        type: 'offline',
        message: 'The service did not answer about this contact just now (c404, not kept here); try again',
        field: 'contactId',
      },
    });
    const unreachable = setup();
    expect(await unreachable.dispatch('tasks.detail', { taskId: 't404' })).toMatchObject({
      ok: false,
      error: { type: 'offline' },
    });
    // Known to be offline, nothing is asked: the cache's "not in the cache" as before.
    expect(unreachable.sync.status().online).toBe(false);
    expect(await unreachable.dispatch('tasks.detail', { taskId: 't404' })).toMatchObject({
      ok: false,
      error: { type: 'not-found' },
    });
  });

  it('removes an item the service says is gone and answers not-found', async () => {
    const { cache, dispatch } = setup(
      async () => new Response(JSON.stringify({ errorMessage: 'no such task' }), { status: 404 }),
    );
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1' }))]);
    expect(await dispatch('tasks.detail', { taskId: 't1' })).toMatchObject({
      ok: false,
      error: { type: 'not-found' },
    });
    expect(cache.tasks.get('t1')).toBeNull();
  });

  it('fetches document content once and serves it from the cache after', async () => {
    let calls = 0;
    const doc = { ...aDocument({ id: 'd1', projectId: 'p1' }), content: 'Hello' };
    const { cache, dispatch } = setup(async () => {
      calls++;
      return new Response(JSON.stringify(doc), { status: 200 });
    });
    cache.projectParts.replaceDocuments(['p1'], [aDocument({ id: 'd1', projectId: 'p1' })]);
    expect(await dispatch('documents.get', { documentId: 'd1' })).toEqual({ ok: true, value: doc });
    expect(await dispatch('documents.get', { documentId: 'd1' })).toEqual({ ok: true, value: doc });
    expect(calls).toBe(1);
  });

  it("lists a project's documents, with subfolders those of every project below it", async () => {
    const { cache, dispatch } = setup();
    cache.projects.upsertMany([
      aProject({ id: 'p1', name: 'Alpha' }),
      aProject({ id: 'f1', name: 'Sub', parentProjectId: 'p1' }),
      aProject({ id: 'p2', name: 'Deep', parentProjectId: 'f1' }),
      aProject({ id: 'x', name: 'Elsewhere' }),
    ]);
    cache.projectParts.replaceDocuments(
      ['p1', 'f1', 'p2', 'x'],
      [
        aDocument({ id: 'd1', projectId: 'p1', name: 'Brief' }),
        aDocument({ id: 'd2', projectId: 'p2', name: 'Appendix' }),
        aDocument({ id: 'd3', projectId: 'x', name: 'Other' }),
      ],
    );
    const ids = async (input: { projectId: string; subfolders?: boolean }) => {
      const result = await dispatch('documents.list', input);
      if (!result.ok) throw new Error(result.error.message);
      return (result.value as { id: string }[]).map((d) => d.id);
    };
    expect(await ids({ projectId: 'p1' })).toEqual(['d1']);
    expect(await ids({ projectId: 'p1', subfolders: true })).toEqual(['d2', 'd1']);
    expect(await ids({ projectId: 'f1', subfolders: true })).toEqual(['d2']);
    expect(await dispatch('documents.list', { projectId: 'nope' })).toMatchObject({
      ok: false,
      error: { type: 'not-found' },
    });
    expect(await dispatch('documents.list', { projectId: 'p1', subfolders: 'yes' })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument' },
    });
  });

  it('lists CRM records and resolves an account with its contacts', async () => {
    const { cache, dispatch } = setup();
    cache.crm.replaceContacts([aContact({ id: 'c1', crmAccountId: 'a1' }), aContact({ id: 'c2' })]);
    cache.crm.replaceAccounts([anAccount({ id: 'a1', contacts: ['c1'] })]);
    expect(await dispatch('crm.account', { accountId: 'a1' })).toMatchObject({
      ok: true,
      value: { account: { id: 'a1' }, contacts: [{ id: 'c1' }], taskIds: [] },
    });
    expect(await dispatch('crm.contacts', { accountId: 'a1' })).toMatchObject({
      ok: true,
      value: { total: 1 },
    });
  });

  it('reports the sync status', async () => {
    const { dispatch } = setup();
    expect(await dispatch('sync.status', {})).toMatchObject({
      ok: true,
      value: { online: true, running: false, phase: 'idle', pendingCount: 0, lastSyncedAt: null },
    });
  });

  it("fetches an event's dependencies when first opened and again once they are a minute old", async () => {
    let calls = 0;
    let now = new Date(2026, 0, 15, 9, 0, 0);
    const answer = {
      predecessors: [{ id: 'd1', type: 5, predecessorTaskId: 't1' }],
      successors: [{ id: 'd2', type: 7, successorProjectId: 'p1' }],
    };
    const { cache, dispatch } = setup(
      async (url) => {
        calls++;
        expect(String(url)).toContain('/event/e1/dependencies');
        return new Response(JSON.stringify(answer), { status: 200 });
      },
      { clock: () => now },
    );
    cache.projects.upsertMany([aProject({ id: 'p1', name: 'Alpha' })]);
    const expected = [
      {
        id: 'd1',
        type: 5,
        predecessor: { kind: 'task', id: 't1', name: null },
        successor: { kind: 'event', id: 'e1', name: null },
      },
      {
        id: 'd2',
        type: 7,
        predecessor: { kind: 'event', id: 'e1', name: null },
        successor: { kind: 'project', id: 'p1', name: 'Alpha' },
      },
    ];
    expect(await dispatch('dependencies.ofEvent', { eventId: 'e1' })).toEqual({ ok: true, value: expected });
    now = new Date(2026, 0, 15, 9, 0, 59);
    expect(await dispatch('dependencies.ofEvent', { eventId: 'e1' })).toEqual({ ok: true, value: expected });
    expect(calls).toBe(1);
    now = new Date(2026, 0, 15, 9, 1, 1);
    answer.successors = [];
    expect(await dispatch('dependencies.ofEvent', { eventId: 'e1' })).toEqual({
      ok: true,
      value: [expected[0]],
    });
    expect(calls).toBe(2);
  });

  it('never fetches for a local id, and answers cached dependencies when the service is unreachable', async () => {
    const { cache, dispatch, log } = setup();
    cache.dependencies.replaceFor('project', 'p1', {
      predecessors: [{ id: 'd1', type: 6, predecessorEventId: 'e1' }],
      successors: [],
    });
    expect(await dispatch('dependencies.ofProject', { projectId: 'p1' })).toMatchObject({
      ok: true,
      value: [
        { id: 'd1', predecessor: { kind: 'event', id: 'e1' }, successor: { kind: 'project', id: 'p1' } },
      ],
    });
    expect(log.filter((m) => m.includes('on-demand fetch failed'))).toHaveLength(1);
    expect(await dispatch('dependencies.ofProject', { projectId: 'local-p9' })).toEqual({
      ok: true,
      value: [],
    });
    expect(log.filter((m) => m.includes('on-demand fetch failed'))).toHaveLength(1);
  });

  it('drops the cached dependencies of an event the service says is gone', async () => {
    let now = new Date(2026, 0, 15, 9, 0, 0);
    const { cache, dispatch } = setup(
      async () => new Response(JSON.stringify({ errorMessage: 'no such event' }), { status: 404 }),
      { clock: () => now },
    );
    cache.dependencies.replaceFor('event', 'e1', {
      predecessors: [{ id: 'd1', type: 5, predecessorTaskId: 't1' }],
      successors: [],
    });
    expect(await dispatch('dependencies.ofEvent', { eventId: 'e1' })).toEqual({ ok: true, value: [] });
    expect(cache.dependencies.listFor('t1')).toEqual([]);
    now = new Date(2026, 0, 15, 9, 0, 30);
    expect(await dispatch('dependencies.ofEvent', { eventId: 'e1' })).toEqual({ ok: true, value: [] });
  });

  it('keeps a dependency with a pending local create or delete when the service answers without it', async () => {
    let calls = 0;
    const pending: PendingFields = {
      ...noPending,
      isPendingStructural: (entity, id) => entity === 'dependency' && (id === 'local-d9' || id === 'd2'),
    };
    const { cache, dispatch } = setup(
      async () => {
        calls++;
        return new Response(
          JSON.stringify({ predecessors: [], successors: [{ id: 'd2', type: 5, successorTaskId: 't2' }] }),
          {
            status: 200,
          },
        );
      },
      { pending },
    );
    // d1 was removed on the service; local-d9 waits to be created; d2 waits to be deleted locally.
    cache.dependencies.replaceFor('event', 'e1', {
      predecessors: [],
      successors: [
        { id: 'd1', type: 5, successorTaskId: 't1' },
        { id: 'local-d9', type: 6, successorTaskId: 't3' },
      ],
    });
    const result = await dispatch('dependencies.ofEvent', { eventId: 'e1' });
    expect(calls).toBe(1);
    expect(cache.dependencies.listFor('e1').map((d) => d.id)).toEqual(['local-d9']);
    expect(result).toMatchObject({ ok: true, value: [{ id: 'local-d9' }] });
  });

  it('lists project templates, asking the service once when no pull brought them', async () => {
    let calls = 0;
    const { dispatch } = setup(async () => {
      calls++;
      return new Response(
        JSON.stringify([
          { id: 'pt2', name: 'Kanban' },
          { id: 'pt1', name: 'Agile' },
        ]),
        {
          status: 200,
        },
      );
    });
    const expected = {
      ok: true,
      value: [
        { id: 'pt1', name: 'Agile' },
        { id: 'pt2', name: 'Kanban' },
      ],
    };
    expect(await dispatch('projects.templates', {})).toEqual(expected);
    expect(await dispatch('projects.templates', {})).toEqual(expected);
    expect(calls).toBe(1);
  });

  it('answers no templates, without asking again, when the service does not offer the list', async () => {
    let calls = 0;
    const { dispatch } = setup(async () => {
      calls++;
      return new Response('Not Found', { status: 404 });
    });
    expect(await dispatch('projects.templates', {})).toEqual({ ok: true, value: [] });
    expect(await dispatch('projects.templates', {})).toEqual({ ok: true, value: [] });
    expect(calls).toBe(1);
  });

  it('fetches the single-account response when an account is first opened, then serves the cache', async () => {
    let calls = 0;
    const { cache, dispatch } = setup(async (url) => {
      calls++;
      expect(String(url)).toContain('/crm/account/a1');
      const { accountOwnerUserId, contacts: _contacts, ...rest } = anAccount({ id: 'a1', name: 'Renamed' });
      return new Response(
        JSON.stringify({
          account: { ...rest, companyId: 'co', contactOwnerUserId: accountOwnerUserId },
          contacts: ['c1', 'c2'],
        }),
        { status: 200 },
      );
    });
    cache.crm.replaceContacts([aContact({ id: 'c1' }), aContact({ id: 'c2' })]);
    cache.crm.replaceAccounts([anAccount({ id: 'a1', contacts: [] })]);
    const expected = {
      ok: true,
      value: {
        account: { id: 'a1', name: 'Renamed', contacts: ['c1', 'c2'] },
        contacts: [{ id: 'c1' }, { id: 'c2' }],
      },
    };
    expect(await dispatch('crm.account', { accountId: 'a1' })).toMatchObject(expected);
    expect(await dispatch('crm.account', { accountId: 'a1' })).toMatchObject(expected);
    expect(calls).toBe(1);
  });

  it('removes an account the service says is gone and answers not-found', async () => {
    const { cache, dispatch } = setup(
      async () => new Response(JSON.stringify({ errorMessage: 'gone' }), { status: 404 }),
    );
    cache.crm.replaceAccounts([anAccount({ id: 'a1' })]);
    expect(await dispatch('crm.account', { accountId: 'a1' })).toEqual({
      ok: false,
      error: { type: 'not-found', message: 'Account a1 is not in the cache', field: 'accountId' },
    });
    expect(cache.crm.account('a1')).toBeNull();
  });

  it('never asks the service about a task, project, contact or account with a local id', async () => {
    let calls = 0;
    const { cache, dispatch, sync } = setup(async () => {
      calls++;
      return new Response(JSON.stringify({ errorMessage: 'no such item' }), { status: 404 });
    });
    cache.projects.upsertMany([aProject({ id: 'local-p1', name: 'Offline project' })]);
    // Created offline: no detail or messages were ever fetched for it.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'local-t1', projectId: 'local-p1' }))]);
    cache.crm.replaceContacts([aContact({ id: 'local-c1' })]);
    cache.crm.replaceAccounts([anAccount({ id: 'local-a1' })]);
    expect(await dispatch('tasks.detail', { taskId: 'local-t1' })).toMatchObject({
      ok: true,
      value: { task: { id: 'local-t1' }, project: { id: 'local-p1' }, detailFetchedAt: null },
    });
    expect(await dispatch('projects.detail', { projectId: 'local-p1' })).toMatchObject({
      ok: true,
      value: { project: { id: 'local-p1' } },
    });
    expect(await dispatch('crm.contact', { contactId: 'local-c1' })).toMatchObject({ ok: true });
    expect(await dispatch('crm.account', { accountId: 'local-a1' })).toMatchObject({ ok: true });
    expect(calls).toBe(0);
    expect(sync.status().online).toBe(true);
    expect(cache.tasks.get('local-t1')).not.toBeNull();
  });
});
