// Changes to CRM records, and links between CRM records and tasks, on the one write path
// (`runWrite`). Links go through the update-task operation (`crmContactIds`, `crmAccountId`), as
// the service defines them.
import type { CrmAccount, CrmContact } from '@shared/api/crm';
import type { ChannelInput } from '@shared/ipc/contract';
import type { CreateResult, WriteResult } from '@shared/ipc/tasks-write';
import { bridge } from '../lib/bridge';
import { describeError, errorField } from '../lib/errors';
import type { WriteOutcome } from '../lib/run-write';
import { quoted } from '../lib/undo';
import { runWrite } from './writes';
import type { FormProblem } from '../lib/form-problem';

export type { FormProblem };

/**
 * A CRM form's fields: the create channel's own but the custom fields (set one by one on the
 * record), every one filled in, the notes as typed (empty is none).
 */
type FormFields<T> = {
  [K in Exclude<keyof T, 'customFieldsData'>]-?: K extends 'notes' ? string : Exclude<T[K], undefined>;
};
/** `contactType` is a contact-type id (the service lists no types: the choices are those contacts carry). */
export type ContactFields = FormFields<ChannelInput<'crm.createContact'>>;
export type AccountFields = FormFields<ChannelInput<'crm.createAccount'>>;

/** What a form does once its save is accepted: close, and open a record it created. */
export interface FormDone {
  onclose: () => void;
  oncreated: (id: string) => void;
}

/** The form's fields as the channels take them: the name trimmed, empty notes as null. */
function contactChanges(fields: ContactFields) {
  return { ...fields, firstName: fields.firstName.trim(), notes: fields.notes.trim() || null };
}
function accountChanges(fields: AccountFields) {
  return { ...fields, name: fields.name.trim(), notes: fields.notes.trim() || null };
}

/** Only the fields that differ from the record (updates send what changed). */
function changedOnly<T extends object>(record: object, changes: T): Partial<T> {
  const current = record as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(changes).filter(([key, value]) => current[key] !== value),
  ) as Partial<T>;
}

/**
 * A CRM form's submit, the same for contacts and accounts: the name it requires, then the
 * create or the update. Answers the problem to show next to its field (the name when the core
 * names none), or undefined once saved and `done` was told.
 */
async function submitForm<F extends object>(
  fields: F,
  required: keyof F & string,
  save: () => Promise<WriteOutcome<WriteResult | CreateResult>>,
  done: FormDone,
): Promise<FormProblem | undefined> {
  const at = (field: string) => (fields as Record<string, unknown>)[field];
  if (!String(at(required)).trim())
    return { field: required, message: 'must not be empty', value: at(required) };
  const outcome = await save();
  if (!outcome.ok) {
    const field = errorField(outcome.error) ?? required;
    return { field, message: describeError(outcome.error), value: at(field) };
  }
  done.onclose();
  if ('id' in outcome.value) done.oncreated(outcome.value.id);
  return undefined;
}

/**
 * The record's custom-field map with one value set (null resets it). The whole map is sent: the
 * service merges it, and the cache takes it as the record's map until the next pull.
 */
function withField(record: { customFieldsData: Record<string, unknown> }, fieldId: string, value: unknown) {
  return { customFieldsData: { ...record.customFieldsData, [fieldId]: value } };
}

export const crmWrites = {
  /** Creates a contact (`contact` undefined) or saves the changed fields of one. */
  saveContact(contact: CrmContact | undefined, fields: ContactFields, done: FormDone) {
    return submitForm(
      fields,
      'firstName',
      () =>
        contact
          ? runWrite(
              'crm.updateContact',
              { contactId: contact.id, changes: changedOnly(contact, contactChanges(fields)) },
              { undoLabel: `Changed ${quoted(`${contact.firstName} ${contact.lastName ?? ''}`)}` },
            )
          : runWrite('crm.createContact', contactChanges(fields), {
              undoLabel: `Created ${quoted(`${fields.firstName} ${fields.lastName}`)}`,
            }),
      done,
    );
  },
  /** Sets one custom field of a contact (the organization's definitions, as for tasks). */
  setContactField(contact: CrmContact, fieldId: string, value: unknown) {
    return runWrite(
      'crm.updateContact',
      { contactId: contact.id, changes: withField(contact, fieldId, value) },
      { failure: 'Could not change the custom field' },
    );
  },
  /**
   * The delete waits a few seconds in the outbox (the service has no undelete): its toast's Undo
   * withdraws it then; once sent, the record cannot come back.
   */
  deleteContact(contact: CrmContact) {
    return runWrite(
      'crm.deleteContact',
      { contactId: contact.id },
      {
        failure: 'Could not delete the contact',
        undoLabel: `Deleted ${quoted(`${contact.firstName} ${contact.lastName ?? ''}`)}`,
        undoToast: true,
      },
    );
  },
  /** Creates an account (`account` undefined) or saves the changed fields of one. */
  saveAccount(account: CrmAccount | undefined, fields: AccountFields, done: FormDone) {
    return submitForm(
      fields,
      'name',
      () =>
        account
          ? runWrite(
              'crm.updateAccount',
              { accountId: account.id, changes: changedOnly(account, accountChanges(fields)) },
              { undoLabel: `Changed ${quoted(account.name)}` },
            )
          : runWrite('crm.createAccount', accountChanges(fields), {
              undoLabel: `Created ${quoted(fields.name)}`,
            }),
      done,
    );
  },
  setAccountField(account: CrmAccount, fieldId: string, value: unknown) {
    return runWrite(
      'crm.updateAccount',
      { accountId: account.id, changes: withField(account, fieldId, value) },
      { failure: 'Could not change the custom field' },
    );
  },
  deleteAccount(account: CrmAccount) {
    return runWrite(
      'crm.deleteAccount',
      { accountId: account.id },
      {
        failure: 'Could not delete the account',
        undoLabel: `Deleted ${quoted(account.name)}`,
        undoToast: true,
      },
    );
  },

  /** Adds or removes one contact among a task's linked contacts (read first: the whole set is sent). */
  linkContact(taskId: string, contactId: string, linked: boolean) {
    return runWrite(
      'tasks.update',
      async () => {
        const detail = await bridge.invoke('tasks.detail', { taskId });
        const current = detail.crmContacts.map((contact) => contact.id);
        const next = linked
          ? [...new Set([...current, contactId])]
          : current.filter((id) => id !== contactId);
        return { taskId, changes: { crmContactIds: next } };
      },
      { failure: linked ? 'Could not link the contact' : 'Could not unlink the contact' },
    );
  },

  /** Sets (or clears, with null) the account a task is linked to. */
  linkAccount(taskId: string, accountId: string | null) {
    return runWrite(
      'tasks.update',
      { taskId, changes: { crmAccountId: accountId } },
      { failure: accountId ? 'Could not link the account' : 'Could not unlink the account' },
    );
  },
};
