import type { CacheEntity } from '../../../shared/entities';
import { stamp, type Gate, type SyncDeps } from '../sync/context';
import { storeProjectTemplates } from '../sync/project-templates';
import { fetchUnlessGone, type OnDemandRead } from '../sync/on-demand';
import { ackMark } from '../sync/pending';
import { heldAnswers, recordAnswers } from '../sync/held-lists';
import { keepingUnreadable } from '../sync/removal';
import type { UnreadListAnswer } from '../api/client';
import type { ListTable } from '../cache/repos/list-answers';
import { storeTagTasks, storeTasks, type PullContext, type PullPart } from '../sync/pull';
import type { EntityDescriptor } from './types';
import { customFieldEndpoints } from '../../../shared/api/custom-fields';
import { orgEndpoints } from '../../../shared/api/org';
import { taskEndpoints } from '../../../shared/api/tasks';

/**
 * An organization list, fetched and stored on its own: a status list that cannot be read
 * leaves the users, task types and the rest to be stored. The same answer as last stored, its
 * table not written since, is neither parsed nor stored again (`heldAnswers`). An element that
 * cannot be read keeps its cached row (`store` gets the `keep` to replace the table with; one
 * without a readable id keeps every row). Answers the ids the list holds (none when the service
 * does not offer it; undefined when it could not be read).
 */
export function readOrgList<T extends { id: string }>(
  ctx: PullContext,
  path: string,
  table: ListTable,
  fetch: (client: SyncDeps['client'], signal: AbortSignal) => Promise<UnreadListAnswer<T> | null>,
  store: (deps: SyncDeps, value: T[] | null, keep: (id: string) => boolean) => void,
  entities: CacheEntity[],
): Promise<readonly string[] | undefined> {
  const { deps, gate } = ctx;
  return ctx.isolated(path, async () => {
    const answer = await gate((s) => fetch(deps.client, s));
    const held = answer && heldAnswers(deps, [{ key: path, answer }]);
    if (held) return held[0]!;
    const read = answer?.read();
    deps.cache.transaction(() => {
      store(
        deps,
        read?.items ?? null,
        keepingUnreadable(() => false, read?.skipped ?? []),
      );
      if (answer && read) {
        const ids = read.items.map((item) => item.id);
        recordAnswers(
          deps,
          table,
          [{ key: path, fingerprint: answer.fingerprint, ids }],
          !read.skipped.length,
        );
      } else if (!answer) {
        // Not offered: the store noted it beside the table (project templates' "offered"), so
        // the same answer, offered again later, must be stored again to note it back.
        deps.cache.listAnswers.forget(path);
      }
    });
    ctx.changed(entities);
    return read?.items.map((item) => item.id) ?? [];
  });
}

/** The pull part of an organization list (read first: nothing else waits for it). */
function orgListPart<T extends { id: string }>(
  path: string,
  table: ListTable,
  fetch: (client: SyncDeps['client'], signal: AbortSignal) => Promise<UnreadListAnswer<T> | null>,
  store: (deps: SyncDeps, value: T[] | null, keep: (id: string) => boolean) => void,
  entities: CacheEntity[],
): PullPart {
  return {
    phase: 'org',
    run: async (ctx) => {
      await readOrgList(ctx, path, table, fetch, store, entities);
    },
  };
}

export const customField: EntityDescriptor<'customField'> = {
  views: ['customFields'],
  tables: [{ name: 'custom_fields' }],
  pull: [
    orgListPart(
      '/custom-fields',
      'custom_fields',
      (client, s) => client.callUnread(customFieldEndpoints.customFields, {}, s),
      (deps, v, keep) => v && deps.cache.org.customFields.replace(v, keep),
      ['customFields'],
    ),
  ],
};

export const user: EntityDescriptor<'user'> = {
  views: ['users'],
  tables: [{ name: 'users' }],
  pull: [
    orgListPart(
      '/users',
      'users',
      (client, s) => client.callUnread(orgEndpoints.users, {}, s),
      (deps, v, keep) => v && deps.cache.org.users.replace(v, keep),
      ['users'],
    ),
  ],
};

export const status: EntityDescriptor<'status'> = {
  views: ['statuses'],
  tables: [{ name: 'statuses' }],
  pull: [
    orgListPart(
      '/statuses',
      'statuses',
      (client, s) => client.callUnread(orgEndpoints.statuses, {}, s),
      (deps, v, keep) => v && deps.cache.org.statuses.replace(v, keep),
      ['statuses'],
    ),
  ],
};

export const taskType: EntityDescriptor<'taskType'> = {
  views: ['taskTypes'],
  tables: [{ name: 'task_types' }],
  pull: [
    orgListPart(
      '/task-types',
      'task_types',
      (client, s) => client.callUnread(orgEndpoints.taskTypes, {}, s),
      (deps, v, keep) => v && deps.cache.org.taskTypes.replace(v, keep),
      ['taskTypes'],
    ),
  ],
};

/** The on-demand read of the project templates: `sync.onDemand.run(projectTemplateReads.all())`. */
export const projectTemplateReads = {
  /** The project templates, when a view needs them before a pull brought them. */
  all: (): OnDemandRead<'ok'> => async (deps, gate) => {
    const templates = await gate((s) => deps.client.call(orgEndpoints.projectTemplates, {}, s));
    deps.cache.transaction(() => storeProjectTemplates(deps, templates));
    deps.emitChange({ entities: ['projects'] });
    return 'ok';
  },
};

export const projectTemplate: EntityDescriptor<'projectTemplate'> = {
  views: [],
  tables: [{ name: 'project_templates' }],
  pull: [
    orgListPart(
      '/project-templates',
      'project_templates',
      (client, s) => client.callUnread(orgEndpoints.projectTemplates, {}, s),
      (deps, v, keep) => storeProjectTemplates(deps, v, keep),
      ['projects'],
    ),
  ],
};

/** Every task of a tag, as the tag views show them (closed ones too). */
function pullTagTasks(ctx: PullContext, gate: Gate, tagId: string): Promise<void | undefined> {
  const { deps, mark } = ctx;
  return ctx.isolated(`/tag/${encodeURIComponent(tagId)}/tasks`, async () => {
    const tasks = await gate((s) =>
      deps.client.call(taskEndpoints.tagTasks, { id: tagId, query: { closed: true } }, s),
    );
    deps.cache.transaction(() => {
      storeTagTasks(
        deps,
        tagId,
        tasks.map((t) => t.id),
        mark,
      );
      deps.cache.syncState.set(`tag:${tagId}`, stamp(deps.clock()));
    });
  });
}

/** The on-demand read of a tag: `sync.onDemand.run(tagReads.tasks(tagId))`. */
export const tagReads = {
  /** Every task of a tag, closed ones too. */
  tasks:
    (tagId: string): OnDemandRead =>
    (deps, gate) => {
      const { cache, client, pending } = deps;
      return fetchUnlessGone(
        cache,
        async () => {
          const mark = ackMark(pending);
          const tasks = await gate((s) =>
            client.call(taskEndpoints.tagTasks, { id: tagId, query: { closed: true } }, s),
          );
          cache.transaction(() => {
            storeTasks(deps, tasks, mark);
            storeTagTasks(
              deps,
              tagId,
              tasks.map((t) => t.id),
              mark,
            );
            cache.syncState.set(`tag:${tagId}`, stamp(deps.clock()));
          });
          deps.emitChange({ entities: ['tasks', 'tags'] });
        },
        () => cache.org.setTagTasks(tagId, []),
      );
    },
};

export const tag: EntityDescriptor<'tag'> = {
  views: ['tags'],
  tables: [{ name: 'tags' }],
  pull: [
    {
      phase: 'org',
      // Without a tag list (GoodDay offers none) the tags are those seen on tasks: kept as
      // stored. Each listed tag's tasks are read next.
      run: async (ctx) => {
        const tags = await readOrgList(
          ctx,
          '/tags',
          'tags',
          (client, s) => client.callUnread(orgEndpoints.tags, {}, s),
          (deps, v, keep) => v && deps.cache.org.tags.replace(v, keep),
          ['tags'],
        );
        await Promise.all((tags ?? []).map((id) => pullTagTasks(ctx, ctx.gate, id)));
      },
    },
  ],
};
