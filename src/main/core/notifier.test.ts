import { describe, expect, it, vi } from 'vitest';
import { EventHub } from './event-hub';
import { createActionRequiredWatcher, watchActionRequired } from './notifier';

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
      expect(channel).toBe('tasks.myWork');
      expect(arg).toMatchObject({ kind: 'actionRequired' });
      return { ok: true as const, value: { rows, total: rows.length } };
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
    return { dispatch, notify, stop, status, settle, setRows: (next: typeof rows) => (rows = next) };
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
});
