import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import { knownAccounts, knownContacts } from '../outbox/kinds/crm';
import type { HandlerMap } from './types';
import { writer } from './write';

type CrmWrite =
  | 'crm.createContact'
  | 'crm.updateContact'
  | 'crm.deleteContact'
  | 'crm.createAccount'
  | 'crm.updateAccount'
  | 'crm.deleteAccount';

/** CRM contact and account writes, queued through the outbox. */
export function crmWriteHandlers({
  outbox,
  cache,
}: {
  outbox: AccountOutbox;
  cache: Cache;
}): HandlerMap<CrmWrite> {
  const { id, queue, create } = writer(outbox);
  const withAccount = <T extends { crmAccountId?: string | null | undefined }>(input: T): T =>
    input.crmAccountId ? { ...input, crmAccountId: id(input.crmAccountId) } : input;
  return {
    'crm.createContact': (input) =>
      create('crmContact.create', (tempId) => ({
        tempId,
        input: withAccount(input),
        known: knownContacts(cache, input),
      })),
    'crm.updateContact': ({ contactId, changes }) =>
      queue('crmContact.update', { id: id(contactId), changes: withAccount(changes) }),
    'crm.deleteContact': ({ contactId }) => queue('crmContact.delete', { id: id(contactId) }),
    'crm.createAccount': (input) =>
      create('crmAccount.create', (tempId) => ({ tempId, input, known: knownAccounts(cache, input) })),
    'crm.updateAccount': ({ accountId, changes }) =>
      queue('crmAccount.update', { id: id(accountId), changes }),
    'crm.deleteAccount': ({ accountId }) => queue('crmAccount.delete', { id: id(accountId) }),
  };
}
