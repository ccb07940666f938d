// The Changes view's lists (the outbox's pending, refused, stuck changes and conflicts) when
// reading them again fails: the lists last read stay with a note above them; a first read that
// fails shows the error in their place. Runes stood in for by plain values (logic in node).
import { describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';

vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
vi.mock('../lib/toasts.svelte', () => ({ toasts: { show: () => undefined } }));
plainRunes();

const { OutboxState } = await import('./outbox.svelte');
const { BridgeError } = await import('../lib/bridge');

const LOST = 'The connection to the Workdesk core was lost.';

/** A bridge whose outbox lists hold one pending change, or fail while `lost`. */
function outboxBridge() {
  const state = { lost: false };
  const bridge = {
    invoke: (channel: string) => {
      if (state.lost) return Promise.reject(new BridgeError({ type: 'offline', message: LOST }));
      if (channel === 'outbox.pending') return Promise.resolve([{ id: 1, entityKey: 'task:t1' }]);
      return Promise.resolve([]);
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  } as unknown as Bridge;
  return { bridge, state };
}

describe("the Changes view's lists when reading them again fails", () => {
  it('keeps the lists with the error above them, and drops the note once a read answers', async () => {
    const { bridge, state } = outboxBridge();
    const outbox = new OutboxState(bridge);
    const stop = outbox.watchLists();
    await vi.waitFor(() => expect(outbox.pending).toHaveLength(1));
    state.lost = true;
    await outbox.loadLists();
    expect(outbox.keptError).toBe(LOST);
    expect(outbox.error).toBeUndefined();
    expect(outbox.pending).toHaveLength(1);
    state.lost = false;
    await outbox.loadLists();
    expect(outbox.keptError).toBeUndefined();
    stop();
  });

  it("shows the error in their place when a visit's first read fails, whatever an earlier visit read", async () => {
    const { bridge, state } = outboxBridge();
    const outbox = new OutboxState(bridge);
    state.lost = true;
    outbox.watchLists()();
    await vi.waitFor(() => expect(outbox.error).toBe(LOST));
    // A visit that read the lists, then a later visit whose first read fails.
    state.lost = false;
    const first = outbox.watchLists();
    await vi.waitFor(() => expect(outbox.pending).toHaveLength(1));
    first();
    state.lost = true;
    outbox.watchLists();
    await vi.waitFor(() => expect(outbox.error).toBe(LOST));
    expect(outbox.keptError).toBeUndefined();
  });
});
