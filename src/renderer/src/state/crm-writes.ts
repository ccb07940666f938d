// Changes to CRM records, and links between CRM records and tasks. Links go through the
// update-task operation (`crmContactIds`, `crmAccountId`), as the service defines them.
import type { CrmAccount, CrmContact } from '@shared/api/index';
import { bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';

export interface ContactFields {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  notes: string;
  crmAccountId: string | null;
  contactOwnerUserId: string | null;
}
export interface AccountFields {
  name: string;
  email: string;
  phone: string;
  website: string;
  notes: string;
  accountOwnerUserId: string | null;
}

async function unavailable(): Promise<never> {
  throw new Error('Editing CRM records is not available in this build yet.');
}

/** Runs a write; answers the error, or undefined when it was accepted. */
async function attempt(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
    return undefined;
  } catch (err) {
    return err;
  }
}

async function withToast(failure: string, write: () => Promise<unknown>): Promise<boolean> {
  const error = await attempt(write);
  if (error) toasts.error(failure, error);
  return !error;
}

export const crmWrites = {
  createContact(fields: ContactFields): Promise<unknown> {
    void fields;
    return attempt(unavailable);
  },
  updateContact(contact: CrmContact, fields: Partial<ContactFields>): Promise<unknown> {
    void [contact, fields];
    return attempt(unavailable);
  },
  deleteContact(contact: CrmContact): Promise<boolean> {
    void contact;
    return withToast('Could not delete the contact', unavailable);
  },
  createAccount(fields: AccountFields): Promise<unknown> {
    void fields;
    return attempt(unavailable);
  },
  updateAccount(account: CrmAccount, fields: Partial<AccountFields>): Promise<unknown> {
    void [account, fields];
    return attempt(unavailable);
  },
  deleteAccount(account: CrmAccount): Promise<boolean> {
    void account;
    return withToast('Could not delete the account', unavailable);
  },

  /** Adds or removes one contact among a task's linked contacts. */
  async linkContact(taskId: string, contactId: string, linked: boolean): Promise<boolean> {
    return withToast(linked ? 'Could not link the contact' : 'Could not unlink the contact', async () => {
      const detail = await bridge.invoke('tasks.detail', { taskId });
      const current = detail.crmContacts.map((contact) => contact.id);
      const next = linked ? [...new Set([...current, contactId])] : current.filter((id) => id !== contactId);
      await bridge.invoke('tasks.update', { taskId, changes: { crmContactIds: next } });
    });
  },

  /** Sets (or clears, with null) the account a task is linked to. */
  linkAccount(taskId: string, accountId: string | null): Promise<boolean> {
    return withToast(accountId ? 'Could not link the account' : 'Could not unlink the account', () =>
      bridge.invoke('tasks.update', { taskId, changes: { crmAccountId: accountId } }),
    );
  },
};
