import { stamp } from '../sync/context';
import { fetchUnlessGone, type OnDemandRead } from '../sync/on-demand';
import { ackMark, mergePending } from '../sync/pending';
import { withoutCopies, type PullContext } from '../sync/pull';
import { checkedKeep, idSet } from '../sync/removal';
import type { CheckedItem, EntityDescriptor } from './types';
import type { CrmAccount, CrmContact } from '../../../shared/api/crm';

declare module '../sync/pending' {
  /** As its lists answer it: what a create's look-up finds the created item among. */
  interface ListedItems {
    crmContact: CrmContact;
    crmAccount: CrmAccount;
  }
}

/**
 * A CRM record for the check before a send, read one by one (a list item lacks fields a single
 * read has): one marked deleted counts as gone; `momentUpdated` says when it last changed.
 */
function checkedRecord(record: Record<string, unknown>): CheckedItem | null {
  if (record.isDeleted === true) return null;
  const at = record.momentUpdated;
  return { values: record, source: { at: typeof at === 'string' ? at : null } };
}

/** The contact list (removals checked, rule 9), read and stored on its own. */
async function pullContacts(ctx: PullContext): Promise<void> {
  const { deps, gate, mark } = ctx;
  const { cache, client, pending, log } = deps;
  await ctx.isolated('/crm/contacts', async () => {
    const list = await gate((s) => client.crmContacts(s));
    const keepContacts = await checkedKeep(
      cache.crm.contactIds(),
      list,
      ctx.keep('crmContact'),
      async () => idSet(await gate((s) => client.crmContacts(s))),
      log,
      'CRM contacts',
    );
    cache.transaction(() => {
      // Copies of creates whose answer has not folded are left out, as for events.
      const c = withoutCopies(pending, 'crmContact', list).flatMap(
        (x) => mergePending(pending, 'crmContact', x, () => cache.crm.contact(x.id), mark) ?? [],
      );
      cache.crm.replaceContacts(c, keepContacts);
    });
    ctx.changed(['crmContacts']);
  });
}

/** The account list, as the contacts. */
async function pullAccounts(ctx: PullContext): Promise<void> {
  const { deps, gate, mark } = ctx;
  const { cache, client, pending, log } = deps;
  await ctx.isolated('/crm/accounts', async () => {
    const list = await gate((s) => client.crmAccounts(s));
    const keepAccounts = await checkedKeep(
      cache.crm.accountIds(),
      list,
      ctx.keep('crmAccount'),
      async () => idSet(await gate((s) => client.crmAccounts(s))),
      log,
      'CRM accounts',
    );
    cache.transaction(() => {
      const a = withoutCopies(pending, 'crmAccount', list).flatMap(
        (x) => mergePending(pending, 'crmAccount', x, () => cache.crm.account(x.id), mark) ?? [],
      );
      cache.crm.replaceAccounts(a, keepAccounts);
    });
    ctx.changed(['crmAccounts']);
  });
}

/**
 * The on-demand reads of CRM records, what a view opens: `sync.onDemand.run(crmReads.contact(id))`.
 * Each resolves 'gone' when the service no longer has the record (removed from the cache unless
 * a local create or delete of it waits); a local change still pending is kept over the answer
 * (rule 7).
 */
export const crmReads = {
  contact:
    (contactId: string): OnDemandRead =>
    (deps, gate) => {
      const { cache, client, pending } = deps;
      return fetchUnlessGone(
        cache,
        async () => {
          const mark = ackMark(pending);
          const { contact, tasks } = await gate((s) => client.crmContact(contactId, s));
          cache.transaction(() => {
            const merged = mergePending(
              pending,
              'crmContact',
              contact,
              () => cache.crm.contact(contactId),
              mark,
            );
            if (merged) cache.crm.putContactDetail(merged, tasks);
            cache.syncState.set(`contact:${contactId}`, stamp(deps.clock()));
          });
          deps.emitChange({ entities: ['crmContacts'], ids: { crmContacts: [contactId] } });
        },
        () => {
          if (!pending.isPendingStructural('crmContact', contactId)) cache.crm.deleteContacts([contactId]);
        },
      );
    },

  account:
    (accountId: string): OnDemandRead =>
    (deps, gate) => {
      const { cache, client, pending } = deps;
      return fetchUnlessGone(
        cache,
        async () => {
          const mark = ackMark(pending);
          const { account, contacts } = await gate((s) => client.crmAccount(accountId, s));
          cache.transaction(() => {
            const incoming = cache.crm.accountFromDetail(account, contacts);
            const merged = mergePending(
              pending,
              'crmAccount',
              incoming,
              () => cache.crm.account(accountId),
              mark,
            );
            if (merged) cache.crm.accounts.upsert(merged);
            cache.syncState.set(`account:${accountId}`, stamp(deps.clock()));
          });
          deps.emitChange({ entities: ['crmAccounts'], ids: { crmAccounts: [accountId] } });
        },
        () => {
          if (!pending.isPendingStructural('crmAccount', accountId)) cache.crm.deleteAccounts([accountId]);
        },
      );
    },
};

export const crmContact: EntityDescriptor<'crmContact'> = {
  views: ['crmContacts'],
  idsOf: 'crmContacts',
  tables: [
    { name: 'crm_contacts', localId: 'id', refs: ['crm_account_id'] },
    { name: 'crm_contact_tasks', refs: ['task_id', 'contact_id'] },
  ],
  pull: [{ phase: 'tasks', run: pullContacts }],
  fetch: crmReads.contact,
  takeTheirs: ({ submit }, id, field, value) => {
    submit('crmContact.update', { id, changes: { [field]: value } });
    return true;
  },
  nameOf: (cache, id) => {
    const c = cache.crm.contact(id);
    return c ? [c.firstName, c.lastName].filter(Boolean).join(' ') : null;
  },
  check: { one: async (client, id) => checkedRecord((await client.crmContact(id)).contact) },
};

export const crmAccount: EntityDescriptor<'crmAccount'> = {
  views: ['crmAccounts'],
  idsOf: 'crmAccounts',
  tables: [{ name: 'crm_accounts', localId: 'id', jsonRefs: ['contact_ids'] }],
  pull: [{ phase: 'tasks', run: pullAccounts }],
  fetch: crmReads.account,
  takeTheirs: ({ submit }, id, field, value) => {
    submit('crmAccount.update', { id, changes: { [field]: value } });
    return true;
  },
  nameOf: (cache, id) => cache.crm.account(id)?.name ?? null,
  check: { one: async (client, id) => checkedRecord((await client.crmAccount(id)).account) },
};
