// A refresh after changes made directly on the service shows them, fetching only what moved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../support/service';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { CacheChange } from '../../../src/shared/ipc/events';
import { ids, testEngine } from './support';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { messageEndpoints } from '../../../src/shared/api/messages';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { eventEndpoints } from '../../../src/shared/api/events';
import { crmEndpoints } from '../../../src/shared/api/crm';

let svc: RunningService;
let engine: Awaited<ReturnType<typeof testEngine>>;
let api: ServiceClient;

beforeAll(async () => {
  svc = await startService({ seed: 'demo' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
  expect((await engine.sync.now()).lastError).toBeNull();
});

afterAll(async () => {
  await engine?.close();
  await svc?.close();
});

describe('refresh', () => {
  it('shows tasks, messages, projects, events and CRM changed on the service', async () => {
    const me = svc.users.actingUserId;
    const { nodes } = await engine.call('projects.tree', {});
    const project = nodes.find((n) => n.openTaskCount >= 3 && !n.archived)!;
    const before = await engine.call('tasks.list', { projectId: project.id, limit: 1000 });
    const [renamed, doomed, commented] = before.rows;
    const initialRequests = engine.client.requestCount;

    await api.call(taskEndpoints.updateTask, {
      id: renamed!.id,
      body: { userId: me, title: 'Renamed on the service' },
    });
    await api.call(taskEndpoints.deleteTask, { id: doomed!.id });
    const created = await api.call(taskEndpoints.createTask, {
      body: {
        projectId: project.id,
        title: 'Created on the service',
        fromUserId: me,
      },
    });
    await api.call(messageEndpoints.comment, {
      id: commented!.id,
      body: { userId: me, message: 'zebra crossing ahead' },
    });
    await api.call(projectEndpoints.updateProject, {
      id: project.id,
      body: { userId: me, statusComments: 'Checked by the refresh test' },
    });
    const event = await api.call(eventEndpoints.createEvent, {
      body: {
        createdByUserId: me,
        eventType: 'company-event',
        name: 'Refresh party',
        startDate: '2026-12-01',
        endDate: '2026-12-02',
      },
    });
    await api.call(crmEndpoints.createCrmContact, {
      body: { createdByUserId: me, firstName: 'Refreshed', lastName: 'Contact' },
    });

    const changes: CacheChange[] = [];
    const off = engine.events.onAny((name, payload) => {
      if (name === 'cache.onDidChange') changes.push(payload as CacheChange);
    });
    const status = await engine.sync.now();
    off();
    expect(status.lastError).toBeNull();

    const after = await engine.call('tasks.list', { projectId: project.id, limit: 1000 });
    expect(after.rows.find((r) => r.id === renamed!.id)?.name).toBe('Renamed on the service');
    expect(after.rows.some((r) => r.id === doomed!.id)).toBe(false);
    expect(after.rows.some((r) => r.id === created.id && r.name === 'Created on the service')).toBe(true);
    expect(ids(after.rows)).toEqual(ids(await api.call(taskEndpoints.projectTasks, { id: project.id })));
    // The commented task's messages came with the refresh, before anyone opened it.
    expect(engine.cache.messages.listForTask(commented!.id).map((m) => m.message)).toContain(
      'zebra crossing ahead',
    );
    expect(
      (await engine.call('search.query', { text: 'zebra', limit: 10 })).hits.map((h) => h.kind),
    ).toContain('message');
    expect(engine.cache.projects.get(project.id)?.statusComments).toBe('Checked by the refresh test');
    expect(ids(await engine.call('events.list', { from: '2026-12-01', to: '2026-12-01' }))).toContain(
      event.id,
    );
    const contacts = await engine.call('crm.contacts', { text: 'Refreshed' });
    expect(contacts.rows.map((c) => c.lastName)).toEqual(['Contact']);
    expect(changes.flatMap((c) => c.entities)).toEqual(
      expect.arrayContaining(['tasks', 'messages', 'projects', 'events']),
    );

    // Only lists and the few tasks whose activity moved were fetched, not every task again.
    const refreshRequests = engine.client.requestCount - initialRequests;
    const taskCount = engine.db.prepare('SELECT count(*) AS n FROM tasks').pluck().get() as number;
    expect(refreshRequests).toBeLessThan(taskCount / 4);
  });
});
