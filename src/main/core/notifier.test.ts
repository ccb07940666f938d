import { describe, expect, it, vi } from 'vitest';
import { EventHub } from './event-hub';
import { createActionRequiredWatcher, watchActionRequired, watchUpdateNotices } from './notifier';
import { DEFAULT_NOTIFICATIONS } from '../../shared/ipc/settings';
import type { Task } from '../../shared/api/tasks';
import type { DueTasks } from '../../shared/ipc/tasks';
import { openCacheDb } from './cache/db';
import { aProject, aTask } from './cache/fixtures';
import { flattenTask } from './cache/repos/tasks';
import { createDispatch } from './dispatch';
import { accountCache, type ReadDeps } from './handlers/index';
import { taskReadHandlers } from './handlers/tasks-read';
import { dueSections, DUE_PER_GROUP, homeDays } from '../../renderer/src/state/home';

/**
 * A dispatch over a real cache holding `tasks` (user `me`): the task reads answered by their
 * handlers, `updates.list` by `updates()`.
 */
function dispatchOver(tasks: Partial<Task>[], updates: () => unknown = () => ({ groups: [], unread: 0 })) {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.projects.upsertMany([aProject({ id: 'p1' })]);
  cache.tasks.upsertMany(tasks.map((t, i) => flattenTask(aTask({ id: `t${i}`, projectId: 'p1', ...t }))));
  const reads = taskReadHandlers({ cache, userId: 'me' } as unknown as ReadDeps);
  return createDispatch({
    'tasks.due': reads['tasks.due'],
    'tasks.myWork': reads['tasks.myWork'],
    'updates.list': async () => updates() as never,
  });
}

/** A completed sync run, as the core announces it, and the turn its reads take. */
async function syncEnded(events: EventHub, at: string): Promise<void> {
  events.emit('sync.onDidChangeStatus', {
    online: true,
    running: false,
    phase: 'idle',
    done: 0,
    total: 0,
    lastSyncedAt: at,
    lastError: null,
    pendingCount: 0,
    tokenNeeded: false,
    readProblems: [],
    probing: false,
    nextProbeAt: null,
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('action-required watcher', () => {
  it('notifies only for tasks that newly need the acting user, after a silent baseline', () => {
    const notify = vi.fn();
    const watcher = createActionRequiredWatcher({ notify });
    watcher.update([{ id: 't1', title: 'Old task' }]);
    expect(notify).not.toHaveBeenCalled();
    watcher.update([
      { id: 't1', title: 'Old task' },
      { id: 't2', title: 'Review the budget' },
    ]);
    expect(notify).toHaveBeenCalledExactlyOnceWith({
      title: 'Your action is required',
      body: 'Review the budget',
      taskId: 't2',
    });
    watcher.update([{ id: 't2', title: 'Review the budget' }]);
    watcher.update([
      { id: 't1', title: 'Old task' },
      { id: 't2', title: 'Review the budget' },
    ]);
    expect(notify).toHaveBeenLastCalledWith({
      title: 'Your action is required',
      body: 'Old task',
      taskId: 't1',
    });
    expect(notify).toHaveBeenCalledTimes(2);
  });
});

describe('watchActionRequired', () => {
  function setup() {
    const events = new EventHub();
    let rows = [{ id: 't1', name: 'Old task' }];
    const dispatch = vi.fn(async (channel: unknown, arg: unknown) => {
      expect(channel).toBe('tasks.myWorkNames');
      expect(arg).toMatchObject({ kind: 'actionRequired' });
      return { ok: true as const, value: rows };
    });
    const notify = vi.fn();
    const stop = watchActionRequired({ dispatch, events }, { notify }, vi.fn());
    const status = (running: boolean, lastSyncedAt: string | null) =>
      events.emit('sync.onDidChangeStatus', {
        online: true,
        running,
        phase: 'idle',
        done: 0,
        total: 0,
        lastSyncedAt,
        lastError: null,
        pendingCount: 0,
        tokenNeeded: false,
        probing: false,
        nextProbeAt: null,
        readProblems: [],
      });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    // The rows change as the cache's tasks do, which the core announces.
    const setRows = (next: typeof rows) => {
      rows = next;
      events.emit('cache.onDidChange', { entities: ['tasks'] });
    };
    return { dispatch, notify, stop, status, settle, setRows, events };
  }

  it('reads after each completed sync and notifies only what is new since the first', async () => {
    const t = setup();
    t.status(true, null);
    t.status(false, '2026-01-01T10:00:00');
    await t.settle();
    expect(t.dispatch).toHaveBeenCalledOnce();
    expect(t.notify).not.toHaveBeenCalled();

    t.setRows([
      { id: 't1', name: 'Old task' },
      { id: 't2', name: 'Sign the contract' },
    ]);
    t.status(true, '2026-01-01T10:00:00');
    t.status(false, '2026-01-01T10:00:00');
    await t.settle();
    expect(t.dispatch).toHaveBeenCalledOnce();
    t.status(false, '2026-01-01T10:05:00');
    await t.settle();
    expect(t.notify).toHaveBeenCalledExactlyOnceWith({
      title: 'Your action is required',
      body: 'Sign the contract',
      taskId: 't2',
    });

    t.stop();
    t.status(false, '2026-01-01T10:10:00');
    await t.settle();
    expect(t.dispatch).toHaveBeenCalledTimes(2);
  });

  it('reads again only after a run that follows a change of the cached tasks', async () => {
    const t = setup();
    t.status(false, '2026-01-01T10:00:00');
    await t.settle();
    expect(t.dispatch).toHaveBeenCalledOnce();
    // A pull that stored no task, or only other items: the list is the one read before.
    t.events.emit('cache.onDidChange', { entities: ['messages', 'events'] });
    t.status(false, '2026-01-01T10:05:00');
    await t.settle();
    expect(t.dispatch).toHaveBeenCalledOnce();
    t.setRows([
      { id: 't1', name: 'Old task' },
      { id: 't3', name: 'Approve the plan' },
    ]);
    t.status(false, '2026-01-01T10:10:00');
    await t.settle();
    expect(t.dispatch).toHaveBeenCalledTimes(2);
    expect(t.notify).toHaveBeenCalledExactlyOnceWith({
      title: 'Your action is required',
      body: 'Approve the plan',
      taskId: 't3',
    });
    t.stop();
  });
});

describe('watchUpdateNotices', () => {
  it('notifies what a pull brought, per kind as the settings say, and what is due, once a day', async () => {
    const events = new EventHub();
    const item = (id: number, kind: 'comment' | 'status' | 'new') => ({
      id,
      kind,
      actor: 'bob',
      at: '2026-03-02T10:00:00',
      detail: null,
      text: null,
      read: false,
    });
    let groups = [
      {
        taskId: 't1',
        shortId: '7',
        name: 'Old',
        projectId: 'p',
        relation: 'assigned',
        items: [item(1, 'comment')],
        unread: 1,
      },
    ];
    const dispatch = dispatchOver(
      [
        { name: 'Ship it', deadline: '2026-03-02', assignedToUserId: 'me' },
        { name: 'Plan it', deadline: '2026-03-03', assignedToUserId: 'me' },
        {
          name: 'Done it',
          deadline: '2026-03-03',
          assignedToUserId: 'me',
          momentClosed: '2026-03-01T10:00:00',
        },
      ],
      () => ({ groups, unread: 0 }),
    );
    const notify = vi.fn();
    let prefs = structuredClone(DEFAULT_NOTIFICATIONS);
    watchUpdateNotices(
      { dispatch, events },
      { notify },
      vi.fn(),
      () => prefs,
      () => new Date(2026, 2, 2, 9),
    );
    const synced = (at: string) => syncEnded(events, at);
    await synced('a');
    // The first run: what was there is the baseline; the day's due tasks are told once.
    expect(notify.mock.calls.map(([n]) => n.title)).toEqual(['Due today: 1 task', 'Due tomorrow: 1 task']);
    notify.mockClear();
    groups = [
      { ...groups[0]!, items: [item(3, 'comment'), item(2, 'status'), item(1, 'comment')] },
      {
        taskId: 't2',
        shortId: '8',
        name: 'Fresh',
        projectId: 'p',
        relation: 'assigned',
        items: [item(4, 'new')],
        unread: 1,
      },
    ];
    prefs = { ...prefs, statusChange: { toast: true, system: false } };
    await synced('b');
    expect(notify.mock.calls.map(([n]) => [n.title, n.body, n.taskId])).toEqual([
      ['New comment on your task', '#7 Old', 't1'],
      ['Assigned to you', '#8 Fresh', 't2'],
    ]);
    notify.mockClear();
    await synced('c');
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('the daily due notice and Home', () => {
  it("reads the due tasks again at the next completed sync when the day's read failed", async () => {
    const events = new EventHub();
    const cache = dispatchOver([{ name: 'Ship it', deadline: '2026-03-02', assignedToUserId: 'me' }]);
    let failing = true;
    let reads = 0;
    const dispatch: typeof cache = async (channel, input) => {
      if (channel === 'tasks.due') {
        reads += 1;
        if (failing) return { ok: false, error: { type: 'internal', message: 'The cache is busy.' } };
      }
      return cache(channel, input);
    };
    const notify = vi.fn();
    const log = vi.fn();
    watchUpdateNotices(
      { dispatch, events },
      { notify },
      log,
      () => DEFAULT_NOTIFICATIONS,
      () => new Date(2026, 2, 2, 9),
    );
    await syncEnded(events, 'a');
    expect(log).toHaveBeenCalledWith('due tasks check failed: The cache is busy.');
    expect(notify).not.toHaveBeenCalled();
    // Read once per completed sync, not in a loop: the next sync's end tries it again.
    expect(reads).toBe(1);
    failing = false;
    await syncEnded(events, 'b');
    expect(notify.mock.calls.map(([n]) => n.title)).toEqual(['Due today: 1 task']);
    // Told once the day: a later sync that day reads it no more.
    await syncEnded(events, 'c');
    expect(reads).toBe(2);
  });

  it('counts what Home lists: a task awaiting my action, not assigned to me, due today', async () => {
    const now = new Date(2026, 10, 27, 9);
    const dispatch = dispatchOver([
      { name: 'Sign the offer', deadline: '2026-11-27', assignedToUserId: 'ann', actionRequiredUserId: 'me' },
      { name: "Ann's own", deadline: '2026-11-27', assignedToUserId: 'ann' },
      { name: 'Review', deadline: '2026-11-28', actionRequiredUserId: 'me' },
    ]);
    // Home's question at that moment, through the same dispatch.
    const { today, sunday } = homeDays(now);
    const home = await dispatch('tasks.due', { today, through: sunday, perGroup: DUE_PER_GROUP });
    const sections = dueSections(home.ok ? (home.value as DueTasks) : ({} as DueTasks));
    const homeToday = sections.find((s) => s.key === 'today');
    expect(homeToday?.rows.map((r) => r.name)).toEqual(['Sign the offer']);

    const events = new EventHub();
    const notify = vi.fn();
    watchUpdateNotices(
      { dispatch, events },
      { notify },
      vi.fn(),
      () => DEFAULT_NOTIFICATIONS,
      () => now,
    );
    await syncEnded(events, 'a');
    expect(notify.mock.calls.map(([n]) => [n.title, n.body, n.taskId])).toEqual([
      ['Due today: 1 task', 'Sign the offer', 't0'],
      ['Due tomorrow: 1 task', 'Review', 't2'],
    ]);
  });
});
