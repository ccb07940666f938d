import {
  CreateCrmAccountBody,
  CreateCrmContactBody,
  CrmDeleteBody,
  UpdateCrmAccountBody,
  UpdateCrmContactBody,
} from '../../shared/api/crm';
import type { ServiceContext } from '../context';
import type { AccountRow, ContactRow } from '../db/crm';
import { toContact } from '../db/crm';
import { badRequest, notFound } from '../http/errors';
import type { Router } from '../http/router';
import { applyCustomFieldsMap } from './custom-fields';

const COMPANY_KEY = 'company_id';

export function crmRoutes(r: Router, ctx: ServiceContext): void {
  const companyId = () => ctx.org.meta(COMPANY_KEY) ?? 'company';
  const checkOwner = (field: string, id: string | null | undefined) => {
    if (id) ctx.requireUser(field, id);
  };
  const checkContactRefs = (b: { contactType?: string | null; crmAccountId?: string | null }) => {
    if (b.contactType && !ctx.org.isContactType(b.contactType)) {
      throw badRequest('contactType', `no contact type with id ${JSON.stringify(b.contactType)}`);
    }
    if (b.crmAccountId && !ctx.crm.accountRow(b.crmAccountId)) {
      throw badRequest('crmAccountId', `no CRM account with id ${JSON.stringify(b.crmAccountId)}`);
    }
  };
  const loadContact = (id: string): ContactRow => {
    const row = ctx.crm.contactRow(id);
    if (!row) throw notFound('CRM contact', id);
    return row;
  };
  const loadAccount = (id: string): AccountRow => {
    const row = ctx.crm.accountRow(id);
    if (!row) throw notFound('CRM account', id);
    return row;
  };
  const checkDeleter = (body: { updatedByUserId?: string | undefined; userId?: string | undefined }) => {
    if (body.updatedByUserId) ctx.requireUser('updatedByUserId', body.updatedByUserId);
    if (body.userId) ctx.requireUser('userId', body.userId);
  };

  r.get('/crm/contacts', { handle: () => ({ json: ctx.crm.contacts() }) });

  r.post('/crm/contacts', {
    body: CreateCrmContactBody,
    handle: ({ body }) => {
      ctx.requireUser('createdByUserId', body.createdByUserId);
      checkOwner('contactOwnerUserId', body.contactOwnerUserId);
      checkContactRefs(body);
      const row: ContactRow = {
        id: ctx.newId(),
        company_id: companyId(),
        contact_type: body.contactType ?? null,
        crm_account_id: body.crmAccountId ?? null,
        owner_user_id: body.contactOwnerUserId ?? body.createdByUserId,
        first_name: body.firstName,
        last_name: body.lastName ?? '',
        email: body.email ?? '',
        phone: body.phone ?? '',
        notes: body.notes ?? null,
        custom_fields_data: applyCustomFieldsMap(ctx, '{}', body.customFieldsData ?? {}),
        user_id: null,
        is_deleted: 0,
        created_by_user_id: body.createdByUserId,
        moment_created: ctx.now(),
      };
      ctx.crm.saveContact(row);
      return { createdId: row.id, location: `/crm/contact/${row.id}` };
    },
  });

  r.get('/crm/contact/:id', {
    handle: ({ params }) => {
      const row = loadContact(params['id']);
      return { json: { contact: toContact(row), tasks: ctx.crm.contactTasks(row.id) } };
    },
  });

  r.put('/crm/contact/:id', {
    body: UpdateCrmContactBody,
    handle: ({ params, body }) => {
      const row = loadContact(params['id']);
      ctx.requireUser('updatedByUserId', body.updatedByUserId);
      checkOwner('contactOwnerUserId', body.contactOwnerUserId);
      checkContactRefs(body);
      const next: ContactRow = { ...row };
      if (body.contactType !== undefined) next.contact_type = body.contactType;
      if (body.crmAccountId !== undefined) next.crm_account_id = body.crmAccountId;
      if (body.firstName !== undefined) next.first_name = body.firstName;
      if (body.lastName !== undefined) next.last_name = body.lastName;
      if (body.email !== undefined) next.email = body.email;
      if (body.phone !== undefined) next.phone = body.phone;
      if (body.contactOwnerUserId !== undefined) next.owner_user_id = body.contactOwnerUserId;
      if (body.notes !== undefined) next.notes = body.notes;
      if (body.customFieldsData !== undefined) {
        next.custom_fields_data = applyCustomFieldsMap(ctx, row.custom_fields_data, body.customFieldsData);
      }
      ctx.crm.saveContact(next);
      return 'OK';
    },
  });

  r.delete('/crm/contact/:id', {
    body: CrmDeleteBody,
    handle: ({ params, body }) => {
      const row = loadContact(params['id']);
      checkDeleter(body);
      ctx.crm.deleteContact(row);
      return 'OK';
    },
  });

  r.get('/crm/accounts', { handle: () => ({ json: ctx.crm.accounts() }) });

  r.post('/crm/accounts', {
    body: CreateCrmAccountBody,
    handle: ({ body }) => {
      ctx.requireUser('createdByUserId', body.createdByUserId);
      checkOwner('accountOwnerUserId', body.accountOwnerUserId);
      const row: AccountRow = {
        id: ctx.newId(),
        company_id: companyId(),
        name: body.name,
        email: body.email ?? '',
        phone: body.phone ?? '',
        website: body.website ?? '',
        notes: body.notes ?? null,
        owner_user_id: body.accountOwnerUserId ?? body.createdByUserId,
        custom_fields_data: applyCustomFieldsMap(ctx, '{}', body.customFieldsData ?? {}),
        is_deleted: 0,
        created_by_user_id: body.createdByUserId,
        moment_created: ctx.now(),
      };
      ctx.crm.saveAccount(row);
      return { createdId: row.id, location: `/crm/account/${row.id}` };
    },
  });

  r.get('/crm/account/:id', {
    handle: ({ params }) => {
      const row = loadAccount(params['id']);
      return { json: { account: ctx.crm.accountSingle(row), contacts: ctx.crm.accountContacts(row.id) } };
    },
  });

  r.put('/crm/account/:id', {
    body: UpdateCrmAccountBody,
    handle: ({ params, body }) => {
      const row = loadAccount(params['id']);
      ctx.requireUser('updatedByUserId', body.updatedByUserId);
      checkOwner('accountOwnerUserId', body.accountOwnerUserId);
      const next: AccountRow = { ...row };
      if (body.name !== undefined) next.name = body.name;
      if (body.email !== undefined) next.email = body.email;
      if (body.phone !== undefined) next.phone = body.phone;
      if (body.website !== undefined) next.website = body.website;
      if (body.accountOwnerUserId !== undefined) next.owner_user_id = body.accountOwnerUserId;
      if (body.notes !== undefined) next.notes = body.notes;
      if (body.customFieldsData !== undefined) {
        next.custom_fields_data = applyCustomFieldsMap(ctx, row.custom_fields_data, body.customFieldsData);
      }
      ctx.crm.saveAccount(next);
      return 'OK';
    },
  });

  r.delete('/crm/account/:id', {
    body: CrmDeleteBody,
    handle: ({ params, body }) => {
      const row = loadAccount(params['id']);
      checkDeleter(body);
      ctx.crm.deleteAccount(row);
      return 'OK';
    },
  });
}
