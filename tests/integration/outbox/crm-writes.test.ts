// CRM writes through the outbox: the creates answer no id, so the outbox finds the new record;
// with the answer lost after the service committed, it is still created once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import { SEED_IDS } from '../../../src/server/seed/index';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService } from '../../support/service';
import { testEngine, type TestEngine } from './support';

let svc: RunningService;
let api: ServiceClient;
let proxy: FaultProxy;
let engine: TestEngine;

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  api = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
  proxy = await startFaultProxy({ target: svc.baseUrl });
});
afterEach(async () => {
  proxy.reset();
  await engine?.close();
});
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

describe('CRM writes through the outbox', () => {
  it('creates an account and a contact in it, links them to a task, edits, deletes: each once', async () => {
    engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { timeoutMs: 1_000 });
    const e = engine;
    await e.sync.now();
    proxy.set({ dropAfter: { next: 2, match: /^POST \/2\.0\/crm\// } });
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
    expect(proxy.stats().injected.dropAfter).toBe(2);
    const [a, c, t] = [account.id, contact.id, task.id].map((x) => e.outbox.realIdOf(x));
    expect((await api.crmAccounts()).filter((x) => x.name === 'Acme Offline').map((x) => x.id)).toEqual([a]);
    expect((await api.crmContacts()).filter((x) => x.firstName === 'Ola').map((x) => x.id)).toEqual([c]);
    expect((await api.crmContact(c!)).contact).toMatchObject({ email: 'ola@acme.test', crmAccountId: a });
    expect(await api.task(t!)).toMatchObject({ crmAccountId: a, crmContactIds: [c] });

    await e.call('crm.deleteAccount', { accountId: a! });
    expect(e.cache.crm.account(a!)?.isDeleted).toBe(true);
    await e.drained();
    await expect(api.crmAccount(a!)).rejects.toMatchObject({ status: 404 });
    expect((await api.crmAccounts()).some((x) => x.id === a && !x.isDeleted)).toBe(false);
    expect(e.outbox.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('takes for its own create only a record made after the send, not a twin made meanwhile', async () => {
    engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { timeoutMs: 1_000 });
    const e = engine;
    await e.sync.now();
    await e.outbox.outbox.stop();
    const mine = await e.call('crm.createContact', {
      firstName: 'Twin',
      lastName: 'Once',
      email: 't@x.test',
    });
    // The same user, on another device, makes an identical contact before this one is sent.
    await api.createCrmContact({
      createdByUserId: svc.users.actingUserId,
      firstName: 'Twin',
      lastName: 'Once',
      email: 't@x.test',
    });
    const twin = (await api.crmContacts()).find((c) => c.firstName === 'Twin');
    e.outbox.outbox.start();
    await e.drained();
    const realId = e.outbox.realIdOf(mine.id);
    expect(realId).not.toBe(mine.id);
    expect(realId).not.toBe(twin?.id);
    expect((await api.crmContacts()).filter((c) => c.firstName === 'Twin')).toHaveLength(2);
  });

  it("a contact owned by someone else is never taken as this account's create", async () => {
    engine = await testEngine(proxy.baseUrl, svc.token, svc.users.actingUserId, { timeoutMs: 1_000 });
    const e = engine;
    await e.sync.now();
    // Bob's identical contact lands after the send; the answer to this client's create is lost.
    proxy.set({ dropAfter: { next: 1, match: /^POST \/2\.0\/crm\/contacts$/ } });
    const mine = await e.call('crm.createContact', { firstName: 'Shared', lastName: 'Name' });
    for (let i = 0; i < 200 && proxy.stats().injected.dropAfter === 0; i++)
      await new Promise((r) => setTimeout(r, 5));
    await api.createCrmContact({ createdByUserId: svc.users.bob, firstName: 'Shared', lastName: 'Name' });
    const bobs = (await api.crmContacts()).find(
      (c) => c.firstName === 'Shared' && c.contactOwnerUserId === svc.users.bob,
    );
    await e.drained();
    const realId = e.outbox.realIdOf(mine.id);
    expect(realId).not.toBe(bobs?.id);
    expect((await api.crmContacts()).filter((c) => c.firstName === 'Shared')).toHaveLength(2);
  });
});
