import { RejectedError } from '../api/errors';
import type { Gate, SyncDeps } from './context';
import { stamp } from './context';
import { ackMark, mergePending } from './pending';
import { pullTaskParts, storeTagTasks, storeTasks } from './pull';

const isGone = (err: unknown): boolean => err instanceof RejectedError && err.status === 404;

/**
 * Fetches of what a view opens (a task, a project, a document, a CRM record, a tag's tasks),
 * stored in the cache. Each resolves 'ok' or 'gone' (the service no longer has it: removed from
 * the cache unless a local create or delete is pending) and throws the client's errors
 * otherwise (the handler then answers from the cache).
 */
export function createOnDemand(deps: SyncDeps, gate: Gate) {
  const { cache, client, pending } = deps;
  const now = () => stamp(deps.clock());

  async function guard(run: () => Promise<void>, onGone: () => void): Promise<'ok' | 'gone'> {
    try {
      await run();
      return 'ok';
    } catch (err) {
      if (!isGone(err)) throw err;
      cache.transaction(onGone);
      return 'gone';
    }
  }

  return {
    /** The single-task response, messages and dependencies of a task. */
    async task(taskId: string): Promise<'ok' | 'gone'> {
      const [parts, deps_] = await Promise.all([
        pullTaskParts(deps, gate, taskId, true),
        gate((s) => client.dependencies('task', taskId, s)).catch((err: unknown) => {
          if (isGone(err)) return null;
          throw err;
        }),
      ]);
      if (parts === 'ok' && deps_)
        cache.transaction(() => cache.dependencies.replaceFor('task', taskId, deps_));
      if (parts === 'ok')
        deps.emitChange({ entities: ['tasks', 'messages', 'dependencies'], ids: { tasks: [taskId] } });
      else deps.emitChange({ entities: ['tasks'], ids: { tasks: [taskId] } });
      return parts;
    },

    /** Settings, members, history and dependencies of a project. */
    project(projectId: string): Promise<'ok' | 'gone'> {
      return guard(
        async () => {
          const mark = ackMark(pending);
          const [project, members, history, dependencies] = await Promise.all([
            gate((s) => client.project(projectId, s)),
            gate((s) => client.projectUsers(projectId, s)),
            gate((s) => client.projectHistory(projectId, s)),
            gate((s) => client.dependencies('project', projectId, s)),
          ]);
          cache.transaction(() => {
            const { settings, ...listShape } = project;
            const merged = mergePending(
              pending,
              'project',
              listShape,
              () => cache.projects.get(projectId),
              mark,
            );
            if (merged) cache.projects.upsertMany([merged]);
            cache.projects.setSettings(projectId, settings, now());
            cache.projectParts.replaceMembers(projectId, members);
            cache.projectParts.replaceHistory(projectId, history);
            cache.dependencies.replaceFor('project', projectId, dependencies);
          });
          deps.emitChange({
            entities: ['projects', 'members', 'history', 'dependencies'],
            ids: { projects: [projectId] },
          });
        },
        () => {
          if (pending.isPendingStructural('project', projectId)) return;
          cache.tasks.delete(cache.tasks.idsInProjects([projectId]));
          cache.projects.delete([projectId]);
        },
      );
    },

    document(documentId: string): Promise<'ok' | 'gone'> {
      return guard(
        async () => {
          const doc = await gate((s) => client.document(documentId, s));
          cache.transaction(() => cache.projectParts.putDocument(doc));
          deps.emitChange({ entities: ['documents'], ids: { documents: [documentId] } });
        },
        () => {
          if (!pending.isPendingStructural('document', documentId))
            cache.projectParts.deleteDocument(documentId);
        },
      );
    },

    /** Every task of a tag, closed ones too. */
    tag(tagId: string): Promise<'ok' | 'gone'> {
      return guard(
        async () => {
          const mark = ackMark(pending);
          const tasks = await gate((s) => client.tagTasks(tagId, { closed: true }, s));
          cache.transaction(() => {
            storeTasks(deps, tasks, mark);
            storeTagTasks(
              deps,
              tagId,
              tasks.map((t) => t.id),
              mark,
            );
            cache.syncState.set(`tag:${tagId}`, now());
          });
          deps.emitChange({ entities: ['tasks', 'tags'] });
        },
        () => cache.org.setTagTasks(tagId, []),
      );
    },

    contact(contactId: string): Promise<'ok' | 'gone'> {
      return guard(
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
            cache.syncState.set(`contact:${contactId}`, now());
          });
          deps.emitChange({ entities: ['crmContacts'], ids: { crmContacts: [contactId] } });
        },
        () => {
          if (!pending.isPendingStructural('crmContact', contactId)) cache.crm.deleteContacts([contactId]);
        },
      );
    },

    account(accountId: string): Promise<'ok' | 'gone'> {
      return guard(
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
          });
          deps.emitChange({ entities: ['crmAccounts'], ids: { crmAccounts: [accountId] } });
        },
        () => {
          if (!pending.isPendingStructural('crmAccount', accountId)) cache.crm.deleteAccounts([accountId]);
        },
      );
    },
  };
}

export type OnDemand = ReturnType<typeof createOnDemand>;
