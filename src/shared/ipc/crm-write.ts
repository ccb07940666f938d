import { z } from 'zod';
import { CustomFieldsData, Id } from '../api/common';
import { channel } from './channel';
import { CreateResult, WriteResult } from './tasks-write';

const Name = z.string().trim().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters');
const Text = z.string().max(1000, 'must be at most 1000 characters');
const Notes = z.string().max(200_000, 'must be at most 200000 characters');

/** Write channels of CRM contacts and accounts (linking them to tasks is `tasks.update`). */
export const ContactFields = z
  .object({
    firstName: Name,
    lastName: Text,
    email: Text,
    phone: Text,
    contactType: Id.nullable(),
    crmAccountId: Id.nullable(),
    contactOwnerUserId: Id.nullable(),
    notes: Notes.nullable(),
    customFieldsData: CustomFieldsData,
  })
  .partial()
  .strict();
export const AccountFields = z
  .object({
    name: Name,
    email: Text,
    phone: Text,
    website: Text,
    accountOwnerUserId: Id.nullable(),
    notes: Notes.nullable(),
    customFieldsData: CustomFieldsData,
  })
  .partial()
  .strict();

export const ContactCreateInput = ContactFields.required({ firstName: true });
export const AccountCreateInput = AccountFields.required({ name: true });
export const ContactUpdateInput = z.object({ contactId: Id, changes: ContactFields }).strict();
export const AccountUpdateInput = z.object({ accountId: Id, changes: AccountFields }).strict();

export const crmWriteChannels = {
  'crm.createContact': channel(ContactCreateInput, CreateResult),
  'crm.updateContact': channel(ContactUpdateInput, WriteResult),
  'crm.deleteContact': channel(z.object({ contactId: Id }).strict(), WriteResult),
  'crm.createAccount': channel(AccountCreateInput, CreateResult),
  'crm.updateAccount': channel(AccountUpdateInput, WriteResult),
  'crm.deleteAccount': channel(z.object({ accountId: Id }).strict(), WriteResult),
};
