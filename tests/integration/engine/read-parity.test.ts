// After a sync, every read handler answers what the real service answers for the same query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, type RunningService } from '../../support/service';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { ids, testEngine } from './support';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { orgEndpoints } from '../../../src/shared/api/org';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';
import { memberEndpoints } from '../../../src/shared/api/members';
import { historyEndpoints } from '../../../src/shared/api/history';
import { documentEndpoints } from '../../../src/shared/api/documents';
import { eventEndpoints } from '../../../src/shared/api/events';
import { crmEndpoints } from '../../../src/shared/api/crm';
import { customFieldEndpoints } from '../../../src/shared/api/custom-fields';

let svc: RunningService;
let engine: Awaited<ReturnType<typeof testEngine>>;
let api: ServiceClient;
const call: (typeof engine)['call'] = (name, arg) => engine.call(name, arg);

const byId = <T extends { id: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => a.id.localeCompare(b.id));
const ALL = { closed: 'all' as const };

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
  const status = await engine.sync.now();
  expect(status).toMatchObject({ lastError: null, online: true, running: false });
});

afterAll(async () => {
  await engine?.close();
  await svc?.close();
});

describe('read handlers after a sync equal the service', () => {
  it('projects.tree holds every open and archived project, each with its parent', async () => {
    const service = [
      ...(await api.call(projectEndpoints.projects, { query: { archived: false } })),
      ...(await api.call(projectEndpoints.projects, { query: { archived: true } })),
    ];
    const { nodes } = await call('projects.tree', {});
    expect(ids(nodes)).toEqual([...new Set(service.map((p) => p.id))].sort());
    for (const p of service) {
      expect(nodes.find((n) => n.id === p.id)).toMatchObject({
        name: p.name,
        parentProjectId: p.parentProjectId ?? null,
        systemStatus: p.systemStatus,
      });
    }
    const open = await call('projects.tree', { includeArchived: false });
    expect(open.nodes.every((n) => !n.archived)).toBe(true);
  });

  it('tasks.list of every project equals the project task list, with and without subprojects', async () => {
    const { nodes } = await call('projects.tree', {});
    for (const node of nodes) {
      const own = await api.call(taskEndpoints.projectTasks, { id: node.id, query: { closed: true } });
      const mine = await call('tasks.list', { projectId: node.id, filter: ALL, limit: 50_000 });
      expect(ids(mine.rows)).toEqual(ids(own));
      expect(mine.total).toBe(own.length);
      const openOnly = await call('tasks.list', { projectId: node.id });
      expect(ids(openOnly.rows)).toEqual(ids(await api.call(taskEndpoints.projectTasks, { id: node.id })));
      const deep = await api.call(taskEndpoints.projectTasks, {
        id: node.id,
        query: { closed: true, subfolders: true },
      });
      const mineDeep = await call('tasks.list', {
        projectId: node.id,
        includeSubprojects: true,
        filter: ALL,
        limit: 50_000,
      });
      expect(ids(mineDeep.rows)).toEqual(ids(deep));
      for (const t of own)
        expect(engine.cache.tasks.get(t.id)).toEqual({
          ...t,
          formSubmission: t.formSubmission ?? null,
          crmAccountId: null,
        });
    }
  });

  it('My Work and tag lists equal the user and tag task lists', async () => {
    const user = svc.users.bob;
    const action = await api.call(taskEndpoints.actionRequiredTasks, { id: user });
    expect(
      ids((await call('tasks.myWork', { kind: 'actionRequired', userId: user, limit: 5000 })).rows),
    ).toEqual(ids(action));
    const assignedOpen = await api.call(taskEndpoints.assignedTasks, { id: user });
    expect(ids((await call('tasks.myWork', { kind: 'assigned', userId: user, limit: 5000 })).rows)).toEqual(
      ids(assignedOpen),
    );
    const assignedAll = await api.call(taskEndpoints.assignedTasks, { id: user, query: { closed: true } });
    expect(
      ids((await call('tasks.myWork', { kind: 'assigned', userId: user, filter: ALL, limit: 5000 })).rows),
    ).toEqual(ids(assignedAll));
    // GoodDay has no tag list (`GET /tags` is our extension): the seed's fixed tag ids stand in.
    const tags =
      svc.profile === 'goodday'
        ? Object.values(SEED_IDS.tags).map((id) => ({ id }))
        : ((await api.call(orgEndpoints.tags)) ?? []);
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      const all = await api.call(taskEndpoints.tagTasks, { id: tag.id, query: { closed: true } });
      expect(ids((await call('tasks.byTag', { tagId: tag.id, filter: ALL, limit: 5000 })).rows)).toEqual(
        ids(all),
      );
    }
  });

  it('tasks.detail equals the single-task response, its messages and dependencies', async () => {
    const { rows } = await call('tasks.myWork', {
      kind: 'assigned',
      userId: svc.users.bob,
      filter: ALL,
      limit: 15,
    });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const detail = await call('tasks.detail', { taskId: row.id });
      const service = await api.call(taskEndpoints.task, { id: row.id });
      const { subtasks, tags, crmContactIds, crmAccountId, ...task } = service;
      expect(detail.task).toEqual({
        ...task,
        formSubmission: task.formSubmission ?? null,
        crmAccountId: crmAccountId ?? null,
      });
      expect(ids(detail.subtasks)).toEqual(ids(subtasks));
      expect(ids(detail.tags)).toEqual([...(tags ?? [])].sort());
      expect(detail.crmContacts.map((c) => c.id).sort()).toEqual([...(crmContactIds ?? [])].sort());
      const messages = await api.call(messageEndpoints.taskMessages, { id: row.id });
      expect(detail.messages).toEqual(messages.map((m) => ({ ...m, taskId: row.id })));
      const deps = await api.call(dependencyEndpoints.dependencies, { kind: 'task', id: row.id });
      expect(detail.dependencies.map((d) => d.id).sort()).toEqual(
        ids([...deps.predecessors, ...deps.successors]),
      );
      expect(detail.detailFetchedAt).not.toBeNull();
    }
  });

  it('projects.detail and documents.get equal the project, members, history and documents', async () => {
    const { nodes } = await call('projects.tree', {});
    for (const node of nodes.slice(0, 8)) {
      const detail = await call('projects.detail', { projectId: node.id });
      // `systemType` is what `isFolder` is read from; the cache keeps the flag alone.
      const { systemType: _type, ...served } = await api.call(projectEndpoints.project, { id: node.id });
      expect(detail.project).toEqual(served);
      expect(byId(detail.members)).toEqual(
        byId(await api.call(memberEndpoints.projectUsers, { id: node.id })),
      );
      expect(byId(detail.history)).toEqual(
        byId(await api.call(historyEndpoints.projectHistory, { id: node.id })),
      );
      const docs = await api.call(documentEndpoints.projectDocuments, { id: node.id });
      expect(byId(detail.documents)).toEqual(byId(docs));
      for (const d of docs)
        expect(await call('documents.get', { documentId: d.id })).toEqual(
          await api.call(documentEndpoints.document, { id: d.id }),
        );
    }
  });

  it('events.list equals the events of a window, by type too', async () => {
    const window = { startDate: '2026-01-01', endDate: '2027-06-30' };
    const service = await api.call(eventEndpoints.events, { query: window });
    expect(service.length).toBeGreaterThan(0);
    expect(byId(await call('events.list', { from: window.startDate, to: window.endDate }))).toEqual(
      byId(service),
    );
    const milestones = await api.call(eventEndpoints.events, {
      query: { ...window, eventTypes: ['project-milestone'] },
    });
    expect(
      ids(
        await call('events.list', {
          from: window.startDate,
          to: window.endDate,
          types: ['project-milestone'],
        }),
      ),
    ).toEqual(ids(milestones));
  });

  it('CRM lists and records equal the service', async () => {
    const contacts = await api.call(crmEndpoints.crmContacts);
    expect(byId((await call('crm.contacts', { includeDeleted: true, limit: 5000 })).rows)).toEqual(
      byId(contacts),
    );
    const accounts = await api.call(crmEndpoints.crmAccounts);
    expect(byId((await call('crm.accounts', { includeDeleted: true, limit: 5000 })).rows)).toEqual(
      byId(accounts),
    );
    for (const c of contacts.filter((x) => !x.isDeleted)) {
      const mine = await call('crm.contact', { contactId: c.id });
      const service = await api.call(crmEndpoints.crmContact, { id: c.id });
      expect(mine.contact).toEqual(service.contact);
      expect(byId(mine.tasks)).toEqual(byId(service.tasks));
    }
    for (const a of accounts.filter((x) => !x.isDeleted)) {
      const mine = await call('crm.account', { accountId: a.id });
      const service = await api.call(crmEndpoints.crmAccount, { id: a.id });
      expect(ids(mine.contacts)).toEqual([...service.contacts].sort());
    }
  });

  it('org lists equal the service', async () => {
    // The cache keeps the fields the shared schemas name; GoodDay's lists carry more (a user's
    // role and rates, a status's color), which the spec's lists do not have.
    const kept = <T extends object>(list: readonly T[] | null, keys: readonly (keyof T & string)[]) =>
      (list ?? []).map((item) => Object.fromEntries(keys.map((k) => [k, item[k]])));
    expect(byId(await call('org.users', {}))).toEqual(
      byId(kept(await api.call(orgEndpoints.users), ['id', 'name', 'primaryEmail']) as { id: string }[]),
    );
    expect(byId(await call('org.statuses', {}))).toEqual(
      byId(
        kept(await api.call(orgEndpoints.statuses), ['id', 'name', 'systemStatus', 'isClosed']) as {
          id: string;
        }[],
      ),
    );
    expect(byId(await call('org.taskTypes', {}))).toEqual(
      byId(kept(await api.call(orgEndpoints.taskTypes), ['id', 'name']) as { id: string }[]),
    );
    expect(byId(await call('org.customFields', {}))).toEqual(
      byId(await api.call(customFieldEndpoints.customFields)),
    );
    if (svc.profile === 'goodday') {
      // No tag list on GoodDay: the tags seen on the service's tasks, each named by its id.
      expect(await api.call(orgEndpoints.tags)).toBeNull();
      const seen = await call('org.tags', {});
      expect(seen.length).toBeGreaterThan(0);
      for (const tag of seen) {
        expect(tag).toEqual({ id: tag.id, name: tag.id, color: null });
        expect(
          (await api.call(taskEndpoints.tagTasks, { id: tag.id, query: { closed: true } })).length,
        ).toBeGreaterThan(0);
      }
    } else {
      expect(byId(await call('org.tags', {}))).toEqual(byId((await api.call(orgEndpoints.tags)) ?? []));
    }
    expect(byId(await call('projects.templates', {}))).toEqual(
      byId((await api.call(orgEndpoints.projectTemplates)) ?? []),
    );
  });

  it('search finds every project and folder of the service by its name', async () => {
    for (const p of [
      ...(await api.call(projectEndpoints.projects)),
      ...(await api.call(projectEndpoints.projects, { query: { archived: true } })),
    ]) {
      const { hits } = await call('search.query', { text: p.name, kinds: ['project'], limit: 500 });
      expect(hits.find((h) => h.id === p.id)).toMatchObject({
        kind: 'project',
        title: p.name,
        projectId: p.id,
      });
    }
  });

  it('search finds a task by a word of its name', async () => {
    const { rows } = await call('tasks.myWork', { kind: 'assigned', userId: svc.users.bob, limit: 1 });
    const word = rows[0]!.name.split(' ')[0]!;
    const { hits } = await call('search.query', { text: word, kinds: ['task'], limit: 500 });
    expect(hits.map((h) => h.id)).toContain(rows[0]!.id);
  });
});
