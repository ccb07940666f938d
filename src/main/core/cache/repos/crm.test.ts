import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { aContact, anAccount, aProject, aTask } from '../fixtures';
import { flattenTask } from './tasks';
import { accountCache } from '../../handlers/index';

function cached() {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.projects.upsertMany([aProject({ id: 'p1' })]);
  cache.tasks.upsertMany([
    flattenTask(aTask({ id: 't1', projectId: 'p1' })),
    flattenTask(aTask({ id: 't2', projectId: 'p1' })),
  ]);
  cache.crm.accounts.upsert(anAccount({ id: 'a1', name: 'Acme' }));
  cache.crm.accounts.upsert(anAccount({ id: 'a2', name: 'Acme' }));
  cache.crm.contacts.upsert(aContact({ id: 'c1', firstName: 'Ada', crmAccountId: 'a1', companyId: 'org-7' }));
  cache.crm.contacts.upsert(aContact({ id: 'c2', firstName: 'Ada', crmAccountId: 'a1', companyId: 'org-7' }));
  cache.crm.contacts.upsert(
    aContact({ id: 'c3', firstName: 'Grace', crmAccountId: 'a2', companyId: 'org-7' }),
  );
  cache.crm.setTaskContacts('t1', ['c1']);
  cache.crm.setTaskContacts('t2', ['c1', 'c3']);
  return cache;
}

describe('CRM repository: what the outbox kinds write', () => {
  it("a contact's task links, dropped, come back whole from what linkRowsOfContact kept", () => {
    const cache = cached();
    const tasksBefore = cache.crm.tasksOfContact('c1');
    const rows = cache.crm.linkRowsOfContact('c1');
    expect(rows.map((r) => r.task_id).sort()).toEqual(['t1', 't2']);
    cache.crm.dropContactLinks('c1');
    expect(cache.crm.tasksOfContact('c1')).toEqual([]);
    expect(cache.crm.contactIdsOfTask('t2')).toEqual(['c3']);
    for (const r of JSON.parse(JSON.stringify(rows)) as Record<string, unknown>[])
      cache.crm.restoreLinkRow(r);
    expect(cache.crm.tasksOfContact('c1')).toEqual(tasksBefore);
  });

  it("lists an account's contacts and detaches or re-attaches one", () => {
    const cache = cached();
    expect(cache.crm.contactIdsOfAccount('a1').sort()).toEqual(['c1', 'c2']);
    cache.crm.setContactAccount('c1', null);
    expect(cache.crm.contact('c1')?.crmAccountId).toBeNull();
    expect(cache.crm.contactIdsOfAccount('a1')).toEqual(['c2']);
    cache.crm.setContactAccount('c1', 'a2');
    expect(cache.crm.contactIdsOfAccount('a2').sort()).toEqual(['c1', 'c3']);
  });

  it('answers the company id the contacts carry, empty before any contact is cached', () => {
    expect(accountCache(openCacheDb(':memory:')).crm.companyId()).toBe('');
    expect(cached().crm.companyId()).toBe('org-7');
  });

  it('finds cached records by the name a create sends', () => {
    const cache = cached();
    expect(cache.crm.contactIdsNamed('Ada').sort()).toEqual(['c1', 'c2']);
    expect(cache.crm.contactIdsNamed('ada')).toEqual([]);
    expect(cache.crm.accountIdsNamed('Acme').sort()).toEqual(['a1', 'a2']);
    expect(cache.crm.accountIdsNamed('Other')).toEqual([]);
  });
});
