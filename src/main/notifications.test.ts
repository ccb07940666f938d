import { beforeEach, describe, expect, it, vi } from 'vitest';

const shown = vi.hoisted(() => ({ supported: true, list: [] as { options: unknown; click?: () => void }[] }));
vi.mock('electron', () => ({
  Notification: class {
    static isSupported = () => shown.supported;
    readonly entry: { options: unknown; click?: () => void };
    constructor(options: unknown) {
      this.entry = { options };
    }
    on(_name: 'click', listener: () => void) {
      this.entry.click = listener;
    }
    show() {
      shown.list.push(this.entry);
    }
  },
}));
const { createSystemNotifier } = await import('./notifications');

beforeEach(() => {
  shown.list.length = 0;
  shown.supported = true;
});

describe('system notifier', () => {
  it('shows a notification that brings the app forward and opens its task when clicked', () => {
    const focus = vi.fn();
    const openTask = vi.fn();
    createSystemNotifier(focus, openTask).notify({
      title: 'Your action is required',
      body: 'Review',
      taskId: 't-42',
    });
    expect(shown.list).toHaveLength(1);
    expect(shown.list[0]?.options).toEqual({
      title: 'Your action is required',
      body: 'Review',
      silent: false,
    });
    expect(openTask).not.toHaveBeenCalled();
    shown.list[0]?.click?.();
    expect(focus).toHaveBeenCalledOnce();
    expect(openTask).toHaveBeenCalledExactlyOnceWith('t-42');
  });

  it('only brings the app forward for a notification about no task', () => {
    const focus = vi.fn();
    const openTask = vi.fn();
    createSystemNotifier(focus, openTask).notify({ title: 'Workdesk', body: 'Signed out' });
    shown.list[0]?.click?.();
    expect(focus).toHaveBeenCalledOnce();
    expect(openTask).not.toHaveBeenCalled();
  });

  it('does nothing where the OS has no notifications', () => {
    shown.supported = false;
    createSystemNotifier(vi.fn(), vi.fn()).notify({ title: 't', body: 'b', taskId: 't1' });
    expect(shown.list).toEqual([]);
  });
});
