// The project overview's state when a read again fails: the project stays on screen (with what
// is being typed in its fields) unless it is gone or no longer held. Its runes are stood in for
// by plain values (no component draws from it here), so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import type { ProjectDetail } from '@shared/ipc/projects';
import type { Bridge } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
plainRunes();

const { ProjectOverviewState } = await import('./project-overview.svelte');
const { BridgeError } = await import('../lib/bridge');

const detail = { project: { id: 'p1', name: 'Alpha' } } as unknown as ProjectDetail;

/** A bridge answering `projects.detail` with each of `answers` in turn; no milestones. */
function bridgeAnswering(...answers: (ProjectDetail | Error)[]): Bridge {
  return {
    invoke: async (channel: string) => {
      if (channel === 'events.list') return [];
      if (channel !== 'projects.detail') throw new Error(`unexpected ${channel}`);
      const next = answers.shift();
      if (!next || next instanceof Error) throw next ?? new Error('no answer left');
      return next;
    },
    on: () => () => undefined,
  } as unknown as Bridge;
}

describe('the project overview when a read again fails', () => {
  it('keeps the project on screen when the core is offline for a moment, and says so', async () => {
    const restarting = new BridgeError({
      type: 'offline',
      message: "Workdesk's core stopped while answering",
    });
    const state = new ProjectOverviewState(bridgeAnswering(detail, restarting, detail), 'p1');
    await state.load();
    await state.load();
    expect(state.detail).toBe(detail);
    expect(state.error).toContain('stopped while answering');
    await state.load();
    expect(state.error).toBeUndefined();
  });

  it('stops showing a project the cache no longer holds when the service did not answer about it', async () => {
    const notHeld = new BridgeError({
      type: 'offline',
      message: 'The service did not answer',
      field: 'projectId',
    });
    const state = new ProjectOverviewState(bridgeAnswering(detail, notHeld), 'p1');
    await state.load();
    await state.load();
    expect(state.detail).toBeUndefined();
    expect(state.error).toContain('did not answer');
  });

  it('says a project deleted while open is gone', async () => {
    const gone = new BridgeError({ type: 'not-found', message: 'Project p1 is not in the cache' });
    const state = new ProjectOverviewState(bridgeAnswering(detail, gone), 'p1');
    await state.load();
    await state.load();
    expect(state.detail).toBeUndefined();
    expect(state.missing).toBe(true);
  });
});
