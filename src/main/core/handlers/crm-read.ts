import { crmReads } from '../entities/crm';
import type { HandlerMap } from './types';
import { notHeld, refreshOpened, type ReadDeps } from './read-deps';

export function crmReadHandlers(
  deps: ReadDeps,
): HandlerMap<'crm.contacts' | 'crm.accounts' | 'crm.contact' | 'crm.account'> {
  const { cache, sync } = deps;
  return {
    'crm.contacts': (q) => cache.crm.listContacts(q),
    'crm.accounts': (q) => cache.crm.listAccounts(q),

    async 'crm.contact'({ contactId }) {
      // The contact's linked tasks come with the single-contact response, fetched when opened.
      const asked = await refreshOpened(
        deps,
        { what: 'Contact', id: contactId, field: 'contactId' },
        !cache.syncState.get(`contact:${contactId}`),
        () => sync.onDemand.run(crmReads.contact(contactId)),
      );
      const contact = cache.crm.contact(contactId);
      if (!contact) notHeld('Contact', contactId, 'contactId', asked);
      return {
        contact,
        account: contact.crmAccountId ? cache.crm.account(contact.crmAccountId) : null,
        tasks: cache.crm.tasksOfContact(contactId),
      };
    },

    async 'crm.account'({ accountId }) {
      // The single-account response (its contact list) is fetched when first opened.
      const asked = await refreshOpened(
        deps,
        { what: 'Account', id: accountId, field: 'accountId' },
        !cache.syncState.get(`account:${accountId}`),
        () => sync.onDemand.run(crmReads.account(accountId)),
      );
      const account = cache.crm.account(accountId);
      if (!account) notHeld('Account', accountId, 'accountId', asked);
      return {
        account,
        contacts: cache.crm.contactsByIds(account.contacts),
        taskIds: cache.tasks.idsLinkedToAccount(accountId),
      };
    },
  };
}
