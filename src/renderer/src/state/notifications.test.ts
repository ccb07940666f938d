import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';
import { AFTER_FIRST_SCREEN_MS } from '../lib/when-idle';

const shown = vi.hoisted(() => [] as string[]);
vi.mock('../lib/toasts.svelte', () => ({ toasts: { show: (message: string) => shown.push(message) } }));
// The app's own bridge and states are not made here (they need a window): the watch is given its bridge.
vi.mock('../lib/bridge', () => ({ bridge: {} }));
vi.mock('../lib/focus-place', () => ({ focusPlace: () => undefined }));
vi.mock('./app', () => ({ nav: {}, settings: { preferences: undefined } }));

const { ActionRequiredWatch } = await import('./notifications');

/** A bridge whose Action required list the test sets, and whose task changes it sends. */
function fakeBridge() {
  const reads: string[] = [];
  let waiting = [{ id: 't1', name: 'Old task' }];
  const listeners: ((change: unknown) => void)[] = [];
  const bridge = {
    invoke: (channel: string) => {
      reads.push(channel);
      if (channel === 'sync.status') return Promise.resolve({ lastSyncedAt: '2026-11-27T12:00:00Z' });
      return Promise.resolve({ rows: waiting });
    },
    on: (_event: string, listener: (change: unknown) => void) => {
      listeners.push(listener);
      return () => undefined;
    },
  };
  return {
    bridge: bridge as unknown as Bridge,
    reads,
    handOver: (task: { id: string; name: string }) => {
      waiting = [task, ...waiting];
      listeners.forEach((l) => l({ entities: ['tasks'] }));
    },
  };
}

describe('ActionRequiredWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    shown.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('reads nothing until the first screen is drawn, a task change meanwhile included', async () => {
    const { bridge, reads, handOver } = fakeBridge();
    const watch = new ActionRequiredWatch(bridge, { open: () => undefined, showAll: () => undefined });
    watch.start();
    handOver({ id: 't2', name: 'Early task' });
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS - 100);
    expect(reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(reads.filter((r) => r === 'tasks.myWork')).toEqual(['tasks.myWork']);
    // What waited at the first read is known: no toast for it.
    expect(shown).toEqual([]);
  });

  it('after the first read, a task handed over raises its toast', async () => {
    const { bridge, handOver } = fakeBridge();
    const watch = new ActionRequiredWatch(bridge, { open: () => undefined, showAll: () => undefined });
    watch.start();
    await vi.advanceTimersByTimeAsync(AFTER_FIRST_SCREEN_MS + 100);
    handOver({ id: 't3', name: 'New task' });
    await vi.advanceTimersByTimeAsync(100);
    expect(shown).toEqual(['Your action is required: “New task”']);
  });
});
