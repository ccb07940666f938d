import { stamp, type SyncDeps } from '../sync/context';
import { fetchUnlessGone, type OnDemandRead } from '../sync/on-demand';
import { ackMark, mergePending, type ListedItems } from '../sync/pending';
import { withoutCopies, type PullContext } from '../sync/pull';
import { checkedKeep, idSet, keepingUnreadable } from '../sync/removal';
import { heldAnswers, recordAnswers } from '../sync/held-lists';
import type { UnreadListAnswer } from '../api/client';
import type { ListTable } from '../cache/repos/list-answers';
import type { CheckedItem, EntityDescriptor } from './types';
import {
  crmEndpoints,
  type CrmAccount,
  type CrmAccountDetail,
  type CrmContact,
  type CrmContactDetail,
} from '../../../shared/api/crm';

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

type Side = 'crmContact' | 'crmAccount';
type Signal = AbortSignal | undefined;

/**
 * What a contact and an account differ in for their pulls and on-demand reads; the steps are
 * one (`pullRecords`, `readRecord`). `D` is the answer of a single read.
 */
interface RecordSide<E extends Side, D> {
  entity: E;
  view: 'crmContacts' | 'crmAccounts';
  /** The list's path (its read problems are recorded under it) and its name in the log. */
  path: string;
  scope: string;
  /** The key of a single read's fetched-at stamp: `contact:<id>`. */
  stampKey: string;
  list: (client: SyncDeps['client'], signal: Signal) => Promise<UnreadListAnswer<ListedItems[E]>>;
  /** The table the list is stored in (its answer recorded as held there, see `ListAnswers`). */
  table: ListTable;
  cachedIds: (cache: SyncDeps['cache']) => string[];
  cached: (cache: SyncDeps['cache'], id: string) => Record<string, unknown> | null;
  replace: (cache: SyncDeps['cache'], rows: ListedItems[E][], keep: (id: string) => boolean) => void;
  one: (client: SyncDeps['client'], id: string, signal: Signal) => Promise<D>;
  /** The record a single read answers, as the cache stores it, and how it is stored. */
  incoming: (cache: SyncDeps['cache'], detail: D) => ListedItems[E];
  store: (cache: SyncDeps['cache'], merged: ListedItems[E], detail: D) => void;
  remove: (cache: SyncDeps['cache'], id: string) => void;
}

const contacts: RecordSide<'crmContact', CrmContactDetail> = {
  entity: 'crmContact',
  view: 'crmContacts',
  path: '/crm/contacts',
  scope: 'CRM contacts',
  stampKey: 'contact',
  list: (client, signal) => client.callUnread(crmEndpoints.crmContacts, {}, signal),
  table: 'crm_contacts',
  cachedIds: (cache) => cache.crm.contactIds(),
  cached: (cache, id) => cache.crm.contact(id),
  replace: (cache, rows, keep) => cache.crm.replaceContacts(rows, keep),
  one: (client, id, signal) => client.call(crmEndpoints.crmContact, { id }, signal),
  incoming: (_cache, { contact }) => contact,
  store: (cache, merged, { tasks }) => cache.crm.putContactDetail(merged, tasks),
  remove: (cache, id) => cache.crm.deleteContacts([id]),
};

const accounts: RecordSide<'crmAccount', CrmAccountDetail> = {
  entity: 'crmAccount',
  view: 'crmAccounts',
  path: '/crm/accounts',
  scope: 'CRM accounts',
  stampKey: 'account',
  list: (client, signal) => client.callUnread(crmEndpoints.crmAccounts, {}, signal),
  table: 'crm_accounts',
  cachedIds: (cache) => cache.crm.accountIds(),
  cached: (cache, id) => cache.crm.account(id),
  replace: (cache, rows, keep) => cache.crm.replaceAccounts(rows, keep),
  one: (client, id, signal) => client.call(crmEndpoints.crmAccount, { id }, signal),
  incoming: (cache, { account, contacts }) => cache.crm.accountFromDetail(account, contacts),
  store: (cache, merged) => cache.crm.accounts.upsert(merged),
  remove: (cache, id) => cache.crm.deleteAccounts([id]),
};

/**
 * A record list (removals checked, rule 9), read and stored on its own; the same answer as last
 * stored, its table not written since, is neither parsed nor stored again (`heldAnswers`).
 */
async function pullRecords<E extends Side, D>(ctx: PullContext, side: RecordSide<E, D>): Promise<void> {
  const { deps, gate, mark } = ctx;
  const { cache, client, pending, log } = deps;
  await ctx.isolated(side.path, async () => {
    const answer = await gate((s) => side.list(client, s));
    const held = heldAnswers(deps, [{ key: side.path, answer }]);
    if (held) {
      // What a read of each record would tell the outbox's check before a send (see `noteSeen`).
      if (pending.noteSeenAll) pending.noteSeenAll(side.entity, held[0]!);
      else for (const id of held[0]!) pending.noteSeen?.(side.entity, id);
      return;
    }
    const { items: list, skipped } = answer.read();
    const keep = await checkedKeep(
      side.cachedIds(cache),
      list,
      keepingUnreadable(ctx.keep(side.entity), skipped),
      async () => idSet(await gate((s) => side.list(client, s)).then((again) => again.read().items)),
      log,
      side.scope,
    );
    cache.transaction(() => {
      // Copies of creates whose answer has not folded are left out, as for events.
      const listed = withoutCopies(pending, side.entity, list);
      const rows = listed.flatMap(
        (x) => mergePending(pending, side.entity, x, () => side.cached(cache, x.id), mark) ?? [],
      );
      side.replace(cache, rows, keep);
      // Recorded as held when the table is now the answer: each record as sent, none kept beside.
      const asSent =
        !skipped.length &&
        rows.length === list.length &&
        rows.every((row, i) => row === list[i]) &&
        side.cachedIds(cache).length === list.length;
      const ids = list.map((x) => x.id);
      recordAnswers(deps, side.table, [{ key: side.path, fingerprint: answer.fingerprint, ids }], asSent);
    });
    ctx.changed([side.view]);
  });
}

/**
 * One record read on demand: 'gone' when the service no longer has it (removed from the cache
 * unless a local create or delete of it waits); a local change still pending is kept over the
 * answer (rule 7).
 */
function readRecord<E extends Side, D>(side: RecordSide<E, D>, id: string): OnDemandRead {
  return (deps, gate) => {
    const { cache, client, pending } = deps;
    return fetchUnlessGone(
      cache,
      async () => {
        const mark = ackMark(pending);
        const detail = await gate((s) => side.one(client, id, s));
        cache.transaction(() => {
          const incoming = side.incoming(cache, detail);
          const merged = mergePending(pending, side.entity, incoming, () => side.cached(cache, id), mark);
          if (merged) side.store(cache, merged, detail);
          cache.syncState.set(`${side.stampKey}:${id}`, stamp(deps.clock()));
        });
        deps.emitChange({ entities: [side.view], ids: { [side.view]: [id] } });
      },
      () => {
        if (!pending.isPendingStructural(side.entity, id)) side.remove(cache, id);
      },
    );
  };
}

/** The on-demand reads of CRM records, what a view opens: `sync.onDemand.run(crmReads.contact(id))`. */
export const crmReads = {
  contact: (contactId: string): OnDemandRead => readRecord(contacts, contactId),
  account: (accountId: string): OnDemandRead => readRecord(accounts, accountId),
};

export const crmContact: EntityDescriptor<'crmContact'> = {
  views: ['crmContacts'],
  idsOf: 'crmContacts',
  tables: [
    { name: 'crm_contacts', localId: 'id', refs: ['crm_account_id'] },
    { name: 'crm_contact_tasks', refs: ['task_id', 'contact_id'], shownIn: ['tasks'] },
  ],
  pull: [{ phase: 'tasks', run: (ctx) => pullRecords(ctx, contacts) }],
  fetch: crmReads.contact,
  takeTheirs: ({ submit }, id, field, value) => {
    submit('crmContact.update', { id, changes: { [field]: value } });
    return true;
  },
  nameOf: (cache, id) => {
    const c = cache.crm.contact(id);
    return c ? [c.firstName, c.lastName].filter(Boolean).join(' ') : null;
  },
  check: {
    one: async (client, id) => checkedRecord((await client.call(crmEndpoints.crmContact, { id })).contact),
  },
};

export const crmAccount: EntityDescriptor<'crmAccount'> = {
  views: ['crmAccounts'],
  idsOf: 'crmAccounts',
  tables: [{ name: 'crm_accounts', localId: 'id', jsonRefs: ['contact_ids'] }],
  pull: [{ phase: 'tasks', run: (ctx) => pullRecords(ctx, accounts) }],
  fetch: crmReads.account,
  takeTheirs: ({ submit }, id, field, value) => {
    submit('crmAccount.update', { id, changes: { [field]: value } });
    return true;
  },
  nameOf: (cache, id) => cache.crm.account(id)?.name ?? null,
  check: {
    one: async (client, id) => checkedRecord((await client.call(crmEndpoints.crmAccount, { id })).account),
  },
};
