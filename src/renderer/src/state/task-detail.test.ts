// The open task's state when a read fails: a task the cache no longer holds and the service did
// not answer about ('offline') is not shown as it was. Its runes are stood in for by plain
// values (no component draws from it here), so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import type { TaskDetail } from '@shared/ipc/tasks';
import type { Bridge } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
plainRunes();

const { TaskDetailState } = await import('./task-detail.svelte');
const { BridgeError } = await import('../lib/bridge');

const detail = { task: { id: 't1', name: 'Write the report' } } as unknown as TaskDetail;

/** A bridge answering `tasks.detail` with each of `answers` in turn (an error is thrown). */
function bridgeAnswering(...answers: (TaskDetail | Error)[]): Bridge {
  return {
    invoke: async (channel: string) => {
      if (channel !== 'tasks.detail') throw new Error(`unexpected ${channel}`);
      const next = answers.shift();
      if (!next || next instanceof Error) throw next ?? new Error('no answer left');
      return next;
    },
    on: () => () => undefined,
  } as unknown as Bridge;
}

describe('the open task when a read fails', () => {
  it('stops showing a task the cache no longer holds when the service did not answer about it', async () => {
    const offline = new BridgeError({
      type: 'offline',
      message: 'The service did not answer',
      field: 'taskId',
    });
    const state = new TaskDetailState(bridgeAnswering(detail, offline), 't1');
    await state.load();
    expect(state.detail).toBe(detail);
    await state.load();
    expect(state.detail).toBeUndefined();
    expect(state.error).toContain('The service did not answer');
    expect(state.missing).toBe(false);
  });

  it('keeps showing the task when the whole core is offline for a moment (restarting, its socket lost)', async () => {
    const restarting = new BridgeError({
      type: 'offline',
      message: "Workdesk's core stopped while answering",
    });
    const state = new TaskDetailState(bridgeAnswering(detail, restarting), 't1');
    await state.load();
    await state.load();
    expect(state.detail).toBe(detail);
    expect(state.error).toContain('stopped while answering');
  });

  it('keeps showing the task after another failure (the cache still holds it)', async () => {
    const refused = new BridgeError({ type: 'invalid-argument', message: 'taskId: not an id' });
    const state = new TaskDetailState(bridgeAnswering(detail, refused), 't1');
    await state.load();
    await state.load();
    expect(state.detail).toBe(detail);
    expect(state.error).toBeDefined();
  });

  it('says a task deleted while open is gone', async () => {
    const gone = new BridgeError({ type: 'not-found', message: 'Task t1 is not in the cache' });
    const state = new TaskDetailState(bridgeAnswering(detail, gone), 't1');
    await state.load();
    await state.load();
    expect(state.detail).toBeUndefined();
    expect(state.missing).toBe(true);
  });
});
