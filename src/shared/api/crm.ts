import { z } from 'zod';
import { CustomFieldsData, Id, orDefault, Title, withAliases } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

const text = () => orDefault(z.string(), () => '');
const maybe = () => orDefault(z.string().nullable(), () => null);
const fields = () => orDefault(CustomFieldsData, () => ({}));
const notDeleted = () => orDefault(z.boolean(), () => false);

/**
 * A CRM contact. The live service's list items have no `userId` (the single contact has it
 * null); it and the other fields a client can do without read as null, '' or {} when absent.
 */
export const CrmContact = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    companyId: text(),
    contactType: maybe(),
    crmAccountId: maybe(),
    contactOwnerUserId: maybe(),
    firstName: text(),
    lastName: text(),
    email: text(),
    phone: text(),
    notes: maybe(),
    customFieldsData: fields(),
    userId: maybe(),
    isDeleted: notDeleted(),
  }),
);
export type CrmContact = z.infer<typeof CrmContact>;
/** GET /crm/contacts (the spec does not show it; this service answers an array of contacts). */
export const CrmContactsResponse = lazySchema(() => z.array(CrmContact));

export const CrmContactTask = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    shortId: z.string(),
    taskStatusId: z.string(),
    taskTypeId: z.string(),
    title: z.string(),
  }),
);
/** GET /crm/contact/{id} */
export const CrmContactDetail = lazySchema(() =>
  z.looseObject({
    contact: CrmContact,
    tasks: orDefault(z.array(CrmContactTask), () => []),
  }),
);
export type CrmContactDetail = z.infer<typeof CrmContactDetail>;

const Text = lazySchema(() => z.string().max(1000, 'must be at most 1000 characters'));
const Notes = lazySchema(() => z.string().max(200_000, 'must be at most 200000 characters'));

/** POST /crm/contacts */
export const CreateCrmContactBody = lazySchema(() =>
  z.object({
    createdByUserId: Id,
    firstName: Title,
    contactType: Id.nullish(),
    crmAccountId: Id.nullish(),
    lastName: Text.nullish(),
    email: Text.nullish(),
    phone: Text.nullish(),
    contactOwnerUserId: Id.nullish(),
    notes: Notes.nullish(),
    customFieldsData: CustomFieldsData.nullish(),
  }),
);
export type CreateCrmContactBody = z.input<typeof CreateCrmContactBody>;

/**
 * The fields of PUT /crm/contact/{id} but the acting user. The IPC's contact changes are these
 * (src/shared/ipc/crm-write.ts).
 */
export const CrmContactUpdateFields = lazySchema(() =>
  z.object({
    firstName: Title.optional(),
    lastName: Text.optional(),
    email: Text.optional(),
    phone: Text.optional(),
    contactType: Id.nullable().optional(),
    crmAccountId: Id.nullable().optional(),
    contactOwnerUserId: Id.nullable().optional(),
    notes: Notes.nullable().optional(),
    customFieldsData: CustomFieldsData.optional(),
  }),
);

/** PUT /crm/contact/{id} */
export const UpdateCrmContactBody = lazySchema(() =>
  z.object({ updatedByUserId: Id, ...CrmContactUpdateFields.shape }),
);
export type UpdateCrmContactBody = z.input<typeof UpdateCrmContactBody>;

/** GET /crm/accounts elements. */
export const CrmAccount = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    email: text(),
    phone: text(),
    website: text(),
    notes: maybe(),
    accountOwnerUserId: maybe(),
    contacts: orDefault(z.array(z.string()), () => []),
    customFieldsData: fields(),
    isDeleted: notDeleted(),
  }),
);
export type CrmAccount = z.infer<typeof CrmAccount>;
export const CrmAccountsResponse = lazySchema(() => z.array(CrmAccount));

/** The account inside GET /crm/account/{id}: the owner is named `contactOwnerUserId` there. */
export const CrmAccountSingle = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    companyId: text(),
    name: z.string(),
    email: text(),
    phone: text(),
    website: text(),
    notes: maybe(),
    contactOwnerUserId: maybe(),
    customFieldsData: fields(),
    isDeleted: notDeleted(),
  }),
);
export type CrmAccountSingle = z.infer<typeof CrmAccountSingle>;
export const CrmAccountDetail = lazySchema(() =>
  z.looseObject({
    account: CrmAccountSingle,
    contacts: orDefault(z.array(z.string()), () => []),
  }),
);
export type CrmAccountDetail = z.infer<typeof CrmAccountDetail>;

/** POST /crm/accounts; the spec's sample names the owner `contactOwnerUserId`. */
export const CreateCrmAccountBody = lazySchema(() =>
  withAliases(
    z.object({
      createdByUserId: Id,
      name: Title,
      email: Text.nullish(),
      phone: Text.nullish(),
      website: Text.nullish(),
      accountOwnerUserId: Id.nullish(),
      notes: Notes.nullish(),
      customFieldsData: CustomFieldsData.nullish(),
    }),
    { contactOwnerUserId: 'accountOwnerUserId' },
  ),
);
export type CreateCrmAccountBody = z.input<typeof CreateCrmAccountBody>;

/** The fields of PUT /crm/account/{id} but the acting user; the IPC's account changes too. */
export const CrmAccountUpdateFields = lazySchema(() =>
  z.object({
    name: Title.optional(),
    email: Text.optional(),
    phone: Text.optional(),
    website: Text.optional(),
    accountOwnerUserId: Id.nullable().optional(),
    notes: Notes.nullable().optional(),
    customFieldsData: CustomFieldsData.optional(),
  }),
);

/** PUT /crm/account/{id} */
export const UpdateCrmAccountBody = lazySchema(() =>
  withAliases(z.object({ updatedByUserId: Id, ...CrmAccountUpdateFields.shape }), {
    contactOwnerUserId: 'accountOwnerUserId',
  }),
);
export type UpdateCrmAccountBody = z.input<typeof UpdateCrmAccountBody>;

/**
 * Extension: DELETE /crm/contact/{id} and /crm/account/{id} take an optional acting user in the
 * body (`updatedByUserId` or `userId`); the spec shows no request for them.
 */
export const CrmDeleteBody = lazySchema(() =>
  z.object({ updatedByUserId: Id.optional(), userId: Id.optional() }),
);

/** The service's endpoints of CRM contacts and accounts (creates answer nothing to read). */
export const crmEndpoints = endpoints({
  crmContacts: endpoint({
    method: 'GET',
    path: '/crm/contacts',
    read: 'list',
    response: CrmContactsResponse,
  }),
  createCrmContact: endpoint({
    method: 'POST',
    path: '/crm/contacts',
    read: 'none',
    body: CreateCrmContactBody,
  }),
  crmContact: endpoint({
    method: 'GET',
    path: '/crm/contact/{id}',
    read: 'item',
    response: CrmContactDetail,
  }),
  updateCrmContact: endpoint({
    method: 'PUT',
    path: '/crm/contact/{id}',
    read: 'none',
    body: UpdateCrmContactBody,
  }),
  deleteCrmContact: endpoint({ method: 'DELETE', path: '/crm/contact/{id}', read: 'none' }),
  crmAccounts: endpoint({
    method: 'GET',
    path: '/crm/accounts',
    read: 'list',
    response: CrmAccountsResponse,
  }),
  createCrmAccount: endpoint({
    method: 'POST',
    path: '/crm/accounts',
    read: 'none',
    body: CreateCrmAccountBody,
  }),
  crmAccount: endpoint({
    method: 'GET',
    path: '/crm/account/{id}',
    read: 'item',
    response: CrmAccountDetail,
  }),
  updateCrmAccount: endpoint({
    method: 'PUT',
    path: '/crm/account/{id}',
    read: 'none',
    body: UpdateCrmAccountBody,
  }),
  deleteCrmAccount: endpoint({ method: 'DELETE', path: '/crm/account/{id}', read: 'none' }),
});
