import { describe, expect, it } from 'vitest';
import type { CacheChange } from '@shared/ipc/events';
import type { Bridge } from './bridge';
import { onCacheChange } from './cache-events';
import { coalescePerFrame, windowFrames, type FrameClock } from './frame-coalesce';

/** Frames the test advances by hand. */
function manualFrames() {
  let waiting: (() => void)[] = [];
  const clock: FrameClock = {
    next(fn) {
      waiting.push(fn);
      return () => {
        waiting = waiting.filter((f) => f !== fn);
      };
    },
  };
  return {
    clock,
    frame() {
      const due = waiting;
      waiting = [];
      for (const fn of due) fn();
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/** A bridge whose cache-change events, and connection lost and back, the test sends. */
function fakeBridge() {
  const listeners = new Set<(payload: unknown) => void>();
  const connection = new Set<(connected: boolean) => void>();
  // The members `onCacheChange` uses (the real bridge module reads the window when loaded).
  const bridge = {
    on(_event: string, listener: (payload: unknown) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onConnection(listener: (connected: boolean) => void) {
      connection.add(listener);
      return () => connection.delete(listener);
    },
  } as unknown as Bridge;
  return {
    bridge,
    send: (change: CacheChange) => {
      for (const listener of listeners) listener(change);
    },
    connected: (connected: boolean) => {
      for (const listener of connection) listener(connected);
    },
    get listeners() {
      return listeners.size + connection.size;
    },
  };
}

describe('coalescePerFrame', () => {
  it('runs once per frame however many requests came in it', () => {
    const frames = manualFrames();
    let runs = 0;
    const refresh = coalescePerFrame(() => runs++, frames.clock);
    for (let i = 0; i < 4000; i++) refresh.request();
    expect(runs).toBe(0);
    frames.frame();
    expect(runs).toBe(1);
    frames.frame();
    expect(runs).toBe(1);
    refresh.request();
    frames.frame();
    expect(runs).toBe(2);
  });

  it('drops a run still waiting when cancelled', () => {
    const frames = manualFrames();
    let runs = 0;
    const refresh = coalescePerFrame(() => runs++, frames.clock);
    refresh.request();
    refresh.cancel();
    frames.frame();
    expect(runs).toBe(0);
    expect(frames.waiting).toBe(0);
  });

  it('runs on a timer where there are no animation frames (no window, a hidden one)', async () => {
    let runs = 0;
    const refresh = coalescePerFrame(() => runs++, windowFrames);
    refresh.request();
    refresh.request();
    await expect.poll(() => runs).toBe(1);
    await new Promise((r) => setTimeout(r, 40));
    expect(runs).toBe(1);
  });
});

describe('onCacheChange', () => {
  it('refreshes a view once per frame for a sync that sends thousands of events', () => {
    const frames = manualFrames();
    const { bridge, send } = fakeBridge();
    let refreshes = 0;
    onCacheChange(bridge, ['tasks'], () => refreshes++, undefined, frames.clock);
    for (let i = 0; i < 4000; i++) send({ entities: i % 2 ? ['tasks', 'messages'] : ['messages'] });
    frames.frame();
    expect(refreshes).toBe(1);
    // Changes to what the view does not show never ask for a frame.
    send({ entities: ['events'] });
    expect(frames.waiting).toBe(0);
  });

  it('asks only for changes naming a watched id, and stops with its unsubscribe', () => {
    const frames = manualFrames();
    const { bridge, send, listeners } = fakeBridge();
    let refreshes = 0;
    const off = onCacheChange(
      bridge,
      ['tasks'],
      () => refreshes++,
      () => ['t1'],
      frames.clock,
    );
    send({ entities: ['tasks'], ids: { tasks: ['t2'] } });
    frames.frame();
    expect(refreshes).toBe(0);
    send({ entities: ['tasks'], ids: { tasks: ['t1'] } });
    off();
    frames.frame();
    expect(refreshes).toBe(0);
    expect(listeners).toBe(0);
  });

  it('reads again once when the connection to the core comes back, not when it is lost', () => {
    const frames = manualFrames();
    const { bridge, send, connected, listeners } = fakeBridge();
    let refreshes = 0;
    const off = onCacheChange(bridge, ['tasks'], () => refreshes++, undefined, frames.clock);
    connected(false);
    expect(frames.waiting).toBe(0);
    // Back, with no change heard: the view reads again.
    connected(true);
    frames.frame();
    expect(refreshes).toBe(1);
    // Back, and a change in the same frame: one read.
    connected(true);
    send({ entities: ['tasks'] });
    frames.frame();
    expect(refreshes).toBe(2);
    off();
    connected(true);
    frames.frame();
    expect(refreshes).toBe(2);
    expect(listeners).toBe(0);
  });
});
