// What views open on demand (project templates, dependencies of events and projects, a CRM
// account), read through the engine's channels against the real service: fetched when first
// asked, cached, equal to the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, TEST_PROFILE, type RunningService } from '../../support/service';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { DependencyView } from '../../../src/shared/ipc/tasks';
import { ids, testEngine } from './support';
import { orgEndpoints } from '../../../src/shared/api/org';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { eventEndpoints } from '../../../src/shared/api/events';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';
import { crmEndpoints } from '../../../src/shared/api/crm';

let svc: RunningService;
let api: ServiceClient;
let engine: Awaited<ReturnType<typeof testEngine>>;

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
});

afterAll(async () => {
  await engine?.close();
  await svc?.close();
});

/** The ends of each dependency, as `kind:id>kind:id` with the type, sorted. */
const shape = (list: readonly DependencyView[]) =>
  list
    .map((d) => `${d.type} ${d.predecessor.kind}:${d.predecessor.id}>${d.successor.kind}:${d.successor.id}`)
    .sort();

// GoodDay has no template list (`GET /project-templates` is our extension): against it the
// engine asks once, remembers that the list is not offered, and answers with the ids that made
// a project before (none yet); the typed ids themselves are tested by the outbox's project writes.
const templatesSuite = TEST_PROFILE === 'goodday' ? describeUnlisted : describeListed;
templatesSuite();

function describeUnlisted(): void {
  describe('projects.templates where the service lists none', () => {
    it('asks once, then answers from the cache with no templates and no failed pull', async () => {
      expect(await api.call(orgEndpoints.projectTemplates)).toBeNull();
      const other = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
      try {
        expect((await other.sync.now()).lastError).toBeNull();
        const before = other.client.requestCount;
        expect(await other.call('projects.templates', {})).toEqual([]);
        expect(await other.call('projects.templates', {})).toEqual([]);
        expect(other.client.requestCount).toBe(before);
      } finally {
        await other.close();
      }
    });
  });
}

function describeListed(): void {
  describe('projects.templates', () => {
    it('asks the service when no pull brought them yet, then answers from the cache', async () => {
      const service = await api.call(orgEndpoints.projectTemplates);
      expect(service?.length).toBeGreaterThan(0);
      const before = engine.client.requestCount;
      const first = await engine.call('projects.templates', {});
      expect(ids(first)).toEqual(ids(service ?? []));
      expect(first.map((t) => t.name).sort()).toEqual((service ?? []).map((t) => t.name).sort());
      expect(engine.client.requestCount).toBe(before + 1);
      expect(await engine.call('projects.templates', {})).toEqual(first);
      expect(engine.client.requestCount).toBe(before + 1);
    });

    it('comes with the pull, and a template id from it creates a project on the service', async () => {
      const other = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
      try {
        expect((await other.sync.now()).lastError).toBeNull();
        const before = other.client.requestCount;
        const templates = await other.call('projects.templates', {});
        expect(other.client.requestCount).toBe(before);
        expect(ids(templates)).toEqual(ids((await api.call(orgEndpoints.projectTemplates)) ?? []));
        const template = templates[0];
        if (!template) throw new Error('the demo seed has templates');
        const created = await api.call(projectEndpoints.newProject, {
          body: {
            createdByUserId: svc.users.actingUserId,
            projectTemplateId: template.id,
            name: 'From a listed template',
          },
        });
        expect(created.name).toBe('From a listed template');
      } finally {
        await other.close();
      }
    });
  });
}

describe('dependencies.ofEvent and dependencies.ofProject', () => {
  it("fetch an item's dependencies when opened and equal what the service answers", async () => {
    await engine.sync.now();
    const [project] = await api.call(projectEndpoints.projects);
    if (!project) throw new Error('the demo seed has projects');
    const [task] = await api.call(taskEndpoints.projectTasks, {
      id: project.id,
      query: { subfolders: true },
    });
    if (!task) throw new Error('the demo seed has tasks');
    const event = await api.call(eventEndpoints.createEvent, {
      body: {
        createdByUserId: svc.users.actingUserId,
        eventType: 'project-milestone',
        name: 'Launch gate',
        startDate: '2026-12-01',
        projectId: project.id,
      },
    });
    const by = svc.users.actingUserId;
    await api.call(dependencyEndpoints.createDependency, {
      body: {
        type: 5,
        createdByUserId: by,
        predecessorTaskId: task.id,
        successorEventId: event.id,
      },
    });
    await api.call(dependencyEndpoints.createDependency, {
      body: {
        type: 7,
        createdByUserId: by,
        predecessorEventId: event.id,
        successorProjectId: project.id,
      },
    });

    const ofEvent = await engine.call('dependencies.ofEvent', { eventId: event.id });
    expect(shape(ofEvent)).toEqual([
      `5 task:${task.id}>event:${event.id}`,
      `7 event:${event.id}>project:${project.id}`,
    ]);
    const fromService = await api.call(dependencyEndpoints.dependencies, { kind: 'event', id: event.id });
    expect(ids(ofEvent)).toEqual(ids([...fromService.predecessors, ...fromService.successors]));
    // Names of the cached ends come along (the task and the project were pulled).
    expect(ofEvent.find((d) => d.type === 5)?.predecessor.name).toBe(task.name);
    expect(ofEvent.find((d) => d.type === 7)?.successor.name).toBe(project.name);

    const ofProject = await engine.call('dependencies.ofProject', { projectId: project.id });
    const projectService = await api.call(dependencyEndpoints.dependencies, {
      kind: 'project',
      id: project.id,
    });
    expect(ids(ofProject)).toEqual(ids([...projectService.predecessors, ...projectService.successors]));
    expect(shape(ofProject)).toContain(`7 event:${event.id}>project:${project.id}`);

    // Fetched a moment ago: the next open answers from the cache without a request.
    const before = engine.client.requestCount;
    expect(await engine.call('dependencies.ofEvent', { eventId: event.id })).toEqual(ofEvent);
    expect(engine.client.requestCount).toBe(before);
  });

  it('an event gone from the service answers no dependencies', async () => {
    const [project] = await api.call(projectEndpoints.projects);
    if (!project) throw new Error('the demo seed has projects');
    const event = await api.call(eventEndpoints.createEvent, {
      body: {
        createdByUserId: svc.users.actingUserId,
        eventType: 'project-milestone',
        name: 'Short-lived',
        startDate: '2026-12-02',
        projectId: project.id,
      },
    });
    await api.call(dependencyEndpoints.createDependency, {
      body: {
        type: 6,
        createdByUserId: svc.users.actingUserId,
        predecessorEventId: event.id,
        successorProjectId: project.id,
      },
    });
    await api.call(eventEndpoints.deleteEvent, { id: event.id });
    expect(await engine.call('dependencies.ofEvent', { eventId: event.id })).toEqual([]);
  });

  it('never asks the service about a local id of an item created offline', async () => {
    const before = engine.client.requestCount;
    expect(await engine.call('dependencies.ofEvent', { eventId: 'local-abc' })).toEqual([]);
    expect(await engine.call('dependencies.ofProject', { projectId: 'local-def' })).toEqual([]);
    expect(engine.client.requestCount).toBe(before);
  });
});

describe('crm.account', () => {
  it('fetches the single-account response when opened: its contacts, and an account no pull brought', async () => {
    await engine.sync.now();
    const accounts = await api.call(crmEndpoints.crmAccounts);
    const withContacts = accounts.find((a) => a.contacts.length > 0 && !a.isDeleted);
    if (!withContacts) throw new Error('the demo seed has an account with contacts');
    const single = await api.call(crmEndpoints.crmAccount, { id: withContacts.id });
    const opened = await engine.call('crm.account', { accountId: withContacts.id });
    expect(opened.account).toMatchObject({ id: single.account.id, name: single.account.name });
    expect(opened.contacts.map((c) => c.id).sort()).toEqual([...single.contacts].sort());

    await api.call(crmEndpoints.createCrmAccount, {
      body: { createdByUserId: svc.users.actingUserId, name: 'Opened before any pull' },
    });
    const fresh = (await api.call(crmEndpoints.crmAccounts)).find((a) => a.name === 'Opened before any pull');
    if (!fresh) throw new Error('the account was created');
    expect(engine.cache.crm.account(fresh.id)).toBeNull();
    const before = engine.client.requestCount;
    expect((await engine.call('crm.account', { accountId: fresh.id })).account.name).toBe(
      'Opened before any pull',
    );
    // Opened again: the cache answers.
    await engine.call('crm.account', { accountId: fresh.id });
    expect(engine.client.requestCount).toBe(before + 1);
  });
});
