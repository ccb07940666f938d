import { z } from 'zod';
import { channel, type ResourceSpec } from './channel';
import { Id, WindowInput, windowOf } from './read-common';
import { CrmAccount, CrmContact, CrmContactTask } from '../api/crm';
import { lazySchema } from '../lazy-schema';

export const CrmListInput = lazySchema(() =>
  WindowInput.extend({
    /** Case-insensitive substring over names and email. */
    text: z.string().max(200).optional(),
    includeDeleted: z.boolean().default(false),
  }).strict(),
);

/** The resources this domain is the home of (see `RESOURCES` in `../entities.ts`). */
export const crmResources = {
  crmContact: { noun: 'a contact', cacheEntities: ['crmContacts'], outbox: true },
  crmAccount: { noun: 'an account', cacheEntities: ['crmAccounts'], outbox: true },
} as const satisfies Record<string, ResourceSpec>;

export const crmReadChannels = {
  'crm.contacts': channel(
    () => CrmListInput.extend({ accountId: Id.optional() }).strict(),
    () => windowOf(CrmContact),
  ),
  'crm.accounts': channel(
    () => CrmListInput,
    () => windowOf(CrmAccount),
  ),
  'crm.contact': channel(
    () => z.object({ contactId: Id }).strict(),
    () =>
      z.object({
        contact: CrmContact,
        account: CrmAccount.nullable(),
        /** Tasks linked to the contact; empty until the single-contact response was fetched. */
        tasks: z.array(CrmContactTask),
      }),
  ),
  'crm.account': channel(
    () => z.object({ accountId: Id }).strict(),
    () =>
      z.object({
        account: CrmAccount,
        contacts: z.array(CrmContact),
        /** Ids of cached tasks that link this account. */
        taskIds: z.array(z.string()),
      }),
  ),
};
