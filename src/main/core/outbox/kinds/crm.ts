import { z } from 'zod';
import type { CrmAccount, CrmContact } from '../../../../shared/api/crm';
import {
  AccountCreateInput,
  AccountFields,
  ContactCreateInput,
  ContactFields,
} from '../../../../shared/ipc/crm-write';
import type { ServiceClient } from '../../api/client';
import type { Cache } from '../../cache/cache';
import { RejectedError } from '../../api/errors';
import { afterApplied, OutboxError } from '../outbox';
import {
  applyChanges,
  changedFields,
  changedOnService,
  pendingBasesOf,
  mappedIds,
  restoreReleased,
  TempId,
  tempKeys,
  createdAmongOf,
  type FindCreated,
  type Kind,
  type KindDeps,
  listedLookUp,
} from './support';
import { crmEndpoints } from '../../../../shared/api/crm';

const Snapshot = z.object({
  row: z.record(z.string(), z.unknown()),
  links: z.array(z.record(z.string(), z.unknown())),
  tasks: z.array(z.string()),
  contacts: z.array(z.string()),
  /** The record's fields with a waiting change of this client, under it (`changedOnService`). */
  pendingBases: z.record(z.string(), z.unknown()).default({}),
});

/** What differs between a contact and an account; the kinds are the same code over both. */
interface CrmSide<
  Rec extends { id: string },
  C extends z.ZodType,
  F extends z.ZodType,
  E extends 'crmContact' | 'crmAccount',
> {
  entity: E;
  label: string;
  createInput: C;
  fields: F;
  get(id: string): Rec | null;
  /** How a person tells the record from others in a list of changes: a contact's or an account's name. */
  nameOf(rec: Rec | z.infer<C>): string;
  upsert(rec: Rec): void;
  blank(id: string, input: z.infer<C>): Rec;
  list(client: ServiceClient): Promise<Rec[]>;
  /** Fields a look-up compares (what the create sent). */
  sameAs(rec: Rec, input: z.infer<C>): boolean;
  create(client: ServiceClient, input: z.infer<C>): Promise<void>;
  update(client: ServiceClient, id: string, changes: z.infer<F>): Promise<void>;
  remove(client: ServiceClient, id: string): Promise<void>;
  fetch(client: ServiceClient, id: string): Promise<{ isDeleted: boolean }>;
  /** Applies the service's delete to the cache; answers what a rollback restores. */
  deleteLocal(id: string): Omit<z.infer<typeof Snapshot>, 'pendingBases'>;
  /** Removes the record's row and what hangs on it (a local create's rollback). */
  drop(id: string): void;
  restore(snapshot: z.infer<typeof Snapshot>): void;
  refs(input: Record<string, unknown>): string[];
  /** The fields whose change by someone else holds a delete of the record (rule 7). */
  watched: readonly string[];
}

function crmSideKinds<
  Rec extends { id: string },
  C extends z.ZodType,
  F extends z.ZodType,
  E extends 'crmContact' | 'crmAccount',
>(deps: KindDeps, side: CrmSide<Rec, C, F, E>) {
  const isMapped = mappedIds(deps.cache);
  const prefix: E = side.entity;
  const CreatePayload = z.object({ tempId: TempId, input: side.createInput, known: z.array(z.string()) });
  const UpdatePayload = z.object({ id: z.string(), changes: side.fields });
  const DeletePayload = z.object({ id: z.string() });
  type Create = { tempId: string; input: z.infer<C>; known: string[] };
  type Update = { id: string; changes: z.infer<F> };

  /**
   * The kind's label names its record, as a task's or a project's change does ("Edit contact
   * "Ada Lind" (phone)"): two contacts edited offline are told apart. The record is read from
   * the cache (a pending rename shows); one the cache no longer holds is left unnamed.
   */
  const labelOf = (verb: string, id: string, fields = ''): string => {
    const rec = side.get(id);
    const name = rec ? side.nameOf(rec).trim() : '';
    return `${verb} ${side.label}${name ? ` "${name}"` : ''}${fields ? ` (${fields})` : ''}`;
  };

  const write = (id: string, values: Record<string, unknown>): void => {
    const rec = side.get(id);
    if (rec) side.upsert({ ...rec, ...values });
  };

  /**
   * The create answers no id: the new item is the one matching what was sent (its owner too,
   * which the service sets to the creator unless given) that is neither taken by another create
   * nor among those that existed before: held by the cache when the change was made, or listed
   * by the service just before the send (`prepare`), nor by `taken`. The look-up and the lists
   * sync stores (`copiesOfUnfolded`) both ask it.
   */
  const createdIn: FindCreated<Rec, Create> = (records, p, _entry, taken = () => false) =>
    records.find(
      (r) =>
        side.sameAs(r, p.input) &&
        !isMapped(r.id) &&
        !taken(r.id) &&
        !p.known.includes(r.id) &&
        !('isDeleted' in r && r.isDeleted),
    );
  const find = async (client: ServiceClient, p: Create): Promise<Rec | undefined> =>
    // CRM records carry no creation stamp: the test reads no send time.
    createdIn(await side.list(client), p, { sentAt: null });

  const create: Kind<Create, { id: string }, `${E}.create`> = {
    name: `${prefix}.create`,
    parse: (p) => CreatePayload.parse(p) as Create,
    keysOf: (p) => [`${prefix}:${p.tempId}`, ...side.refs(p.input as Record<string, unknown>)],
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Create ${side.label} "${side.nameOf(p.input).trim()}"`,
    apply: (_ctx, p) => {
      side.upsert(side.blank(p.tempId, p.input));
    },
    prepare: async (client, p) => {
      const before = (await side.list(client)).filter((r) => side.sameAs(r, p.input)).map((r) => r.id);
      return { ...p, known: [...new Set([...p.known, ...before])] };
    },
    send: async (client, p) => {
      await side.create(client, p.input);
      // The post was answered: a failed id look-up must not post it again, only look again.
      return afterApplied(async () => {
        const found = await find(client, p);
        if (!found) throw new Error(`The new ${side.label} was not found after its create`);
        return { id: found.id };
      });
    },
    fold: (_ctx, _p, result) => ({ realId: result.id }),
    lookUp: async (client, p) => {
      const found = await find(client, p);
      return found ? { found: true, result: { id: found.id } } : { found: false };
    },
    rollback: (_ctx, p) => {
      side.deleteLocal(p.tempId);
      side.drop(p.tempId);
    },
  };

  const update: Kind<Update, void, `${E}.update`> = {
    name: `${prefix}.update`,
    parse: (p) => UpdatePayload.parse(p) as Update,
    keysOf: (p) => [`${prefix}:${p.id}`, ...side.refs(p.changes as Record<string, unknown>)],
    describe: (p) => labelOf('Edit', p.id, Object.keys(p.changes as object).join(', ')),
    apply: (ctx, p) => {
      const current = side.get(p.id);
      if (!current) throw new OutboxError('not-found', `${side.label} ${p.id} is not in the cache`, 'id');
      const diff = changedFields(current as Record<string, unknown>, p.changes as Record<string, unknown>);
      if (!applyChanges(ctx, side.entity, p.id, diff, write)) return { noop: true };
      const sent = Object.fromEntries(
        Object.keys(diff).map((k) => [k, (p.changes as Record<string, unknown>)[k]]),
      );
      return { payload: { id: p.id, changes: sent as z.infer<F> } };
    },
    send: (client, p) => side.update(client, p.id, p.changes),
    fold: () => undefined,
    rollback: (ctx) => restoreReleased(ctx, side.entity, write),
    // Its whole effect is its field claims: an undo while it waits withdraws it.
    withdrawable: () => true,
    merge: (a, b) => ({
      id: a.id,
      changes: { ...(a.changes as object), ...(b.changes as object) } as z.infer<F>,
    }),
  };

  const remove: Kind<z.infer<typeof DeletePayload>, void, `${E}.delete`> = {
    name: `${prefix}.delete`,
    deletes: true,
    parse: (p) => DeletePayload.parse(p),
    keysOf: (p) => [`${prefix}:${p.id}`],
    describe: (p) => labelOf('Delete', p.id),
    apply: (ctx, p) => {
      if (!side.get(p.id))
        throw new OutboxError('not-found', `${side.label} ${p.id} is not in the cache`, 'id');
      const pendingBases = pendingBasesOf(ctx, side.entity, p.id, side.watched);
      // The service has no undelete: the delete waits a few seconds so its Undo can withdraw it.
      return { undo: { ...side.deleteLocal(p.id), pendingBases }, holdForUndo: true };
    },
    send: (client, p) => side.remove(client, p.id),
    changedSince: (_p, undo, item) => {
      const snapshot = Snapshot.safeParse(undo).data;
      return snapshot ? changedOnService(snapshot.row, item, side.watched, snapshot.pendingBases) : [];
    },
    fold: () => undefined,
    lookUp: async (client, p) => {
      try {
        return (await side.fetch(client, p.id)).isDeleted
          ? { found: true, result: undefined }
          : { found: false };
      } catch (err) {
        if (err instanceof RejectedError && err.status === 404) return { found: true, result: undefined };
        throw err;
      }
    },
    rollback: (_ctx, _p, undo) => side.restore(Snapshot.parse(undo)),
  };

  return {
    kinds: [create, update, remove],
    /** The look-up test of the create over a list, for `copiesOfUnfolded`. */
    createdAmong: createdAmongOf(create.parse, createdIn),
  };
}

declare module './support' {
  interface KindModules {
    crm: ReturnType<typeof crmKinds>;
  }
}

export function crmKinds(deps: KindDeps) {
  const { cache } = deps;

  const contacts = crmSideKinds<CrmContact, typeof ContactCreateInput, typeof ContactFields, 'crmContact'>(
    deps,
    {
      entity: 'crmContact',
      watched: [
        'contactType',
        'crmAccountId',
        'firstName',
        'lastName',
        'email',
        'phone',
        'contactOwnerUserId',
        'notes',
        'customFieldsData',
      ],
      label: 'contact',
      createInput: ContactCreateInput,
      fields: ContactFields,
      get: (id) => cache.crm.contact(id),
      nameOf: (rec) => `${rec.firstName} ${rec.lastName ?? ''}`,
      upsert: (rec) => cache.crm.contacts.upsert(rec),
      blank: (id, input) => ({
        id,
        companyId: cache.crm.companyId(),
        contactType: input.contactType ?? null,
        crmAccountId: input.crmAccountId ?? null,
        contactOwnerUserId: input.contactOwnerUserId ?? deps.userId,
        firstName: input.firstName,
        lastName: input.lastName ?? '',
        email: input.email ?? '',
        phone: input.phone ?? '',
        notes: input.notes ?? null,
        customFieldsData: input.customFieldsData ?? {},
        userId: null,
        isDeleted: false,
      }),
      list: (client) => client.call(crmEndpoints.crmContacts),
      sameAs: (r, i) =>
        r.firstName === i.firstName &&
        r.contactOwnerUserId === (i.contactOwnerUserId ?? deps.userId) &&
        r.crmAccountId === (i.crmAccountId ?? null) &&
        r.lastName === (i.lastName ?? '') &&
        r.email === (i.email ?? '') &&
        r.phone === (i.phone ?? ''),
      create: (client, input) =>
        client.call(crmEndpoints.createCrmContact, { body: { ...input, createdByUserId: deps.userId } }),
      update: (client, id, changes) =>
        client.call(crmEndpoints.updateCrmContact, {
          id,
          body: { ...changes, updatedByUserId: deps.userId },
        }),
      remove: (client, id) => client.call(crmEndpoints.deleteCrmContact, { id }),
      fetch: async (client, id) => (await client.call(crmEndpoints.crmContact, { id })).contact,
      deleteLocal: (id) => {
        const row = cache.crm.contact(id);
        const links = cache.crm.linkRowsOfContact(id);
        // The service marks it deleted and unlinks its tasks.
        if (row) cache.crm.contacts.upsert({ ...row, isDeleted: true });
        cache.crm.dropContactLinks(id);
        return { row: (row ?? {}) as Record<string, unknown>, links, tasks: [], contacts: [] };
      },
      restore: (s) => {
        if (s.row.id) cache.crm.contacts.upsert(s.row as unknown as CrmContact);
        for (const l of s.links) cache.crm.restoreLinkRow(l);
      },
      drop: (id) => cache.crm.deleteContacts([id]),
      refs: (input) => tempKeys('crmAccount', input.crmAccountId as string | null | undefined),
    },
  );

  const accounts = crmSideKinds<CrmAccount, typeof AccountCreateInput, typeof AccountFields, 'crmAccount'>(
    deps,
    {
      entity: 'crmAccount',
      watched: ['name', 'email', 'phone', 'website', 'accountOwnerUserId', 'notes', 'customFieldsData'],
      label: 'account',
      createInput: AccountCreateInput,
      fields: AccountFields,
      get: (id) => cache.crm.account(id),
      nameOf: (rec) => rec.name,
      upsert: (rec) => cache.crm.accounts.upsert(rec),
      blank: (id, input) => ({
        id,
        name: input.name,
        email: input.email ?? '',
        phone: input.phone ?? '',
        website: input.website ?? '',
        notes: input.notes ?? null,
        accountOwnerUserId: input.accountOwnerUserId ?? deps.userId,
        contacts: [],
        customFieldsData: input.customFieldsData ?? {},
        isDeleted: false,
      }),
      list: (client) => client.call(crmEndpoints.crmAccounts),
      sameAs: (r, i) =>
        r.name === i.name &&
        r.accountOwnerUserId === (i.accountOwnerUserId ?? deps.userId) &&
        r.email === (i.email ?? '') &&
        r.phone === (i.phone ?? '') &&
        r.website === (i.website ?? ''),
      create: (client, input) =>
        client.call(crmEndpoints.createCrmAccount, { body: { ...input, createdByUserId: deps.userId } }),
      update: (client, id, changes) =>
        client.call(crmEndpoints.updateCrmAccount, {
          id,
          body: { ...changes, updatedByUserId: deps.userId },
        }),
      remove: (client, id) => client.call(crmEndpoints.deleteCrmAccount, { id }),
      fetch: async (client, id) => (await client.call(crmEndpoints.crmAccount, { id })).account,
      deleteLocal: (id) => {
        const row = cache.crm.account(id);
        const tasks = cache.tasks.idsLinkedToAccount(id);
        const detached = cache.crm.contactIdsOfAccount(id);
        // The service marks it deleted, unlinks its tasks and detaches its contacts.
        if (row) cache.crm.accounts.upsert({ ...row, isDeleted: true, contacts: [] });
        for (const t of tasks) cache.tasks.setCrmAccount(t, null);
        for (const c of detached) cache.crm.setContactAccount(c, null);
        return { row: (row ?? {}) as Record<string, unknown>, links: [], tasks, contacts: detached };
      },
      restore: (s) => {
        if (s.row.id) cache.crm.accounts.upsert(s.row as unknown as CrmAccount);
        const accountId = typeof s.row.id === 'string' ? s.row.id : null;
        for (const t of s.tasks) cache.tasks.setCrmAccount(t, accountId);
        for (const c of s.contacts) cache.crm.setContactAccount(c, accountId);
      },
      drop: (id) => cache.crm.deleteAccounts([id]),
      refs: () => [],
    },
  );

  return {
    kinds: [...contacts.kinds, ...accounts.kinds],
    lookUps: [
      listedLookUp('crmContact', 'crmContact.create', contacts.createdAmong),
      listedLookUp('crmAccount', 'crmAccount.create', accounts.createdAmong),
    ],
  };
}

/** Ids of cached contacts a create's look-up must not take (they existed before it). */
export const knownContacts = (cache: Cache, input: z.infer<typeof ContactCreateInput>): string[] =>
  cache.crm.contactIdsNamed(input.firstName);
/** Ids of cached accounts a create's look-up must not take (they existed before it). */
export const knownAccounts = (cache: Cache, input: z.infer<typeof AccountCreateInput>): string[] =>
  cache.crm.accountIdsNamed(input.name);
