// The whole first pull of a new account, against our service answering as the spec says and as
// GoodDay's live service does (the goodday profile: statuses without isClosed, null project
// statuses, no isFolder, no tag or template list, UTC moments, 6-character ids, ...).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine } from '../engine/support';

describe.each(SERVICE_PROFILES)('the first pull from the %s profile', (profile) => {
  let svc: RunningService;
  let engine: Awaited<ReturnType<typeof testEngine>>;

  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
  });
  afterAll(async () => {
    await engine?.close();
    await svc?.close();
  });

  it('caches the tree, My Work, projects, tasks with messages, events and CRM, reading everything', async () => {
    const status = await engine.sync.now();
    expect(status.lastError).toBeNull();
    expect(status.readProblems).toEqual([]);
    expect(status.lastSyncedAt).not.toBeNull();

    // The organization lists; a status closes from its flag or, without one, its systemStatus.
    const statuses = await engine.call('org.statuses', {});
    expect(statuses.find((s) => s.name === 'Done')?.isClosed).toBe(true);
    expect(statuses.find((s) => s.name === 'In Progress')?.isClosed).toBe(false);
    expect((await engine.call('org.users', {})).map((u) => u.name)).toContain('Ada Lindqvist');

    // The tree: folders known as folders (isFolder or systemType), projects under them.
    const { nodes } = await engine.call('projects.tree', {});
    expect(nodes.length).toBeGreaterThan(5);
    const folders = nodes.filter((n) => n.isFolder);
    expect(folders.length).toBeGreaterThan(0);
    expect(nodes.some((n) => !n.isFolder && n.depth > 0)).toBe(true);

    // My Work.
    const myWork = await engine.call('tasks.myWork', { kind: 'actionRequired' });
    expect(myWork.total).toBeGreaterThan(0);

    // A project's tasks, and a task with its messages.
    const project = nodes.find((n) => !n.isFolder && n.taskCount > 0);
    expect(project).toBeDefined();
    const tasks = await engine.call('tasks.list', {
      projectId: project?.id ?? '',
      filter: { closed: 'all', topLevelOnly: false },
    });
    expect(tasks.total).toBeGreaterThan(0);
    const withMessages = engine.cache.tasks
      .idsInProjects([project?.id ?? ''])
      .find((id) => engine.cache.messages.listForTask(id).length > 0);
    expect(withMessages).toBeDefined();
    const detail = await engine.call('tasks.detail', { taskId: withMessages ?? '' });
    expect(detail.messages.length).toBeGreaterThan(0);
    expect(detail.messages.every((m) => typeof m.communicationFlow === 'number')).toBe(true);

    // The project overview, whatever side parts the service offers.
    const overview = await engine.call('projects.detail', { projectId: project?.id ?? '' });
    expect(overview.project.name).toBe(project?.name);
    expect(overview.notOffered).toEqual([]);

    // Events and CRM.
    expect(engine.cache.events.idsInWindow('2000-01-01', '2100-01-01').length).toBeGreaterThan(0);
    const contacts = await engine.call('crm.contacts', {});
    expect(contacts.total).toBeGreaterThan(0);
    expect((await engine.call('crm.accounts', {})).total).toBeGreaterThan(0);

    // No template list on the live service: asked once, known to be absent, nothing listed.
    expect(engine.cache.syncState.get('projectTemplates')).not.toBeNull();
    const templates = await engine.call('projects.templates', {});
    if (profile === 'goodday') expect(templates).toEqual([]);
    else expect(templates.length).toBeGreaterThan(0);
  });

  it('a second pull reads as cleanly and changes nothing', async () => {
    const before = engine.cache.projects.ids().length;
    const status = await engine.sync.now();
    expect(status).toMatchObject({ lastError: null, readProblems: [] });
    expect(engine.cache.projects.ids()).toHaveLength(before);
  });
});
