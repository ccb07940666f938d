import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../api/client';
import { createCache } from '../cache/cache';
import { openCacheDb } from '../cache/db';
import { aContact, aDocument, aMessage, anAccount, aProject, aTask } from '../cache/fixtures';
import { flattenTask } from '../cache/repos/tasks';
import { createDispatch } from '../dispatch';
import { noPending } from '../sync/pending';
import { createSync } from '../sync/sync';
import { readHandlers } from './read';
import type { FetchLike } from '../api/http';

/** Handlers over an in-memory cache whose service answers `answer` (default: unreachable). */
function setup(answer: FetchLike = () => Promise.reject(new TypeError('fetch failed'))) {
  const cache = createCache(openCacheDb(':memory:'));
  const client = createServiceClient({
    baseUrl: 'http://svc.test/2.0',
    token: 't',
    fetch: answer,
    timeoutMs: 1000,
  });
  const log: string[] = [];
  const sync = createSync({
    cache,
    client,
    pending: noPending,
    userId: 'me',
    clock: () => new Date(2026, 0, 15),
    log: (m) => log.push(m),
    emitChange: () => {},
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const dispatch = createDispatch(readHandlers({ cache, sync, userId: 'me', log: (m) => log.push(m) }));
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

  it('answers not-found naming the field for an unknown id, and invalid-argument for a bad window', async () => {
    const { dispatch } = setup();
    expect(await dispatch('tasks.detail', { taskId: 'nope' })).toEqual({
      ok: false,
      error: { type: 'not-found', message: 'Task nope is not in the cache', field: 'taskId' },
    });
    expect(await dispatch('tasks.list', { projectId: 'p', limit: 0 })).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'limit' },
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
});
