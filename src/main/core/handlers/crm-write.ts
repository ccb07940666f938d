import type { AccountOutbox } from '../outbox/account-outbox';
import type { HandlerMap } from './types';

type CrmWrite =
  | 'crm.createContact'
  | 'crm.updateContact'
  | 'crm.deleteContact'
  | 'crm.createAccount'
  | 'crm.updateAccount'
  | 'crm.deleteAccount';

/** CRM contact and account writes, queued through the outbox. */
export function crmWriteHandlers({ outbox }: { outbox: AccountOutbox }): HandlerMap<CrmWrite> {
  const id = (value: string): string => outbox.realIdOf(value);
  const result = ({ entryId }: { entryId: number | undefined }) => ({ entryId: entryId ?? null });
  const created = (kind: string, input: object, known: string[]) => {
    const tempId = outbox.newTempId();
    const { entryId } = outbox.write(kind, { tempId, input, known });
    return { id: tempId, entryId: entryId ?? null };
  };
  const withAccount = <T extends { crmAccountId?: string | null | undefined }>(input: T): T =>
    input.crmAccountId ? { ...input, crmAccountId: id(input.crmAccountId) } : input;
  return {
    'crm.createContact': (input) =>
      created('crmContact.create', withAccount(input), outbox.crm.knownContacts(input)),
    'crm.updateContact': ({ contactId, changes }) =>
      result(outbox.write('crmContact.update', { id: id(contactId), changes: withAccount(changes) })),
    'crm.deleteContact': ({ contactId }) => result(outbox.write('crmContact.delete', { id: id(contactId) })),
    'crm.createAccount': (input) => created('crmAccount.create', input, outbox.crm.knownAccounts(input)),
    'crm.updateAccount': ({ accountId, changes }) =>
      result(outbox.write('crmAccount.update', { id: id(accountId), changes })),
    'crm.deleteAccount': ({ accountId }) => result(outbox.write('crmAccount.delete', { id: id(accountId) })),
  };
}
