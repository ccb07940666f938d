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
  /** A contact-type id (the service lists no types: the choices are those contacts carry). */
  contactType: string | null;
}
export interface AccountFields {
  name: string;
  email: string;
  phone: string;
  website: string;
  notes: string;
  accountOwnerUserId: string | null;
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

/** Runs a create; answers its error, or the new record's id (the view opens it). */
async function attemptCreate(
  write: () => Promise<{ id: string }>,
): Promise<{ error: unknown } | { id: string }> {
  try {
    return { id: (await write()).id };
  } catch (err) {
    return { error: err };
  }
}

async function withToast(failure: string, write: () => Promise<unknown>): Promise<boolean> {
  const error = await attempt(write);
  if (error) toasts.error(failure, error);
  return !error;
}

/** The form's fields as the channel takes them: trimmed, empty notes as null. */
function contactChanges(fields: ContactFields): Omit<ContactFields, 'notes'> & { notes: string | null } {
  return { ...fields, firstName: fields.firstName.trim(), notes: fields.notes.trim() || null };
}
function accountChanges(fields: AccountFields): Omit<AccountFields, 'notes'> & { notes: string | null } {
  return { ...fields, name: fields.name.trim(), notes: fields.notes.trim() || null };
}

/**
 * The record's custom-field map with one value set (null resets it). The whole map is sent: the
 * service merges it, and the cache takes it as the record's map until the next pull.
 */
function withField(record: { customFieldsData: Record<string, unknown> }, fieldId: string, value: unknown) {
  return { customFieldsData: { ...record.customFieldsData, [fieldId]: value } };
}

/** Only the fields that differ from the record (updates send what changed). */
function changedOnly<T extends object>(record: object, changes: T): Partial<T> {
  const current = record as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(changes).filter(([key, value]) => current[key] !== value),
  ) as Partial<T>;
}

export const crmWrites = {
  createContact(fields: ContactFields): Promise<{ error: unknown } | { id: string }> {
    return attemptCreate(() => bridge.invoke('crm.createContact', contactChanges(fields)));
  },
  updateContact(contact: CrmContact, fields: ContactFields): Promise<unknown> {
    return attempt(() =>
      bridge.invoke('crm.updateContact', {
        contactId: contact.id,
        changes: changedOnly(contact, contactChanges(fields)),
      }),
    );
  },
  /** Sets one custom field of a contact (the organization's definitions, as for tasks). */
  setContactField(contact: CrmContact, fieldId: string, value: unknown): Promise<boolean> {
    return withToast('Could not change the custom field', () =>
      bridge.invoke('crm.updateContact', {
        contactId: contact.id,
        changes: withField(contact, fieldId, value),
      }),
    );
  },
  deleteContact(contact: CrmContact): Promise<boolean> {
    return withToast('Could not delete the contact', () =>
      bridge.invoke('crm.deleteContact', { contactId: contact.id }),
    );
  },
  createAccount(fields: AccountFields): Promise<{ error: unknown } | { id: string }> {
    return attemptCreate(() => bridge.invoke('crm.createAccount', accountChanges(fields)));
  },
  updateAccount(account: CrmAccount, fields: AccountFields): Promise<unknown> {
    return attempt(() =>
      bridge.invoke('crm.updateAccount', {
        accountId: account.id,
        changes: changedOnly(account, accountChanges(fields)),
      }),
    );
  },
  setAccountField(account: CrmAccount, fieldId: string, value: unknown): Promise<boolean> {
    return withToast('Could not change the custom field', () =>
      bridge.invoke('crm.updateAccount', {
        accountId: account.id,
        changes: withField(account, fieldId, value),
      }),
    );
  },
  deleteAccount(account: CrmAccount): Promise<boolean> {
    return withToast('Could not delete the account', () =>
      bridge.invoke('crm.deleteAccount', { accountId: account.id }),
    );
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
