// Items created while the outbox holds them (not yet acknowledged) carry local ids: opening them
// answers from the cache and never asks the service about an id it does not know.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startService, TEST_PROFILE, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from '../outbox/support';

let svc: RunningService;
let engine: TestEngine;
const paths: string[] = [];

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, {
    fetch: (url, init) => {
      paths.push(new URL(url).pathname);
      return fetch(url, init);
    },
  });
  expect((await engine.sync.now()).lastError).toBeNull();
});
afterAll(async () => {
  await engine?.close();
  await svc?.close();
});

describe('opening items the service does not know yet', () => {
  it('answers a local project, task, event and their dependencies from the cache alone', async () => {
    engine.outbox.stop();
    // GoodDay lists no templates (the dialog then takes a typed id): the seed's fixed one.
    const [listed] = await engine.call('projects.templates', {});
    if (!listed && TEST_PROFILE === 'spec') throw new Error('the service lists project templates');
    const project = await engine.call('projects.create', {
      name: 'Planned offline',
      projectTemplateId: listed?.id ?? SEED_IDS.templates.project,
      parentProjectId: SEED_IDS.workspace,
    });
    const task = await engine.call('tasks.create', { projectId: project.id, title: 'First step' });
    const event = await engine.call('events.create', {
      eventType: 'project-milestone',
      name: 'Kick-off',
      startDate: '2026-12-01',
      projectId: project.id,
    });
    await engine.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: task.id },
      successor: { kind: 'event', id: event.id },
    });
    for (const id of [project.id, task.id, event.id]) expect(id).toMatch(/^local-/);
    paths.length = 0;

    expect((await engine.call('projects.detail', { projectId: project.id })).project.name).toBe(
      'Planned offline',
    );
    expect((await engine.call('tasks.detail', { taskId: task.id })).task.name).toBe('First step');
    const ofEvent = await engine.call('dependencies.ofEvent', { eventId: event.id });
    expect(ofEvent.map((d) => [d.predecessor.id, d.successor.id])).toEqual([[task.id, event.id]]);
    expect(await engine.call('dependencies.ofProject', { projectId: project.id })).toEqual([]);
    expect(paths.filter((p) => p.includes('local-'))).toEqual([]);
    expect(engine.sync.status().online).toBe(true);

    // Once acknowledged, the real ids are asked about as any other.
    engine.outbox.start();
    await engine.drained();
    const realProject = engine.outbox.realIdOf(project.id);
    if (!realProject) throw new Error('the project create was acknowledged');
    const opened = await engine.call('projects.detail', { projectId: realProject });
    expect(opened.detailFetchedAt).not.toBeNull();
    expect(paths).toContain(`/2.0/project/${realProject}`);
  });
});
