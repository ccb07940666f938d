import { z } from 'zod';
import { Id } from '../api/common';
import { CrmAccountUpdateFields, CrmContactUpdateFields } from '../api/crm';
import { channel } from './channel';
import { CreateResult, WriteResult } from './tasks-write';
import { lazySchema } from '../lazy-schema';

/** Write channels of CRM contacts and accounts (linking them to tasks is `tasks.update`). */
export const ContactFields = lazySchema(() => CrmContactUpdateFields.strict());
export const AccountFields = lazySchema(() => CrmAccountUpdateFields.strict());

export const ContactCreateInput = lazySchema(() => ContactFields.required({ firstName: true }));
export const AccountCreateInput = lazySchema(() => AccountFields.required({ name: true }));
export const ContactUpdateInput = lazySchema(() =>
  z.object({ contactId: Id, changes: ContactFields }).strict(),
);
export const AccountUpdateInput = lazySchema(() =>
  z.object({ accountId: Id, changes: AccountFields }).strict(),
);

export const crmWriteChannels = {
  'crm.createContact': channel(
    () => ContactCreateInput,
    () => CreateResult,
  ),
  'crm.updateContact': channel(
    () => ContactUpdateInput,
    () => WriteResult,
  ),
  'crm.deleteContact': channel(
    () => z.object({ contactId: Id }).strict(),
    () => WriteResult,
  ),
  'crm.createAccount': channel(
    () => AccountCreateInput,
    () => CreateResult,
  ),
  'crm.updateAccount': channel(
    () => AccountUpdateInput,
    () => WriteResult,
  ),
  'crm.deleteAccount': channel(
    () => z.object({ accountId: Id }).strict(),
    () => WriteResult,
  ),
};
