// CRM writes through the outbox: the creates answer no id, so the outbox finds the new record;
// with the answer lost after the service committed, it is still created once.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../../src/server/seed/index';
import { writesSuite } from './support';
import { crmEndpoints } from '../../../src/shared/api/crm';
import { taskEndpoints } from '../../../src/shared/api/tasks';

const suite = writesSuite();

describe('CRM writes through the outbox', () => {
  it('creates an account and a contact in it, links them to a task, edits, deletes: each once', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    suite.proxy.set({ dropAfter: { next: 2, match: /^POST \/2\.0\/crm\// } });
    const account = await e.call('crm.createAccount', { name: 'Acme Offline', website: 'https://acme.test' });
    const contact = await e.call('crm.createContact', {
      firstName: 'Ola',
      lastName: 'Nordmann',
      crmAccountId: account.id,
    });
    const task = await e.call('tasks.create', { projectId: SEED_IDS.workspace, title: 'Call Acme' });
    await e.call('tasks.update', {
      taskId: task.id,
      changes: { crmAccountId: account.id, crmContactIds: [contact.id] },
    });
    await e.call('crm.updateContact', { contactId: contact.id, changes: { email: 'ola@acme.test' } });
    expect(e.cache.crm.contact(contact.id)).toMatchObject({
      email: 'ola@acme.test',
      crmAccountId: account.id,
    });
    await e.drained();
    expect(suite.proxy.stats().injected.dropAfter).toBe(2);
    const [a, c, t] = [account.id, contact.id, task.id].map((x) => e.outbox.realIdOf(x));
    expect(
      (await suite.api.call(crmEndpoints.crmAccounts))
        .filter((x) => x.name === 'Acme Offline')
        .map((x) => x.id),
    ).toEqual([a]);
    expect(
      (await suite.api.call(crmEndpoints.crmContacts)).filter((x) => x.firstName === 'Ola').map((x) => x.id),
    ).toEqual([c]);
    expect((await suite.api.call(crmEndpoints.crmContact, { id: c! })).contact).toMatchObject({
      email: 'ola@acme.test',
      crmAccountId: a,
    });
    expect(await suite.api.call(taskEndpoints.task, { id: t! })).toMatchObject({
      crmAccountId: a,
      crmContactIds: [c],
    });

    await e.call('crm.deleteAccount', { accountId: a! });
    expect(e.cache.crm.account(a!)?.isDeleted).toBe(true);
    await e.drained();
    await expect(suite.api.call(crmEndpoints.crmAccount, { id: a! })).rejects.toMatchObject({ status: 404 });
    expect((await suite.api.call(crmEndpoints.crmAccounts)).some((x) => x.id === a && !x.isDeleted)).toBe(
      false,
    );
    expect(e.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('takes for its own create only a record made after the send, not a twin made meanwhile', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    await e.outbox.stop();
    const mine = await e.call('crm.createContact', {
      firstName: 'Twin',
      lastName: 'Once',
      email: 't@x.test',
    });
    // The same user, on another device, makes an identical contact before this one is sent.
    await suite.api.call(crmEndpoints.createCrmContact, {
      body: {
        createdByUserId: suite.svc.users.actingUserId,
        firstName: 'Twin',
        lastName: 'Once',
        email: 't@x.test',
      },
    });
    const twin = (await suite.api.call(crmEndpoints.crmContacts)).find((c) => c.firstName === 'Twin');
    e.outbox.start();
    await e.drained();
    const realId = e.outbox.realIdOf(mine.id);
    expect(realId).not.toBe(mine.id);
    expect(realId).not.toBe(twin?.id);
    expect(
      (await suite.api.call(crmEndpoints.crmContacts)).filter((c) => c.firstName === 'Twin'),
    ).toHaveLength(2);
  });

  it("a contact owned by someone else is never taken as this account's create", async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    // Bob's identical contact lands after the send; the answer to this client's create is lost.
    suite.proxy.set({ dropAfter: { next: 1, match: /^POST \/2\.0\/crm\/contacts$/ } });
    const mine = await e.call('crm.createContact', { firstName: 'Shared', lastName: 'Name' });
    for (let i = 0; i < 200 && suite.proxy.stats().injected.dropAfter === 0; i++)
      await new Promise((r) => setTimeout(r, 5));
    await suite.api.call(crmEndpoints.createCrmContact, {
      body: {
        createdByUserId: suite.svc.users.bob,
        firstName: 'Shared',
        lastName: 'Name',
      },
    });
    const bobs = (await suite.api.call(crmEndpoints.crmContacts)).find(
      (c) => c.firstName === 'Shared' && c.contactOwnerUserId === suite.svc.users.bob,
    );
    await e.drained();
    const realId = e.outbox.realIdOf(mine.id);
    expect(realId).not.toBe(bobs?.id);
    expect(
      (await suite.api.call(crmEndpoints.crmContacts)).filter((c) => c.firstName === 'Shared'),
    ).toHaveLength(2);
  });

  it('a contact whose post went through and whose id look-up was refused is created once', async () => {
    const e = await suite.engine({ timeoutMs: 1_000 });
    const proxy = suite.proxy;
    // Every request is held a while, so the 429 is armed while the post waits in the proxy: the
    // next list of contacts is then the id look-up after the post (the one before it has passed).
    proxy.set({ delayMs: 200 });
    const before = proxy.stats().received;
    const { id } = await e.call('crm.createContact', { firstName: 'Throttled look-up' });
    for (let i = 0; i < 400 && proxy.stats().received < before + 2; i++)
      await new Promise((r) => setTimeout(r, 5));
    proxy.set({ tooMany: { next: 1, match: /^GET \/2\.0\/crm\/contacts$/ } });
    await e.drained();
    expect(proxy.stats().injected.tooMany).toBe(1);
    proxy.reset();
    const named = (await suite.api.call(crmEndpoints.crmContacts)).filter(
      (c) => c.firstName === 'Throttled look-up',
    );
    expect(named.map((c) => c.id)).toEqual([e.outbox.realIdOf(id)]);
    expect(e.outbox.entries('done').find((x) => x.createdTempId === id)?.attempts).toBe(1);
  });
});
