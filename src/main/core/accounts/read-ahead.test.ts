import { describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '../../../shared/ipc/channel';
import { FIRST_READS, readAhead } from './read-ahead';

/** A dispatch that answers each call with its channel and a running number. */
function counting() {
  let n = 0;
  const dispatch = vi.fn(async (channel: string, _arg: unknown): Promise<IpcResult<unknown>> => ({
    ok: true,
    value: { channel, n: ++n },
  }));
  return dispatch;
}

/** Lets the reads ahead run (one per turn of the event loop). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("reading the window's first views ahead", () => {
  it('reads each first read once, one after the other, and hands each answer out once', async () => {
    const dispatch = counting();
    const ahead = readAhead(dispatch);
    await settle();
    expect(dispatch.mock.calls.map(([channel, arg]) => [channel, arg])).toEqual(
      FIRST_READS.map((r) => [...r]),
    );
    // The same call, its argument's keys in another order: the answer read ahead.
    const inbox = await ahead.take('inbox.list', { first: 60 });
    expect(inbox).toEqual({ ok: true, value: { channel: 'inbox.list', n: 2 } });
    const counts = await ahead.take('tasks.myWork', { limit: 1, kind: 'assigned' });
    expect(counts).toEqual({ ok: true, value: { channel: 'tasks.myWork', n: 5 } });
    // Once only; another argument was not read ahead.
    expect(ahead.take('inbox.list', { first: 60 })).toBeUndefined();
    expect(ahead.take('inbox.list', {})).toBeUndefined();
    expect(dispatch).toHaveBeenCalledTimes(FIRST_READS.length);
  });

  it('throws the answers away when the cache changes, a write comes, or they are too old', async () => {
    const changed = readAhead(counting());
    await settle();
    changed.changed();
    expect(changed.take('projects.tree', { includeArchived: true })).toBeUndefined();

    const written = readAhead(counting());
    await settle();
    // A read of the window's first calls keeps them; a write (here a mark read) does not.
    expect(written.take('sync.status', {})).toBeUndefined();
    expect(written.take('tasks.myWorkNames', { kind: 'actionRequired', limit: 500 })).toBeUndefined();
    // Home's reads of the day, as it opens, keep them too.
    expect(written.take('tasks.due', { today: '2026-11-28', through: '2026-11-29' })).toBeUndefined();
    expect(written.take('events.list', { from: '2026-11-28', to: '2026-11-28' })).toBeUndefined();
    expect(written.take('time.mine', { from: '2026-11-23', to: '2026-11-29' })).toBeUndefined();
    expect(await written.take('org.users', {})).toMatchObject({ ok: true, value: { channel: 'org.users' } });
    expect(written.take('inbox.markRead', { taskIds: ['t1'] })).toBeUndefined();
    expect(written.take('inbox.list', { first: 60 })).toBeUndefined();

    let clock = 0;
    const old = readAhead(counting(), { now: () => clock, keepMs: 5_000 });
    await settle();
    clock = 5_001;
    expect(old.take('org.users', {})).toBeUndefined();
  });

  it("drops only the window's kept place when the window keeps another", async () => {
    const ahead = readAhead(counting());
    await settle();
    expect(ahead.take('app.rememberPlace', { kind: 'settings' })).toBeUndefined();
    // The place read ahead is the one before: read again from the core.
    expect(ahead.take('app.lastPlace', {})).toBeUndefined();
    // The other answers hold.
    expect(await ahead.take('org.users', {})).toMatchObject({ ok: true, value: { channel: 'org.users' } });
  });

  it('stops reading ahead once the answers are thrown away, and reads a failed one again', async () => {
    const dispatch = counting();
    const stopped = readAhead(dispatch);
    stopped.changed();
    await settle();
    expect(dispatch).not.toHaveBeenCalled();

    let fail = true;
    const flaky = vi.fn(async (channel: string): Promise<IpcResult<unknown>> =>
      fail && channel === 'org.users'
        ? { ok: false, error: { type: 'offline', message: 'No workspace is open' } }
        : { ok: true, value: channel },
    );
    const again = readAhead(flaky);
    await settle();
    fail = false;
    expect(await again.take('org.users', {})).toEqual({ ok: true, value: 'org.users' });
  });
});
