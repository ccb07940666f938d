// The steady pull's whole lists (projects, the organization's lists, CRM records, events): an
// answer the same as the one last stored, its table not written since, is neither parsed nor
// stored again; a list that changed on the service is stored at the next pull; a row written
// behind the pull's back is put back; a pending local change is never overwritten (rule 7).
// Against both answer profiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { CacheChange } from '../../../src/shared/ipc/events';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';
import { projectEndpoints } from '../../../src/shared/api/projects';
import { crmEndpoints } from '../../../src/shared/api/crm';
import { eventEndpoints } from '../../../src/shared/api/events';

describe.each(SERVICE_PROFILES)('whole lists held as stored, from the %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  let engine: Awaited<ReturnType<typeof testEngine>>;
  // Kept over an engine's restart (an engine given its folder leaves it when closed).
  const dataDir = mkdtempSync(join(tmpdir(), 'held-lists-'));
  const changes: CacheChange[] = [];

  const open = async () => {
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    engine.events.onAny((name, payload) => {
      if (name === 'cache.onDidChange') changes.push(payload as CacheChange);
    });
  };
  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    await open();
    expect((await engine.sync.now()).lastError).toBeNull();
    // The first pull stores every list once; the next finds each as stored.
    expect((await engine.sync.now()).lastError).toBeNull();
    changes.length = 0;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    changes.length = 0;
  });
  afterAll(async () => {
    await engine?.close();
    await svc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A pull, naming each whole list's store it made (the project rows written, each list replaced). */
  async function pullCountingStores(): Promise<string[]> {
    const stores: string[] = [];
    vi.restoreAllMocks();
    const { cache } = engine;
    const count = <O extends object>(name: string, repo: O, method: keyof O & string) => {
      const original = (repo[method] as (...args: unknown[]) => unknown).bind(repo);
      vi.spyOn(repo, method as never).mockImplementation(((...args: unknown[]) => {
        stores.push(name);
        return original(...args);
      }) as never);
    };
    count('projects', cache.projects, 'upsertMany');
    count('users', cache.org.users, 'replace');
    count('statuses', cache.org.statuses, 'replace');
    count('taskTypes', cache.org.taskTypes, 'replace');
    count('customFields', cache.org.customFields, 'replace');
    count('crmContacts', cache.crm, 'replaceContacts');
    count('crmAccounts', cache.crm, 'replaceAccounts');
    count('events', cache.events, 'replaceWindow');
    const status = await engine.sync.now();
    expect(status.lastError).toBeNull();
    return stores;
  }

  const listViews = [
    'projects',
    'users',
    'statuses',
    'taskTypes',
    'customFields',
    'crmContacts',
    'crmAccounts',
    'events',
  ];
  // The goodday profile offers no project template list: that answer (none) is told each pull, to
  // the project views.
  const toldOfLists = () =>
    changes.flatMap((c) =>
      c.entities.filter((e) => listViews.includes(e) && (profile === 'spec' || e !== 'projects')),
    );

  it('stores no whole list again when nothing changed, and tells no view they changed', async () => {
    expect(await pullCountingStores()).toEqual([]);
    expect(toldOfLists()).toEqual([]);
    // The lists are still all there.
    expect(engine.cache.projects.ids().length).toBeGreaterThan(1);
    expect(engine.cache.org.users.all().length).toBeGreaterThan(1);
  });

  it('stores a project, a contact and an event changed on the service at the next pull', async () => {
    const [project] = engine.cache.projects.all();
    const contactId = engine.cache.crm.contactIds()[0]!;
    await api.call(projectEndpoints.updateProject, {
      id: project!.id,
      body: { userId: svc.users.actingUserId, name: 'Renamed elsewhere' },
    });
    await api.call(crmEndpoints.updateCrmContact, {
      id: contactId,
      body: { updatedByUserId: svc.users.actingUserId, email: 'elsewhere@example.test' },
    });
    const soon = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const event = await api.call(eventEndpoints.createEvent, {
      body: {
        createdByUserId: svc.users.actingUserId,
        eventType: 'company-event',
        name: 'Planned elsewhere',
        startDate: soon,
        endDate: soon,
      },
    });
    const stores = await pullCountingStores();
    expect(stores).toEqual(expect.arrayContaining(['projects', 'crmContacts', 'events']));
    // The lists that did not change are not stored again.
    expect(stores).not.toContain('users');
    expect(stores).not.toContain('crmAccounts');
    expect(engine.cache.projects.get(project!.id)?.name).toBe('Renamed elsewhere');
    expect(engine.cache.crm.contact(contactId)?.email).toBe('elsewhere@example.test');
    expect(engine.cache.events.list({ from: soon, to: soon }).map((e) => e.id)).toContain(event.id);
    expect(toldOfLists()).toEqual(expect.arrayContaining(['crmContacts', 'events']));
    expect(changes.some((c) => c.entities.includes('projects'))).toBe(true);
    // Stored as sent: the pull after finds them held again.
    expect(await pullCountingStores()).toEqual([]);
  });

  it('puts back a row written behind the pull\u2019s back, though the service answers as before', async () => {
    const [project] = engine.cache.projects.all();
    const { settings: _settings, ...row } = project!;
    // No outbox entry: nothing may keep it over the service's value.
    engine.cache.projects.upsertMany([{ ...row, name: 'Written here' }]);
    engine.cache.transaction(() => engine.cache.crm.deleteContacts([engine.cache.crm.contactIds()[0]!]));
    const contacts = (await api.call(crmEndpoints.crmContacts, {})).length;
    expect(await pullCountingStores()).toEqual(expect.arrayContaining(['projects', 'crmContacts']));
    expect(engine.cache.projects.get(project!.id)?.name).toBe(project!.name);
    expect(engine.cache.crm.contactIds()).toHaveLength(contacts);
    expect(await pullCountingStores()).toEqual([]);
  });

  it('keeps a pending local change over the list, and holds the list again once it is sent', async () => {
    const [project] = engine.cache.projects.all();
    await engine.outbox.stop();
    await engine.call('projects.update', { projectId: project!.id, changes: { name: 'Typed here' } });
    // The project's row was written: the list is stored again, the local value kept (rule 7).
    expect(await pullCountingStores()).toContain('projects');
    expect(engine.cache.projects.get(project!.id)?.name).toBe('Typed here');
    // While the change waits, every pull merges the list again, its row never overwritten.
    expect(await pullCountingStores()).toContain('projects');
    expect(engine.cache.projects.get(project!.id)?.name).toBe('Typed here');
    engine.outbox.start();
    await engine.drained();
    // The service's answer now holds the change: stored once as sent, then held.
    expect(await pullCountingStores()).toContain('projects');
    expect(engine.cache.projects.get(project!.id)?.name).toBe('Typed here');
    expect(await pullCountingStores()).toEqual([]);
  });

  it('after a restart, stores no whole list again when nothing changed', async () => {
    await pullCountingStores();
    await engine.close();
    await open();
    expect(await pullCountingStores()).toEqual([]);
    expect(toldOfLists()).toEqual([]);
  });
});
