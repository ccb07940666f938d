// A dependency create or delete that settles leaves the cached dependencies of both its ends as
// the service lists them. A pull never reads dependencies, and an opened task reads them again
// only when its activity moves (which a dependency write may not move), so nothing else would
// correct a cache the settle left wrong. Both service profiles (the fault campaign's finding 23
// came from the goodday one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { SERVICE_PROFILES } from '../../support/service';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { writesSuite, type testEngine, type TestEngine } from './support';
import { taskReads } from '../../../src/main/core/entities/tasks';
import { dependencyEndpoints } from '../../../src/shared/api/dependencies';

describe.each(SERVICE_PROFILES)('settled dependency changes and the cache (%s profile)', (profile) => {
  const dirs: string[] = [];
  // Registered before the suite's: hooks after a test run last-registered first, so the
  // engines are closed before their folders are removed.
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const suite = writesSuite({ profile });

  /** An engine through the proxy on `dataDir`, after a first pull; closed after the test. */
  async function engine(dataDir: string, extra: Parameters<typeof testEngine>[3] = {}): Promise<TestEngine> {
    return suite.engine({ timeoutMs: 1_000, dataDir, ...extra });
  }

  function dataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'dependency-settle-'));
    dirs.push(dir);
    return dir;
  }

  /**
   * Two tasks created through the outbox, acknowledged, pulled and opened (their dependencies
   * read), as the campaign's tasks are by the time it links them: a later open answers from the
   * cache unless the task's activity moved.
   */
  async function openedTasks(e: TestEngine, from: string, to: string): Promise<[string, string]> {
    const ids: string[] = [];
    for (const title of [from, to]) {
      const { id } = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
      await e.drained();
      ids.push(e.outbox.realIdOf(id));
    }
    await e.sync.now();
    for (const taskId of ids) await e.call('tasks.detail', { taskId });
    return ids as [string, string];
  }

  /** What the service lists under a task, as `predecessor>successor` ids. */
  async function onService(taskId: string): Promise<string[]> {
    const { predecessors, successors } = await suite.api.call(dependencyEndpoints.dependencies, {
      kind: 'task',
      id: taskId,
    });
    return [...predecessors, ...successors].map((d) => d.id).sort();
  }

  /** What the task's view lists (as the user sees it after the final pull), and the cache. */
  async function shown(e: TestEngine, taskId: string): Promise<string[]> {
    await e.sync.now();
    const viewed = (await e.call('tasks.detail', { taskId })).dependencies.map((d) => d.id).sort();
    expect(
      e.cache.dependencies
        .listFor(taskId)
        .map((d) => d.id)
        .sort(),
    ).toEqual(viewed);
    return viewed;
  }

  /**
   * Two opened tasks and a dependency between them asked for with the outbox stopped (nothing
   * sent), whose optimistic row is then removed behind the outbox's back, as a kill between the
   * outbox file's commit and the cache file's leaves it.
   */
  async function createWithLostRow(
    e: TestEngine,
    from: string,
    to: string,
  ): Promise<{ a: string; b: string; dep: { id: string } }> {
    const [a, b] = await openedTasks(e, from, to);
    await e.outbox.stop();
    const dep = await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: a },
      successor: { kind: 'task', id: b },
    });
    e.cache.dependencies.delete(dep.id);
    return { a, b, dep };
  }

  // Campaign seed 93629: the client was killed while the create was asked. The outbox file
  // commits before the cache file (`cache/db.ts`), so a kill between the two commits leaves the
  // entry without its optimistic row; after the restart the entry was sent and acknowledged, and
  // the cache never held the dependency. The test leaves the cache as such a kill does (the
  // row removed behind the outbox's back, the engine closed before anything was sent).
  it('a create whose optimistic row a crash lost is in the cache once acknowledged', async () => {
    const dir = dataDir();
    const first = await engine(dir);
    const { a, b, dep } = await createWithLostRow(first, 'crash from', 'crash to');
    await suite.close(first);

    const second = await engine(dir);
    await second.drained();
    const real = second.outbox.realIdOf(dep.id);
    expect(real).not.toBe(dep.id);
    expect(await onService(a)).toEqual([real]);
    expect(await shown(second, a)).toEqual([real]);
    expect(await shown(second, b)).toEqual([real]);
  });

  // Campaign seed 1659 (goodday): a client was killed while an event's create was acknowledged,
  // after the outbox file's commit and before the cache file's. The id map kept the mapping (a
  // dependency waiting on the event was sent with the real id), the cache's remap was lost, and
  // the cached dependency went on naming the event's local id. The test leaves the cache as
  // such a kill does (the remap of the first task's create undone behind the outbox's back,
  // with the cache's mark of remaps it holds), then opens the account again.
  it('a remap of an acknowledged create that a crash lost is applied again at the next open', async () => {
    const dir = dataDir();
    const first = await engine(dir);
    const [, b] = await openedTasks(first, 'remap kept', 'remap to');
    await first.outbox.stop();
    const a = await first.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'remap lost' });
    const dep = await first.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: a.id },
      successor: { kind: 'task', id: b },
    });
    first.outbox.start();
    await first.drained();
    const realA = first.outbox.realIdOf(a.id);
    const realDep = first.outbox.realIdOf(dep.id);
    expect(realA).not.toBe(a.id);
    const db = first.cache.db;
    const mappedA = db
      .prepare('SELECT rowid FROM outbox_id_map WHERE temp_id = ?')
      .pluck()
      .get(a.id) as number;
    db.prepare('UPDATE dependencies SET predecessor_id = ? WHERE predecessor_id = ?').run(a.id, realA);
    db.prepare("UPDATE sync_state SET value = ? WHERE key = 'outbox-id-map:remapped-through'").run(
      String(mappedA - 1),
    );
    expect(first.cache.dependencies.touching([b]).map((d) => d.predecessorId)).toEqual([a.id]);
    await suite.close(first);

    const second = await engine(dir);
    await second.drained();
    expect(second.cache.dependencies.touching([b])).toEqual([
      expect.objectContaining({ id: realDep, predecessorId: realA, successorId: b }),
    ]);
    expect(await onService(b)).toEqual([realDep]);
    expect(await shown(second, b)).toEqual([realDep]);
  });

  // The same lost row, with the successor deleted after the create: the delete took the link
  // along on the service, so the create's acknowledgement must not put its row back.
  it('a create whose row a crash lost stays out of the cache when a later delete of its end waits', async () => {
    const dir = dataDir();
    const first = await engine(dir);
    const { a, b } = await createWithLostRow(first, 'crash kept end', 'crash deleted end');
    await first.call('tasks.delete', { taskId: b });
    await suite.close(first);

    const second = await engine(dir);
    await second.drained();
    expect(second.outbox.doneEntries().map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(['dependency.create', 'task.delete']),
    );
    expect(await onService(a)).toEqual([]);
    expect(await shown(second, a)).toEqual([]);
  });

  // Campaign seed 93643: the create's answer was lost (the service made it), a read of one end
  // stored the service's copy beside the local row, the user deleted the dependency (its local
  // row went, the copy stayed), the look-up found the create ("applied already"), then the
  // delete was sent and acknowledged. The service lists none; the copy stayed in the cache.
  it('a delete queued behind a create whose answer was lost leaves neither row behind', async () => {
    const e = await engine(dataDir(), {
      // Slow retries: the read below surely runs while the create's outcome is unknown.
      outbox: { backoff: { baseMs: 1_500, maxMs: 1_500 }, tickMs: 50 },
    });
    const [a, b] = await openedTasks(e, 'lost from', 'lost to');
    const lost = suite.proxy.stats().injected.dropAfter;
    suite.proxy.set({ dropAfter: { next: 1, match: /^POST \/2\.0\/dependencies$/ } });
    const dep = await e.call('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: a },
      successor: { kind: 'task', id: b },
    });
    for (let i = 0; i < 200 && suite.proxy.stats().injected.dropAfter === lost; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(queueOf(e.outbox).status().inFlight).toBe(1);
    const [made] = await onService(a);
    expect(made).toBeDefined();
    // A read of the end while the create's outcome is unknown: the service's copy is stored
    // beside the local row (which stands for it until the look-up says which it is).
    await e.sync.onDemand.run(taskReads.task(b));
    expect(
      e.cache.dependencies
        .listFor(b)
        .map((d) => d.id)
        .sort(),
    ).toEqual([dep.id, made].sort());
    await e.call('dependencies.delete', { dependencyId: dep.id });
    await e.drained();
    expect(e.outbox.doneEntries().map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(['dependency.create', 'dependency.delete']),
    );
    expect(await onService(a)).toEqual([]);
    expect(await shown(e, a)).toEqual([]);
    expect(await shown(e, b)).toEqual([]);
  });
});
