// The attempt around a send, against the real service: what happens after an acknowledgement
// (listeners that throw) and before a send (a failing `prepare`) never makes an entry "outcome
// unknown" when it is not, so nothing is created twice and nothing else is taken for it.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { FAST_OUTBOX, writesSuite } from './support';
import { queueOf } from '../../../src/main/core/outbox/testing';
import { taskEndpoints } from '../../../src/shared/api/tasks';
import { crmEndpoints } from '../../../src/shared/api/crm';

const suite = writesSuite();

describe('outbox: around the send', () => {
  it('transports that throw on every event (a closing window) neither duplicate nor stall a create', async () => {
    const logged: string[] = [];
    const e = await suite.engine({ log: (m) => logged.push(m) });
    const outbox = queueOf(e.outbox);
    await outbox.stop();
    const title = 'Created while the window closed';
    const task = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title });
    await e.call('tasks.update', { taskId: task.id, changes: { title: `${title}, renamed` } });
    // The window closes as the changes are sent: from now on every event meets what
    // `webContents.send` does while its window is being destroyed.
    const off = e.events.onAny(() => {
      throw new Error('Object has been destroyed');
    });
    outbox.start();
    await e.drained();
    off();
    const realId = e.outbox.realIdOf(task.id);
    const named = (await suite.api.call(taskEndpoints.projectTasks, { id: SEED_IDS.workspace })).filter((t) =>
      t.name.startsWith(title),
    );
    expect(named.map((t) => [t.id, t.name])).toEqual([[realId, `${title}, renamed`]]);
    expect(e.outbox.entries('done').map((x) => [x.kind, x.attempts])).toEqual([
      ['task.create', 1],
      ['task.update', 1],
    ]);
    expect(logged.some((m) => m.includes('a listener failed: Object has been destroyed'))).toBe(true);
  });

  it('a create whose prepare failed was never sent: a twin made meanwhile is not taken for it', async () => {
    // The retry after the failed prepare waits a minute, so the entry is still pending when it
    // is read below: with the suite's retries of a few milliseconds, recording the failure (a
    // commit synced to disk) can outlast the wait on a busy machine, and the retry then runs at
    // once, correctly, before the entry is read. The retry is run by the restart further down
    // (a start makes every waiting retry due).
    const e = await suite.engine({
      timeoutMs: 1_000,
      outbox: { ...FAST_OUTBOX, backoff: { baseMs: 60_000, maxMs: 60_000 } },
    });
    const outbox = queueOf(e.outbox);
    await outbox.stop();
    const mine = await e.call('crm.createContact', { firstName: 'Prepared', lastName: 'Later' });
    // The list of matching contacts before the send fails; nothing is sent.
    const failedBefore = suite.proxy.stats().injected.serverError;
    suite.proxy.set({ serverError: { next: 1, match: /^GET \/2\.0\/crm\/contacts$/ } });
    outbox.start();
    await outbox.idle();
    await outbox.stop();
    expect(suite.proxy.stats().injected.serverError).toBe(failedBefore + 1);
    expect(outbox.entries().find((x) => x.createdTempId === mine.id)).toMatchObject({
      state: 'pending',
      attempts: 1,
      sentAt: null,
    });
    // The same user makes an identical contact on another device before the retry.
    await suite.api.call(crmEndpoints.createCrmContact, {
      body: {
        createdByUserId: suite.svc.users.actingUserId,
        firstName: 'Prepared',
        lastName: 'Later',
      },
    });
    const twin = (await suite.api.call(crmEndpoints.crmContacts)).find((c) => c.firstName === 'Prepared');
    outbox.start();
    await e.drained();
    const realId = e.outbox.realIdOf(mine.id);
    expect(realId).not.toBe(mine.id);
    expect(realId).not.toBe(twin?.id);
    expect(
      (await suite.api.call(crmEndpoints.crmContacts)).filter((c) => c.firstName === 'Prepared'),
    ).toHaveLength(2);
  });
});
