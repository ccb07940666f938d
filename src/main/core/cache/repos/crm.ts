import type { z } from 'zod';
import type {
  CrmAccount,
  CrmAccountSingle,
  CrmContact,
  CrmContactTask as CrmContactTaskSchema,
} from '../../../../shared/api/crm';
import type { CacheDb } from '../db';
import { tableCodec } from '../codec';
import { deleteByIds, replaceScope, scopeIds, statementCache } from './statements';

type CrmContactTask = z.infer<typeof CrmContactTaskSchema>;

export type CrmRepo = ReturnType<typeof createCrmRepo>;

declare module '../cache' {
  /** This repository on the account's cache, as `cache.crm` (see `ResourceRepos`). */
  interface ResourceRepos {
    crm: CrmRepo;
  }
}

export interface CrmListQuery {
  text?: string | undefined;
  includeDeleted: boolean;
  accountId?: string | undefined;
  offset: number;
  limit: number;
}

export function createCrmRepo(db: CacheDb) {
  const stmt = statementCache(db);
  const contacts = tableCodec<CrmContact>(db, 'crm_contacts', ['id'], {
    id: ['id', 'value'],
    companyId: ['company_id', 'value'],
    contactType: ['contact_type', 'value'],
    crmAccountId: ['crm_account_id', 'value'],
    contactOwnerUserId: ['contact_owner_user_id', 'value'],
    firstName: ['first_name', 'value'],
    lastName: ['last_name', 'value'],
    email: ['email', 'value'],
    phone: ['phone', 'value'],
    notes: ['notes', 'value'],
    customFieldsData: ['custom_fields', 'json'],
    userId: ['user_id', 'value'],
    isDeleted: ['is_deleted', 'bool'],
  });
  const accounts = tableCodec<CrmAccount>(db, 'crm_accounts', ['id'], {
    id: ['id', 'value'],
    name: ['name', 'value'],
    email: ['email', 'value'],
    phone: ['phone', 'value'],
    website: ['website', 'value'],
    notes: ['notes', 'value'],
    accountOwnerUserId: ['account_owner_user_id', 'value'],
    contacts: ['contact_ids', 'json'],
    customFieldsData: ['custom_fields', 'json'],
    isDeleted: ['is_deleted', 'bool'],
  });
  const contactTasks = db.prepare(
    `INSERT INTO crm_contact_tasks (contact_id, task_id, short_id, title, task_status_id, task_type_id) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const linkRowsStmt = db.prepare('SELECT * FROM crm_contact_tasks WHERE contact_id = ?');
  const putLinkRowStmt = db.prepare(
    `INSERT OR REPLACE INTO crm_contact_tasks (contact_id, task_id, short_id, title, task_status_id, task_type_id)
     VALUES (@contact_id, @task_id, @short_id, @title, @task_status_id, @task_type_id)`,
  );
  const dropLinksStmt = db.prepare('DELETE FROM crm_contact_tasks WHERE contact_id = ?');
  const contactsOfAccountStmt = db.prepare('SELECT id FROM crm_contacts WHERE crm_account_id = ?').pluck();
  const setContactAccountStmt = db.prepare('UPDATE crm_contacts SET crm_account_id = ? WHERE id = ?');
  const companyIdStmt = db
    .prepare('SELECT company_id FROM crm_contacts WHERE company_id IS NOT NULL LIMIT 1')
    .pluck();
  const contactsNamedStmt = db.prepare('SELECT id FROM crm_contacts WHERE first_name = ?').pluck();
  const accountsNamedStmt = db.prepare('SELECT id FROM crm_accounts WHERE name = ?').pluck();

  function list<T>(
    codec: { select: string; decode(r: Record<string, unknown>): T },
    table: string,
    textColumns: string[],
    order: string,
    q: CrmListQuery,
  ): { rows: T[]; total: number } {
    const clauses: string[] = ['1'];
    const params: Record<string, unknown> = { limit: q.limit, offset: q.offset };
    if (!q.includeDeleted) clauses.push('is_deleted = 0');
    if (q.text) {
      params.text = `%${q.text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      clauses.push(`(${textColumns.map((c) => `${c} LIKE @text ESCAPE '\\'`).join(' OR ')})`);
    }
    if (q.accountId) {
      params.accountId = q.accountId;
      clauses.push('crm_account_id = @accountId');
    }
    const where = clauses.join(' AND ');
    const rows = (
      stmt(
        `SELECT ${codec.select} FROM ${table} WHERE ${where} ORDER BY ${order}, id LIMIT @limit OFFSET @offset`,
      ).all(params) as Record<string, unknown>[]
    ).map((r) => codec.decode(r));
    const { limit: _l, offset: _o, ...countParams } = params;
    const total = (
      stmt(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(countParams) as { n: number }
    ).n;
    return { rows, total };
  }

  return {
    contacts,
    accounts,
    contactIds: (): string[] => scopeIds(db, 'crm_contacts', 'id', '1', []),
    accountIds: (): string[] => scopeIds(db, 'crm_accounts', 'id', '1', []),
    replaceContacts(list: readonly CrmContact[], keep?: (id: string) => boolean): string[] {
      return replaceScope(db, contacts, 'id', '1', [], list, keep);
    },
    replaceAccounts(list: readonly CrmAccount[], keep?: (id: string) => boolean): string[] {
      return replaceScope(db, accounts, 'id', '1', [], list, keep);
    },
    deleteContacts(ids: readonly string[]): void {
      deleteByIds(db, 'crm_contact_tasks', 'contact_id', ids);
      deleteByIds(db, 'crm_contacts', 'id', ids);
    },
    deleteAccounts(ids: readonly string[]): void {
      deleteByIds(db, 'crm_accounts', 'id', ids);
    },
    /** A single-account response in the list shape (the owner is named differently there). */
    accountFromDetail(account: CrmAccountSingle, contactIds: string[]): CrmAccount {
      const { contactOwnerUserId, companyId: _c, ...rest } = account;
      return { ...rest, accountOwnerUserId: contactOwnerUserId, contacts: contactIds };
    },
    putContactDetail(contact: CrmContact, tasks: readonly CrmContactTask[]): void {
      contacts.upsert(contact);
      dropLinksStmt.run(contact.id);
      for (const t of tasks)
        contactTasks.run(contact.id, t.id, t.shortId, t.title, t.taskStatusId, t.taskTypeId);
    },
    contact(id: string): CrmContact | null {
      const row = stmt(`SELECT ${contacts.select} FROM crm_contacts WHERE id = ?`).get(id) as
        Record<string, unknown> | undefined;
      return row ? contacts.decode(row) : null;
    },
    account(id: string): CrmAccount | null {
      const row = stmt(`SELECT ${accounts.select} FROM crm_accounts WHERE id = ?`).get(id) as
        Record<string, unknown> | undefined;
      return row ? accounts.decode(row) : null;
    },
    contactsByIds(ids: readonly string[]): CrmContact[] {
      return (
        stmt(
          `SELECT ${contacts.select} FROM crm_contacts WHERE id IN (SELECT value FROM json_each(?)) ORDER BY last_name, first_name, id`,
        ).all(JSON.stringify(ids)) as Record<string, unknown>[]
      ).map((r) => contacts.decode(r));
    },
    tasksOfContact(id: string): CrmContactTask[] {
      return stmt(
        `SELECT task_id AS id, short_id AS shortId, title, task_status_id AS taskStatusId, task_type_id AS taskTypeId
         FROM crm_contact_tasks WHERE contact_id = ? ORDER BY short_id`,
      ).all(id) as CrmContactTask[];
    },
    contactIdsOfTask(taskId: string): string[] {
      return stmt('SELECT contact_id FROM crm_contact_tasks WHERE task_id = ?')
        .pluck()
        .all(taskId) as string[];
    },
    setTaskContacts(taskId: string, contactIds: readonly string[]): void {
      // The task's contact links as the single-task response names them; the rest of the link
      // row (title, status) is refreshed when the contact is fetched.
      const task = stmt('SELECT short_id, name, status_id, task_type_id FROM tasks WHERE id = ?').get(
        taskId,
      ) as { short_id: string; name: string; status_id: string; task_type_id: string } | undefined;
      stmt('DELETE FROM crm_contact_tasks WHERE task_id = ?').run(taskId);
      if (!task) return;
      for (const c of contactIds)
        contactTasks.run(c, taskId, task.short_id, task.name, task.status_id, task.task_type_id);
    },
    /**
     * The contact's task links as stored (column names): what a delete keeps to undo itself.
     * Kept in the outbox as they are, so entries stored by an earlier version restore the same way.
     */
    linkRowsOfContact(contactId: string): Record<string, unknown>[] {
      return linkRowsStmt.all(contactId) as Record<string, unknown>[];
    },
    /** Puts back a link `linkRowsOfContact` read (a refused delete's rollback). */
    restoreLinkRow(row: Record<string, unknown>): void {
      putLinkRowStmt.run(row);
    },
    /** Removes the contact's task links (the service unlinks a deleted contact's tasks). */
    dropContactLinks(contactId: string): void {
      dropLinksStmt.run(contactId);
    },
    contactIdsOfAccount(accountId: string): string[] {
      return contactsOfAccountStmt.all(accountId) as string[];
    },
    setContactAccount(contactId: string, accountId: string | null): void {
      setContactAccountStmt.run(accountId, contactId);
    },
    /** The organization's id as the cached contacts carry it ('' before any is cached). */
    companyId(): string {
      return (companyIdStmt.get() as string | undefined) ?? '';
    },
    /** Ids of the cached contacts of this first name. */
    contactIdsNamed(firstName: string): string[] {
      return contactsNamedStmt.all(firstName) as string[];
    },
    /** Ids of the cached accounts of this name. */
    accountIdsNamed(name: string): string[] {
      return accountsNamedStmt.all(name) as string[];
    },
    listContacts(q: CrmListQuery) {
      return list(
        contacts,
        'crm_contacts',
        ['first_name', 'last_name', 'email'],
        'last_name COLLATE NOCASE, first_name COLLATE NOCASE',
        q,
      );
    },
    listAccounts(q: CrmListQuery) {
      return list(accounts, 'crm_accounts', ['name', 'email', 'website'], 'name COLLATE NOCASE', {
        ...q,
        accountId: undefined,
      });
    },
  };
}
