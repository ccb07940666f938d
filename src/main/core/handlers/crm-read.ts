import type { HandlerMap } from './types';
import { fetchOrServeCache, notFound, type ReadDeps } from './read-deps';

export function crmReadHandlers(
  deps: ReadDeps,
): HandlerMap<'crm.contacts' | 'crm.accounts' | 'crm.contact' | 'crm.account'> {
  const { cache, sync } = deps;
  return {
    'crm.contacts': (q) => cache.crm.listContacts(q),
    'crm.accounts': (q) => cache.crm.listAccounts(q),

    async 'crm.contact'({ contactId }) {
      // The contact's linked tasks come with the single-contact response, fetched when opened.
      if (!cache.syncState.get(`contact:${contactId}`)) {
        const gone = await fetchOrServeCache(deps, () => sync.onDemand.contact(contactId));
        if (gone) notFound('Contact', contactId, 'contactId');
      }
      const contact = cache.crm.contact(contactId);
      if (!contact) notFound('Contact', contactId, 'contactId');
      return {
        contact,
        account: contact.crmAccountId ? cache.crm.account(contact.crmAccountId) : null,
        tasks: cache.crm.tasksOfContact(contactId),
      };
    },

    'crm.account'({ accountId }) {
      const account = cache.crm.account(accountId);
      if (!account) notFound('Account', accountId, 'accountId');
      return {
        account,
        contacts: cache.crm.contactsByIds(account.contacts),
        taskIds: cache.tasks.idsLinkedToAccount(accountId),
      };
    },
  };
}
