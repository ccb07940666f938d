import { describe, expect, it, vi } from 'vitest';
import { createActionRequiredWatcher } from './notifier';

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
    });
    watcher.update([{ id: 't2', title: 'Review the budget' }]);
    watcher.update([
      { id: 't1', title: 'Old task' },
      { id: 't2', title: 'Review the budget' },
    ]);
    expect(notify).toHaveBeenLastCalledWith({ title: 'Your action is required', body: 'Old task' });
    expect(notify).toHaveBeenCalledTimes(2);
  });
});
