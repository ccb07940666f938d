import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { aProject, aTask } from '../fixtures';
import { flattenTask, ROW_SELECT } from './tasks';
import { TaskRow } from '../../../../shared/ipc/tasks';
import { accountCache } from '../../handlers/index';

/** Two tasks with a distinct value in every list column, one open (a subtask) and one closed. */
function seeded() {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.projects.upsertMany([aProject({ id: 'p1' })]);
  const open = aTask({
    id: 't1',
    projectId: 'p1',
    parentTaskId: 't2',
    status: { id: 's2', name: 'Doing' },
    taskType: { id: 'tt2', name: 'Bug' },
    priority: 7,
    assignedToUserId: 'u2',
    actionRequiredUserId: 'u3',
    createdByUserId: 'u4',
    deadline: '2026-12-01',
    startDate: '2026-11-01',
    endDate: '2026-11-30',
    scheduleDate: '2026-11-15',
    estimate: 120,
    progress: 40,
    momentCreated: '2026-01-02T09:00:00.000000',
    recentActivityMoment: '2026-01-03T09:00:00.000000',
  });
  const closed = aTask({ id: 't2', projectId: 'p1', momentClosed: '2026-02-01T09:00:00.000000' });
  cache.tasks.upsertMany([flattenTask(open), flattenTask(closed)]);
  return cache;
}

describe('task list rows', () => {
  it('are exactly the TaskRow shape, equal to what SQLite names the columns, closed a boolean', () => {
    const cache = seeded();
    const { rows, total } = cache.tasks.list({
      scope: { kind: 'project', projectId: 'p1', includeSubprojects: false },
      filter: { closed: 'all', topLevelOnly: false },
      sort: { by: 'momentCreated', dir: 'asc' },
      offset: 0,
      limit: 10,
    });
    expect(total).toBe(2);
    // The object-mode read of the same columns: the names come from SQLite's own AS clauses.
    const named = cache.db.prepare(`SELECT ${ROW_SELECT} FROM tasks ORDER BY moment_created`).all() as Record<
      string,
      unknown
    >[];
    expect(rows).toEqual(named.map((r) => ({ ...r, closed: r['closed'] === 1 })));
    for (const row of rows) expect(TaskRow.strict().parse(row)).toEqual(row);
    expect(rows.map((r) => [r.id, r.closed])).toEqual([
      ['t2', true],
      ['t1', false],
    ]);
  });

  it('serve a single row and the subtasks the same way', () => {
    const cache = seeded();
    const row = cache.tasks.row('t1');
    // A subtask's row names its parent (cached): the list says whose subtask it is.
    expect(row).toMatchObject({
      id: 't1',
      parentTaskId: 't2',
      parentTaskName: 'Task t2',
      priority: 7,
      closed: false,
    });
    expect(cache.tasks.row('t2')).toMatchObject({ parentTaskId: null, parentTaskName: null });
    expect(TaskRow.strict().parse(row)).toEqual(row);
    expect(cache.tasks.subtasks('t2')).toEqual([row]);
    expect(cache.tasks.row('nope')).toBeNull();
  });
});

describe('task list order', () => {
  it('lists tasks without a deadline last, soonest first or latest first', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1' })]);
    cache.tasks.upsertMany(
      [
        aTask({ id: 'none', projectId: 'p1', deadline: null }),
        aTask({ id: 'late', projectId: 'p1', deadline: '2026-12-01' }),
        aTask({ id: 'soon', projectId: 'p1', deadline: '2026-11-01' }),
      ].map(flattenTask),
    );
    const order = (dir: 'asc' | 'desc') =>
      cache.tasks
        .list({
          scope: { kind: 'project', projectId: 'p1', includeSubprojects: false },
          filter: { closed: 'all', topLevelOnly: false },
          sort: { by: 'deadline', dir },
          offset: 0,
          limit: 10,
        })
        .rows.map((r) => r.id);
    expect(order('asc')).toEqual(['soon', 'late', 'none']);
    expect(order('desc')).toEqual(['late', 'soon', 'none']);
  });

  it("names a user's list as its rows list it: the same tasks, order and window", () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1' })]);
    cache.tasks.upsertMany(
      [
        aTask({
          id: 'a',
          name: 'Alpha',
          projectId: 'p1',
          actionRequiredUserId: 'u1',
          recentActivityMoment: '2026-01-01',
        }),
        aTask({
          id: 'b',
          name: 'Beta',
          projectId: 'p1',
          actionRequiredUserId: 'u1',
          recentActivityMoment: '2026-01-03',
        }),
        aTask({
          id: 'c',
          name: 'Gamma',
          projectId: 'p1',
          actionRequiredUserId: 'u2',
          recentActivityMoment: '2026-01-02',
        }),
        aTask({
          id: 'd',
          name: 'Delta',
          projectId: 'p1',
          actionRequiredUserId: 'u1',
          recentActivityMoment: '2026-01-02',
        }),
      ].map(flattenTask),
    );
    const query = (offset: number, limit: number) => ({
      scope: { kind: 'actionRequired' as const, userId: 'u1' },
      filter: { closed: 'open' as const, topLevelOnly: false },
      sort: { by: 'recentActivityMoment' as const, dir: 'desc' as const },
      offset,
      limit,
    });
    expect(cache.tasks.names(query(0, 10))).toEqual([
      { id: 'b', name: 'Beta' },
      { id: 'd', name: 'Delta' },
      { id: 'a', name: 'Alpha' },
    ]);
    for (const [offset, limit] of [
      [0, 2],
      [1, 2],
      [2, 5],
    ] as const)
      expect(cache.tasks.names(query(offset, limit))).toEqual(
        cache.tasks.list(query(offset, limit)).rows.map((row) => ({ id: row.id, name: row.name })),
      );
  });
});

describe('tasks repository: what the outbox kinds write', () => {
  function tree() {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1' }), aProject({ id: 'p2' })]);
    cache.tasks.upsertMany(
      [
        aTask({ id: 'root', projectId: 'p1', assignedToUserId: 'ann', actionRequiredUserId: 'bob' }),
        aTask({ id: 'child', projectId: 'p1', parentTaskId: 'root', actionRequiredUserId: 'ann' }),
        aTask({ id: 'grandchild', projectId: 'p1', parentTaskId: 'child' }),
        aTask({ id: 'other', projectId: 'p1', assignedToUserId: 'bob' }),
        aTask({ id: 'elsewhere', projectId: 'p2', assignedToUserId: 'ann' }),
      ].map(flattenTask),
    );
    return cache;
  }

  it('lists every task below one, at any depth', () => {
    const cache = tree();
    expect(cache.tasks.descendantIds('root').sort()).toEqual(['child', 'grandchild']);
    expect(cache.tasks.descendantIds('child')).toEqual(['grandchild']);
    expect(cache.tasks.descendantIds('grandchild')).toEqual([]);
  });

  it("reads and sets a task's CRM account, which the list shape leaves alone", () => {
    const cache = tree();
    expect(cache.tasks.crmAccountOf('root')).toBeNull();
    expect(cache.tasks.crmAccountOf('missing')).toBeNull();
    cache.tasks.setCrmAccount('root', 'a1');
    expect(cache.tasks.crmAccountOf('root')).toBe('a1');
    expect(cache.tasks.get('root')?.crmAccountId).toBe('a1');
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'root', projectId: 'p1', name: 'Renamed' }))]);
    expect(cache.tasks.crmAccountOf('root')).toBe('a1');
    expect(cache.tasks.idsLinkedToAccount('a1')).toEqual(['root']);
    cache.tasks.setCrmAccount('root', null);
    expect(cache.tasks.crmAccountOf('root')).toBeNull();
  });

  it("lists a project's tasks a user is assigned to or must act on, and sets both people", () => {
    const cache = tree();
    expect(cache.tasks.withPersonInProject('p1', 'ann').sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'child', assignedToUserId: null, actionRequiredUserId: 'ann' },
      { id: 'root', assignedToUserId: 'ann', actionRequiredUserId: 'bob' },
    ]);
    cache.tasks.setPeople('root', 'cleo', null);
    expect(cache.tasks.get('root')).toMatchObject({ assignedToUserId: 'cleo', actionRequiredUserId: null });
    expect(cache.tasks.withPersonInProject('p1', 'ann').map((t) => t.id)).toEqual(['child']);
    expect(cache.tasks.withPersonInProject('p2', 'ann').map((t) => t.id)).toEqual(['elsewhere']);
  });
});

describe('to-do progress on task rows', () => {
  it('counts ticked and all items over every list as the lists are stored and changed', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1' })]);
    const item = (completed: boolean, title: string) => ({ properties: { completed, title, userId: null } });
    const lists = [
      { uid: 'a', title: 'Release', items: [item(true, 'Notes'), item(false, 'Tag'), item(true, 'Build')] },
      { uid: 'b', title: 'After', items: [item(false, 'Announce'), item(false, 'Party')] },
    ];
    cache.tasks.upsertMany([
      flattenTask(aTask({ id: 't1', projectId: 'p1', todoList: lists })),
      flattenTask(aTask({ id: 't2', projectId: 'p1' })),
    ]);
    const progress = (id: string) => {
      const row = cache.tasks.row(id);
      return row && [row.todoDone, row.todoTotal];
    };
    expect(progress('t1')).toEqual([2, 5]);
    expect(progress('t2')).toEqual([0, 0]);
    // A pull or a local change stores the lists again.
    const ticked = [{ ...lists[0]!, items: lists[0]!.items.map((i) => item(true, i.properties.title)) }];
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', todoList: ticked }))]);
    expect(progress('t1')).toEqual([3, 3]);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', todoList: null }))]);
    expect(progress('t1')).toEqual([0, 0]);
  });
});

describe('tasks repository: a task by its number', () => {
  it('finds the task a #number link names, and null for a number not cached', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1' })]);
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't1', projectId: 'p1', shortId: '42', name: 'Plan' }))]);
    expect(cache.tasks.byShortId('42')).toEqual({ id: 't1', name: 'Plan' });
    expect(cache.tasks.byShortId('43')).toBeNull();
  });
});

describe('the tasks whose messages are stale', () => {
  it('are read a page at a time in id order, those fetched since their last activity left out', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([aProject({ id: 'p1' })]);
    const ids = ['t5', 't1', 't4', 't2', 't3'];
    cache.tasks.upsertMany(
      ids.map((id) => flattenTask(aTask({ id, projectId: 'p1', recentActivityMoment: `2026-01-0${id[1]}` }))),
    );
    // t3's messages were fetched at its last activity: not stale.
    cache.tasks.markMessagesFetched('t3', '2026-01-03', '2026-01-10');
    const first = cache.tasks.staleFetchStates('', 2);
    expect(first.map((s) => s.id)).toEqual(['t1', 't2']);
    const second = cache.tasks.staleFetchStates('t2', 2);
    expect(second.map((s) => s.id)).toEqual(['t4', 't5']);
    expect(cache.tasks.staleFetchStates('t5', 2)).toEqual([]);
    expect(second[0]).toEqual({
      id: 't4',
      recentActivityMoment: '2026-01-04',
      messagesActivityMoment: null,
      detailFetchedAt: null,
    });
  });
});
