// A long task list that changed on the service: the pull compares it with the last answer by
// ranges of its bytes, cuts only the parts around each change, and still sees every change
// wherever it lies (the list's first, middle or last range; a task added, removed, moved to
// another project). Against both answer profiles.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { fingerprintOf } from '../../../src/main/core/api/list-elements';
import type * as ListElementsModule from '../../../src/main/core/api/list-elements';

type ListElements = typeof ListElementsModule;
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';

// Each element cut from an answer is fingerprinted once: the count is that of the elements cut.
vi.mock('../../../src/main/core/api/list-elements', async (importOriginal) => {
  const actual = await importOriginal<ListElements>();
  return { ...actual, fingerprintOf: vi.fn(actual.fingerprintOf) };
});
const fingerprinted = vi.mocked(fingerprintOf);

/** Tasks added to one project: its root's list is then several ranges long. */
const ADDED = 400;

describe.each(SERVICE_PROFILES)('a long task list changed on the %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  let engine: Awaited<ReturnType<typeof testEngine>>;
  let projectId: string;
  let otherProjectId: string;

  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId);
    expect((await engine.sync.now()).lastError).toBeNull();
    const { nodes } = await engine.call('projects.tree', {});
    const projects = nodes.filter((n) => n.openTaskCount > 0);
    projectId = projects[0]!.id;
    otherProjectId = projects.find((p) => p.id !== projectId)!.id;
    for (let i = 0; i < ADDED; i++) {
      await api.call(taskEndpoints.createTask, {
        body: {
          projectId,
          title: `Long list task ${i}`,
          fromUserId: svc.users.actingUserId,
          message: 'Some words about it. '.repeat(10),
        },
      });
    }
    expect((await engine.sync.now()).lastError).toBeNull();
    // A pull more: the list is held as stored, and its answer recorded by ranges.
    expect((await engine.sync.now()).lastError).toBeNull();
  });
  afterAll(async () => {
    await engine?.close();
    await svc?.close();
  });

  /** The recorded ranges of the list holding `projectId`'s tasks. */
  function longest() {
    const root = engine.cache.projects.get(projectId)!;
    let key = root.id;
    for (let p = root; p.parentProjectId; p = engine.cache.projects.get(p.parentProjectId)!)
      key = p.parentProjectId;
    const ranges = engine.cache.taskFingerprints.forList(key).ranges();
    expect(ranges?.ends.length).toBeGreaterThanOrEqual(4);
    return ranges!;
  }

  /** A pull, counting the task rows written and the list elements cut. */
  async function pullCounting(): Promise<{ written: string[]; cut: number }> {
    const written: string[] = [];
    const upsert = engine.cache.tasks.codec.upsert.bind(engine.cache.tasks.codec);
    const spy = vi.spyOn(engine.cache.tasks.codec, 'upsert').mockImplementation((row) => {
      written.push(row.id);
      upsert(row);
    });
    fingerprinted.mockClear();
    try {
      expect((await engine.sync.now()).lastError).toBeNull();
      return { written, cut: fingerprinted.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  it('sees a task renamed in the first, a middle and the last range, cutting only around them', async () => {
    const { ids, counts } = longest();
    const mid = Math.floor(counts.length / 2);
    const renamed = [ids[1]!, ids[counts[mid - 1]! + 2]!, ids[ids.length - 2]!];
    for (const [at, id] of renamed.entries())
      await api.call(taskEndpoints.updateTask, {
        id,
        body: { userId: svc.users.actingUserId, title: `Renamed on the service ${at}` },
      });
    const { written, cut } = await pullCounting();
    for (const [at, id] of renamed.entries())
      expect(engine.cache.tasks.get(id)?.name).toBe(`Renamed on the service ${at}`);
    expect(new Set(written)).toEqual(new Set(renamed));
    // Three ranges cut at most (each change's), of a list of more.
    expect(cut).toBeLessThan(ids.length / 2);
    // Recorded again for the next pull, which cuts nothing.
    expect(longest().ids).toEqual(ids);
    expect(await pullCounting()).toEqual({ written: [], cut: 0 });
  });

  it('sees a task added, one deleted and one moved to another project, in the list’s middle', async () => {
    const { ids, counts } = longest();
    const mid = Math.floor(counts.length / 2);
    const deleted = ids[counts[mid - 1]! + 3]!;
    const moved = ids[counts[mid]! + 3]!;
    await api.call(taskEndpoints.deleteTask, { id: deleted });
    await api.call(taskEndpoints.updateTask, {
      id: moved,
      body: { userId: svc.users.actingUserId, projectId: otherProjectId },
    });
    const added = await api.call(taskEndpoints.createTask, {
      body: { projectId, title: 'Added on the service', fromUserId: svc.users.actingUserId },
    });
    const { written } = await pullCounting();
    expect(engine.cache.tasks.get(deleted)).toBeNull();
    expect(engine.cache.tasks.get(moved)?.projectId).toBe(otherProjectId);
    expect(engine.cache.tasks.get(added.id)?.name).toBe('Added on the service');
    expect(written).toContain(moved);
    expect(written).toContain(added.id);
    // Every task the service lists in the project is cached, and no other.
    const listed = await api.call(taskEndpoints.projectTaskList, {
      id: projectId,
      query: { closed: true, subfolders: true },
    });
    expect(engine.cache.tasks.countInProjects([projectId])).toBe(listed.items.length);
    expect(await pullCounting()).toEqual({ written: [], cut: 0 });
  });
});
