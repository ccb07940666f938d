import type { CrmAccount, CrmAccountSingle, CrmContact } from '../../shared/api/crm';
import type { Db } from './open';
import { upsertSql } from './sql';

export interface ContactRow {
  id: string;
  company_id: string;
  contact_type: string | null;
  crm_account_id: string | null;
  owner_user_id: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  notes: string | null;
  custom_fields_data: string;
  user_id: string | null;
  is_deleted: number;
  created_by_user_id: string;
  moment_created: string;
}

export interface AccountRow {
  id: string;
  company_id: string;
  name: string;
  email: string;
  phone: string;
  website: string;
  notes: string | null;
  owner_user_id: string | null;
  custom_fields_data: string;
  is_deleted: number;
  created_by_user_id: string;
  moment_created: string;
}

const CONTACT_COLUMNS: ReadonlyArray<keyof ContactRow> = [
  'id',
  'company_id',
  'contact_type',
  'crm_account_id',
  'owner_user_id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'notes',
  'custom_fields_data',
  'user_id',
  'is_deleted',
  'created_by_user_id',
  'moment_created',
];
const ACCOUNT_COLUMNS: ReadonlyArray<keyof AccountRow> = [
  'id',
  'company_id',
  'name',
  'email',
  'phone',
  'website',
  'notes',
  'owner_user_id',
  'custom_fields_data',
  'is_deleted',
  'created_by_user_id',
  'moment_created',
];

export function toContact(r: ContactRow): CrmContact {
  return {
    id: r.id,
    companyId: r.company_id,
    contactType: r.contact_type,
    crmAccountId: r.crm_account_id,
    contactOwnerUserId: r.owner_user_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    notes: r.notes,
    customFieldsData: JSON.parse(r.custom_fields_data) as Record<string, unknown>,
    userId: r.user_id,
    isDeleted: r.is_deleted === 1,
  };
}

export function crmStore(db: Db) {
  const contact = db.prepare<[string], ContactRow>(
    'SELECT * FROM crm_contacts WHERE id = ? AND is_deleted = 0',
  );
  const contacts = db.prepare<[], ContactRow>(
    'SELECT * FROM crm_contacts WHERE is_deleted = 0 ORDER BY rowid',
  );
  const saveContact = db.prepare<ContactRow>(upsertSql('crm_contacts', CONTACT_COLUMNS));
  const account = db.prepare<[string], AccountRow>(
    'SELECT * FROM crm_accounts WHERE id = ? AND is_deleted = 0',
  );
  const accounts = db.prepare<[], AccountRow & { contact_ids: string }>(
    `SELECT a.*, (SELECT json_group_array(c.id) FROM crm_contacts c WHERE c.crm_account_id = a.id AND c.is_deleted = 0) AS contact_ids
     FROM crm_accounts a WHERE a.is_deleted = 0 ORDER BY a.rowid`,
  );
  const accountContacts = db
    .prepare<[string], string>(
      'SELECT id FROM crm_contacts WHERE crm_account_id = ? AND is_deleted = 0 ORDER BY rowid',
    )
    .pluck();
  const saveAccount = db.prepare<AccountRow>(upsertSql('crm_accounts', ACCOUNT_COLUMNS));
  const contactTasks = db.prepare<
    [string],
    { id: string; shortId: string; taskStatusId: string; taskTypeId: string; title: string }
  >(
    `SELECT t.id, t.short_id AS shortId, t.status_id AS taskStatusId, t.task_type_id AS taskTypeId, t.name AS title
     FROM task_crm_contacts l JOIN tasks t ON t.id = l.task_id WHERE l.contact_id = ? ORDER BY t.rowid`,
  );
  const unlinkContactTasks = db.prepare<[string]>('DELETE FROM task_crm_contacts WHERE contact_id = ?');
  const unlinkAccountTasks = db.prepare<[string]>(
    'UPDATE tasks SET crm_account_id = NULL WHERE crm_account_id = ?',
  );
  const detachContacts = db.prepare<[string]>(
    'UPDATE crm_contacts SET crm_account_id = NULL WHERE crm_account_id = ?',
  );

  const parseCfd = (text: string) => JSON.parse(text) as Record<string, unknown>;
  return {
    contactRow: (id: string) => contact.get(id),
    contacts: () => contacts.all().map(toContact),
    saveContact: (row: ContactRow) => saveContact.run(row),
    contactTasks: (id: string) => contactTasks.all(id),
    accountRow: (id: string) => account.get(id),
    accounts: (): CrmAccount[] =>
      accounts.all().map((a) => ({
        id: a.id,
        name: a.name,
        email: a.email,
        phone: a.phone,
        website: a.website,
        notes: a.notes,
        accountOwnerUserId: a.owner_user_id,
        contacts: JSON.parse(a.contact_ids) as string[],
        customFieldsData: parseCfd(a.custom_fields_data),
        isDeleted: a.is_deleted === 1,
      })),
    accountSingle: (a: AccountRow): CrmAccountSingle => ({
      id: a.id,
      companyId: a.company_id,
      name: a.name,
      email: a.email,
      phone: a.phone,
      website: a.website,
      notes: a.notes,
      contactOwnerUserId: a.owner_user_id,
      customFieldsData: parseCfd(a.custom_fields_data),
      isDeleted: a.is_deleted === 1,
    }),
    accountContacts: (id: string) => accountContacts.all(id),
    saveAccount: (row: AccountRow) => saveAccount.run(row),
    /** Marks the contact deleted and drops its task links. */
    deleteContact: (row: ContactRow) => {
      saveContact.run({ ...row, is_deleted: 1 });
      unlinkContactTasks.run(row.id);
    },
    /** Marks the account deleted, unlinks its tasks and detaches its contacts. */
    deleteAccount: (row: AccountRow) => {
      saveAccount.run({ ...row, is_deleted: 1 });
      unlinkAccountTasks.run(row.id);
      detachContacts.run(row.id);
    },
  };
}
