// Which views an acknowledged create tells: its own, and those of every table whose rows named
// its local id and were rewritten with the real one (a time report of a task created offline,
// a subtask of it), so a view over another table that held the local id reads again.
import { describe, expect, it } from 'vitest';
import { fakeServiceClient } from '../api/testing';
import { openCacheDb } from '../cache/db';
import { aProject } from '../cache/fixtures';
import { accountCache, ENTITIES, KIND_FACTORIES } from '../handlers/index';
import type { CacheChange, IdRemap } from '../../../shared/ipc/events';
import { queueOf, stoppedClockOutbox } from './testing';

const ME = 'u-me';

/** The account outbox over a cache with project p1, recording the events it emits in order. */
function rig() {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.projects.upsertMany([aProject({ id: 'p1', ownerUserId: ME })]);
  cache.org.statuses.replace([{ id: 's-new', name: 'New', systemStatus: 1, isClosed: false }]);
  let created = 0;
  const client = fakeServiceClient({
    createTask: () => ({
      id: `T${++created}`,
      shortId: String(created),
      momentCreated: '2026-11-21 12:00:00.000000',
    }),
    taskTimeReports: () => [],
    createTimeReport: () => ({
      id: 'R1',
      taskId: 'T1',
      projectId: 'p1',
      userId: ME,
      reportDate: '2026-11-20',
      reported: 30,
      message: null,
      momentCreated: '2026-11-21 12:00:00.000000',
    }),
  });
  const events: ({ name: 'change'; change: CacheChange } | { name: 'remap'; remap: IdRemap })[] = [];
  const outbox = stoppedClockOutbox({
    cache,
    client,
    userId: ME,
    now: Date.UTC(2026, 10, 21, 12),
    kindModules: KIND_FACTORIES,
    entities: ENTITIES,
    emit: (name, payload) => {
      if (name === 'cache.onDidChange') events.push({ name: 'change', change: payload as CacheChange });
      if (name === 'outbox.onDidRemapId') events.push({ name: 'remap', remap: payload as IdRemap });
    },
  });
  return { cache, outbox, events };
}

/** The cache change told with the acknowledgement that gave `tempId` its real id (just before the remap). */
function changeOfRemap(events: ReturnType<typeof rig>['events'], tempId: string): CacheChange | undefined {
  const at = events.findIndex((e) => e.name === 'remap' && e.remap.tempId === tempId);
  const before = events[at - 1];
  return at > 0 && before?.name === 'change' ? before.change : undefined;
}

describe('the views an acknowledged create tells', () => {
  it("tells My Time's reports and any task's views when a report and a subtask named the task's local id", async () => {
    const { cache, outbox, events } = rig();
    outbox.write('task.create', {
      tempId: 'local-a',
      draftId: 'draft-a',
      input: { projectId: 'p1', title: 'Offline' },
    });
    outbox.write('task.create', {
      tempId: 'local-b',
      draftId: 'draft-b',
      input: { projectId: 'p1', title: 'Its subtask', parentTaskId: 'local-a' },
    });
    outbox.write('timeReport.create', {
      tempId: 'local-r',
      input: { taskId: 'local-a', minutes: 30, date: '2026-11-20' },
      known: [],
    });
    outbox.start();
    await queueOf(outbox).idle();
    await outbox.stop();

    expect(cache.timeReports.byTask('T1')).toHaveLength(1);
    expect(cache.tasks.get('T2')).toMatchObject({ parentTaskId: 'T1' });
    // The task's own views, and the reports' (its report now names T1); the tasks view with
    // any of its ids, not only T1's: the subtask's row (another task) changed too.
    const change = changeOfRemap(events, 'local-a');
    expect(change?.entities).toEqual(expect.arrayContaining(['tasks', 'messages', 'tags', 'timeReports']));
    expect(change?.ids?.tasks).toBeUndefined();
  });

  it("names only the task's own views, with its id, when nothing else held the local id", async () => {
    const { outbox, events } = rig();
    outbox.write('task.create', {
      tempId: 'local-a',
      draftId: 'draft-a',
      input: { projectId: 'p1', title: 'Alone' },
    });
    outbox.start();
    await queueOf(outbox).idle();
    await outbox.stop();
    // The entry's keys name the task by both ids.
    expect(changeOfRemap(events, 'local-a')).toEqual({
      entities: ['tasks', 'messages', 'tags'],
      ids: { tasks: ['local-a', 'T1'] },
    });
  });
});
