import { z } from 'zod';
import { channel } from './channel';
import { Id, WindowInput, windowOf } from './read-common';

export const CrmContactView = z.object({
  id: z.string(),
  companyId: z.string(),
  contactType: z.string(),
  crmAccountId: z.string().nullable(),
  contactOwnerUserId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  notes: z.string().nullable(),
  customFieldsData: z.record(z.string(), z.unknown()),
  userId: z.string().nullable(),
  isDeleted: z.boolean(),
});
export type CrmContactView = z.infer<typeof CrmContactView>;

export const CrmAccountView = z.object({
  id: z.string(),
  companyId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  website: z.string(),
  notes: z.string().nullable(),
  accountOwnerUserId: z.string().nullable(),
  contactIds: z.array(z.string()),
  customFieldsData: z.record(z.string(), z.unknown()),
  isDeleted: z.boolean(),
});
export type CrmAccountView = z.infer<typeof CrmAccountView>;

/** A task linked to a CRM record, as the contact response lists it. */
export const CrmTaskLinkView = z.object({
  id: z.string(),
  shortId: z.string(),
  title: z.string(),
  taskStatusId: z.string(),
  taskTypeId: z.string(),
});
export type CrmTaskLinkView = z.infer<typeof CrmTaskLinkView>;

export const CrmListInput = WindowInput.extend({
  /** Case-insensitive substring over names and email. */
  text: z.string().max(200).optional(),
  includeDeleted: z.boolean().default(false),
}).strict();

export const crmReadChannels = {
  'crm.contacts': channel(
    CrmListInput.extend({ accountId: Id.optional() }).strict(),
    windowOf(CrmContactView),
  ),
  'crm.accounts': channel(CrmListInput, windowOf(CrmAccountView)),
  'crm.contact': channel(
    z.object({ contactId: Id }).strict(),
    z.object({
      contact: CrmContactView,
      account: CrmAccountView.nullable(),
      tasks: z.array(CrmTaskLinkView),
    }),
  ),
  'crm.account': channel(
    z.object({ accountId: Id }).strict(),
    z.object({
      account: CrmAccountView,
      contacts: z.array(CrmContactView),
      /** Ids of tasks that link this account (known from cached task details). */
      taskIds: z.array(z.string()),
    }),
  ),
};
