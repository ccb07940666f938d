import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import { knownAccounts, knownContacts } from '../outbox/kinds/crm';
import type { HandlerMap } from './types';
import { replacedOf, withReplaced, writer } from './write';

type CrmWrite =
  | 'crm.createContact'
  | 'crm.updateContact'
  | 'crm.deleteContact'
  | 'crm.createAccount'
  | 'crm.updateAccount'
  | 'crm.deleteAccount';

/**
 * CRM contact and account writes, queued through the outbox. An update answers what it
 * replaced (`replaced`), from which the renderer builds its undo.
 */
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
    'crm.updateContact': ({ contactId, changes }) => {
      const real = id(contactId);
      const before = cache.crm.contact(real);
      const queued = queue('crmContact.update', { id: real, changes: withAccount(changes) });
      return withReplaced(queued, crmReplaced(before, cache.crm.contact(real), Object.keys(changes)));
    },
    'crm.deleteContact': ({ contactId }) => queue('crmContact.delete', { id: id(contactId) }),
    'crm.createAccount': (input) =>
      create('crmAccount.create', (tempId) => ({ tempId, input, known: knownAccounts(cache, input) })),
    'crm.updateAccount': ({ accountId, changes }) => {
      const real = id(accountId);
      const before = cache.crm.account(real);
      const queued = queue('crmAccount.update', { id: real, changes });
      return withReplaced(queued, crmReplaced(before, cache.crm.account(real), Object.keys(changes)));
    },
    'crm.deleteAccount': ({ accountId }) => queue('crmAccount.delete', { id: id(accountId) }),
  };
}

/** Text fields an update cannot clear with null: an empty value is put back as an empty text. */
const TEXT_FIELDS = new Set(['lastName', 'email', 'phone', 'website']);

/**
 * What a CRM update replaced, as an update that puts it back: the values before, in the shape the
 * update takes (an empty text field as '', custom fields that were none left out).
 */
function crmReplaced(
  before: object | null | undefined,
  after: object | null | undefined,
  fields: readonly string[],
): Record<string, unknown> | undefined {
  const replaced = replacedOf(
    before as Record<string, unknown> | null | undefined,
    after as Record<string, unknown> | null | undefined,
    fields,
  );
  if (!replaced) return undefined;
  for (const [field, value] of Object.entries(replaced)) {
    if (value === null && TEXT_FIELDS.has(field)) replaced[field] = '';
    if (value === null && field === 'customFieldsData') delete replaced[field];
  }
  return Object.keys(replaced).length ? replaced : undefined;
}
