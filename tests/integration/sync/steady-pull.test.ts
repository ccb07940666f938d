// The steady pull: a pull of an account already synced leaves the task rows it stored exactly as
// the service still sends them alone, writes what changed, and never keeps a row that something
// else wrote since (a local write, a removal). With a change waiting in the outbox every element
// is merged again (rule 7). Against both answer profiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { flattenTask } from '../../../src/main/core/cache/repos/tasks';
import type { CacheChange } from '../../../src/shared/ipc/events';
import { SERVICE_PROFILES, startService, type RunningService } from '../../support/service';
import { testEngine } from '../outbox/support';
import { taskEndpoints } from '../../../src/shared/api/tasks';

describe.each(SERVICE_PROFILES)('a steady pull from the %s profile', (profile) => {
  let svc: RunningService;
  let api: ServiceClient;
  let engine: Awaited<ReturnType<typeof testEngine>>;
  // Kept over an engine's restart (an engine given its folder leaves it when closed).
  const dataDir = mkdtempSync(join(tmpdir(), 'steady-pull-'));
  const changes: CacheChange[] = [];

  beforeAll(async () => {
    svc = await startService({ seed: 'demo', profile });
    api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    engine.events.onAny((name, payload) => {
      if (name === 'cache.onDidChange') changes.push(payload as CacheChange);
    });
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

  /** A pull, counting the task rows the list store writes. */
  async function pullCountingWrites(spy: () => void = () => {}): Promise<string[]> {
    const written: string[] = [];
    vi.restoreAllMocks();
    spy();
    const upsert = engine.cache.tasks.codec.upsert.bind(engine.cache.tasks.codec);
    vi.spyOn(engine.cache.tasks.codec, 'upsert').mockImplementation((row) => {
      written.push(row.id);
      upsert(row);
    });
    const status = await engine.sync.now();
    expect(status.lastError).toBeNull();
    return written;
  }

  /** A task of the cache that is not a subtask, with its service copy. */
  async function someTask() {
    const { nodes } = await engine.call('projects.tree', {});
    const project = nodes.find((n) => n.openTaskCount > 1)!;
    const rows = (await engine.call('tasks.list', { projectId: project.id, limit: 2 })).rows;
    return rows[1]!;
  }

  it('writes no task row when nothing changed, and tells no view the tasks changed', async () => {
    expect(engine.cache.taskFingerprints.size).toBeGreaterThan(10);
    const written = await pullCountingWrites();
    expect(written).toEqual([]);
    expect(changes.filter((c) => c.entities.includes('tasks'))).toEqual([]);
  });

  it('writes the one task changed on the service, and shows its new values', async () => {
    const task = await someTask();
    await api.call(taskEndpoints.updateTask, {
      id: task.id,
      body: { userId: svc.users.actingUserId, title: 'Renamed elsewhere' },
    });
    const written = await pullCountingWrites();
    expect(written).toContain(task.id);
    // The task itself, and at most its detail's subtasks fetched along with its messages.
    expect(new Set(written).size).toBeLessThanOrEqual(1 + engine.cache.tasks.subtasks(task.id).length);
    expect(engine.cache.tasks.get(task.id)?.name).toBe('Renamed elsewhere');
    expect(changes.some((c) => c.entities.includes('tasks'))).toBe(true);
  });

  it('reads again a row written since it was stored, and puts the service values back', async () => {
    const task = await someTask();
    const cached = engine.cache.tasks.get(task.id)!;
    // Written behind the pull's back (no outbox entry): nothing may keep it over the service's.
    engine.cache.tasks.upsertMany([flattenTask({ ...cached, name: 'Written here', priority: 9 })]);
    const written = await pullCountingWrites();
    expect(written).toEqual([task.id]);
    expect(engine.cache.tasks.get(task.id)).toMatchObject({ name: cached.name, priority: cached.priority });
  });

  it('stores a task removed from the cache again when the service still lists it', async () => {
    const task = await someTask();
    engine.cache.transaction(() => engine.cache.tasks.delete([task.id]));
    await pullCountingWrites();
    expect(engine.cache.tasks.get(task.id)?.name).toBe(task.name);
  });

  it('removes a cached task no list holds though every list answered as stored before', async () => {
    const task = await someTask();
    // A row the service never listed, in a project whose list is unchanged (held as stored).
    const stray = { ...engine.cache.tasks.get(task.id)!, id: 'stray-task' };
    engine.cache.tasks.upsertMany([flattenTask(stray)]);
    expect(engine.cache.tasks.get('stray-task')).not.toBeNull();
    expect(await pullCountingWrites()).toEqual([]);
    expect(engine.cache.tasks.get('stray-task')).toBeNull();
    expect(engine.cache.tasks.get(task.id)?.name).toBe(task.name);
  });

  it('removes a task deleted on the service, and reads the ids back only for the list that changed', async () => {
    const task = await someTask();
    await api.call(taskEndpoints.deleteTask, { id: task.id });
    /** Pulls, counting the reads of a project's cached task ids (the removal's candidates). */
    const pullCountingIdReads = async (): Promise<number> => {
      let reads = 0;
      await pullCountingWrites(() => {
        const ids = engine.cache.tasks.idsInProjects.bind(engine.cache.tasks);
        vi.spyOn(engine.cache.tasks, 'idsInProjects').mockImplementation((projects) => {
          // The project list's part asks for the tasks of projects gone, none here.
          if (projects.length) reads++;
          return ids(projects);
        });
      });
      return reads;
    };
    expect(await pullCountingIdReads()).toBeGreaterThan(0);
    expect(engine.cache.tasks.get(task.id)).toBeNull();
    // The next pull finds every list as stored: no ids are read back.
    expect(await pullCountingIdReads()).toBe(0);
  });

  it('after a restart, writes no task row and reads no element again when nothing changed', async () => {
    await pullCountingWrites();
    await engine.close();
    engine = await testEngine(svc.baseUrl, svc.token, svc.users.actingUserId, { dataDir });
    engine.events.onAny((name, payload) => {
      if (name === 'cache.onDidChange') changes.push(payload as CacheChange);
    });
    expect(engine.cache.taskFingerprints.size).toBeGreaterThan(10);
    const known = engine.cache.taskFingerprints;
    let wholeAnswer = vi.spyOn(known, 'wholeAnswer');
    let idOf = vi.spyOn(known, 'idOf');
    const written = await pullCountingWrites(() => {
      wholeAnswer = vi.spyOn(known, 'wholeAnswer');
      idOf = vi.spyOn(known, 'idOf');
    });
    expect(written).toEqual([]);
    expect(changes.filter((c) => c.entities.includes('tasks'))).toEqual([]);
    // Each project's list was known whole from the file: no element was looked at one by one.
    expect(wholeAnswer).toHaveBeenCalled();
    expect(idOf).not.toHaveBeenCalled();
  });

  it('merges every element with a change waiting in the outbox, and keeps the local value', async () => {
    const task = await someTask();
    await engine.outbox.stop();
    await engine.call('tasks.update', { taskId: task.id, changes: { title: 'Typed here' } });
    const cachedTasks = engine.cache.taskFingerprints.size;
    const written = await pullCountingWrites();
    // Every element was read and merged, none skipped (the upsert leaves equal rows unwritten).
    expect(written.length).toBeGreaterThanOrEqual(cachedTasks);
    expect(engine.cache.tasks.get(task.id)?.name).toBe('Typed here');
    engine.outbox.start();
    await engine.drained();
    expect((await pullCountingWrites()).length).toBeLessThanOrEqual(
      1 + engine.cache.tasks.subtasks(task.id).length,
    );
    expect(engine.cache.tasks.get(task.id)?.name).toBe('Typed here');
  });
});
