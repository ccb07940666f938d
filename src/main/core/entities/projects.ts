import type { Project } from '../../../shared/api/projects';
import { ProjectChanges } from '../../../shared/ipc/projects-write';
import { RejectedError } from '../api/errors';
import { LOCAL_ROW_PREFIX } from '../local-ids';
import type { ProjectPart } from '../../../shared/ipc/projects';
import { stamp } from '../sync/context';
import { markOffered } from '../sync/not-offered';
import { fetchUnlessGone, isGone, storeDependencies, type OnDemandRead } from '../sync/on-demand';
import { ackMark, mergePending, withStructuralOf } from '../sync/pending';
import { storeInSlices } from '../sync/store-slices';
import { withFolders, withoutCopies, type PullContext } from '../sync/pull';
import { checkedKeep, confirmRemoval, idSet, keepingUnreadable } from '../sync/removal';
import { heldAnswers, recordAnswers } from '../sync/held-lists';
import { dependencyReads } from './calendar';
import { customFieldValues } from './theirs';
import type { EntityDescriptor } from './types';
import { projectEndpoints } from '../../../shared/api/projects';
import { memberEndpoints } from '../../../shared/api/members';
import { historyEndpoints } from '../../../shared/api/history';
import { dependencyEndpoints } from '../../../shared/api/dependencies';
import { documentEndpoints } from '../../../shared/api/documents';

declare module '../sync/pending' {
  /** As its lists answer it: what a create's look-up finds the created item among. */
  interface ListedItems {
    project: Project;
  }
}

/** The keys the project list's two answers are recorded under (see `ListAnswers`). */
const OPEN_PROJECTS = '/projects?archived=false';
const ARCHIVED_PROJECTS = '/projects?archived=true';

/**
 * The project list, open and archived: stored (removals checked, rule 9), and its roots put in
 * the context for the task lists and documents. When the list cannot be read, the cached tree
 * stands for it; so it does when both answers are the ones last stored, their table not written
 * since (`heldAnswers`): then nothing is parsed or stored.
 */
async function pullProjects(ctx: PullContext): Promise<void> {
  const { deps, gate, mark } = ctx;
  const { cache, client, pending, log } = deps;
  const fetchAnswers = () =>
    Promise.all([
      gate((s) => client.callUnread(projectEndpoints.projects, { query: { archived: false } }, s)),
      gate((s) => client.callUnread(projectEndpoints.projects, { query: { archived: true } }, s)),
    ]);
  /**
   * Both lists read, each project once, and what each answer held (for its record). Each answer
   * a slice at a time, one after the other: both read in one stretch, the schemas built on first
   * use, held the loop 20-40 ms at a loaded machine's sync start.
   */
  const readAnswers = async (answers: Awaited<ReturnType<typeof fetchAnswers>>) => {
    const open = await answers[0].readInSlices({ untold: true });
    const archived = await answers[1].readInSlices({ untold: true });
    const items = [...open.items, ...archived.items];
    const skipped = [...open.skipped, ...archived.skipped];
    // Told as one read of `/projects`: told apart, a whole archived list cleared the problems
    // of the open one.
    answers[0].tell({ total: items.length + skipped.length, skipped });
    return {
      projects: [...new Map(items.map((p) => [p.id, p])).values()],
      complete: !skipped.length,
      // A project whose item could not be read is still listed: the service holds it, so the
      // cache keeps it and its tasks. One whose item has no readable id could be any project.
      unreadableIds: skipped.flatMap((s) => (s.id === null ? [] : [s.id])),
      unnamedUnreadable: skipped.some((s) => s.id === null),
      records: [OPEN_PROJECTS, ARCHIVED_PROJECTS].map((key, i) => ({
        key,
        fingerprint: answers[i]!.fingerprint,
        ids: (i ? archived : open).items.map((p) => p.id),
      })),
    };
  };
  const answers = await ctx.isolated('/projects', fetchAnswers);
  const held =
    answers &&
    heldAnswers(deps, [
      { key: OPEN_PROJECTS, answer: answers[0] },
      { key: ARCHIVED_PROJECTS, answer: answers[1] },
    ]);
  // The service's copy of a project created here whose answer has not folded is left out, with
  // its task list and documents, and one stored earlier goes: the local row stands for it.
  const read = answers && !held ? await ctx.isolated('/projects', () => readAnswers(answers)) : undefined;
  const listed = read?.projects;
  ctx.treeRead = !!held || !!listed;
  if (read && listed) {
    const projects = withFolders(withoutCopies(pending, 'project', listed));
    const cachedProjects = cache.projects.ids();
    // The table's write count as its ids were read: a write after (an opened project fetched
    // while the removals are confirmed) is one the answers do not hold.
    let writes: number | undefined = cache.listAnswers.writes('projects');
    const projectIds = new Set([...projects.map((p) => p.id), ...read.unreadableIds]);
    // An unreadable item without an id may be any cached project: none is removed this pull.
    const notListed = read.unnamedUnreadable ? [] : cachedProjects.filter((id) => !projectIds.has(id));
    const goneProjects = await confirmRemoval(
      cachedProjects.length,
      notListed.filter((id) => !ctx.keep('project')(id)),
      async () => {
        const again = await readAnswers(await fetchAnswers());
        if (again.unnamedUnreadable) return new Set(cachedProjects);
        return new Set([...again.projects.map((p) => p.id), ...again.unreadableIds]);
      },
      log,
      'project list',
    );
    // Whether the table ends as the answers say (each project stored as sent, none kept beside
    // them) with no other write between the slices: then the answers are recorded as held.
    let asSent =
      read.complete && projects.length === listed.length && goneProjects.length === notListed.length;
    const slice = (work: () => void) =>
      cache.transaction(() => {
        if (writes !== undefined && cache.listAnswers.writes('projects') !== writes) asSent = false;
        work();
        writes = cache.listAnswers.writes('projects');
      });
    // A slice at a time (a workspace's hundreds of projects, each checked against the outbox, were
    // one stretch of 15 ms and more); the removals after, in one transaction of their own.
    await storeInSlices(slice, projects, (chunk) => {
      const known = withStructuralOf(
        pending,
        'project',
        chunk.map((p) => p.id),
      );
      for (const p of chunk) {
        const merged = mergePending(known, 'project', p, () => cache.projects.get(p.id), mark);
        if (merged) cache.projects.upsertMany([merged]);
        if (merged !== p) asSent = false;
      }
    });
    slice(() => {
      cache.tasks.delete(cache.tasks.idsInProjects(goneProjects).filter((id) => !ctx.keep('task')(id)));
      cache.projects.delete(goneProjects);
      recordAnswers(deps, 'projects', read.records, asSent);
    });
    ctx.changed(['projects']);
  } else if (held) {
    // What a read of each project would tell the outbox's check before a send (see `noteSeen`).
    const ids = held.flat();
    if (pending.noteSeenAll) pending.noteSeenAll('project', ids);
    else for (const id of ids) pending.noteSeen?.('project', id);
  }
  // A root is a project whose parent is not visible; subfolders=true covers its subtree.
  const tree = (listed ? withoutCopies(pending, 'project', listed) : cache.projects.links()).filter(
    (p) => !p.id.startsWith(LOCAL_ROW_PREFIX),
  );
  const treeIds = new Set(tree.map((p) => p.id));
  ctx.roots = tree.filter((p) => !p.parentProjectId || !treeIds.has(p.parentProjectId)).map((p) => p.id);
}

/** The on-demand reads of projects, what a view opens: `sync.onDemand.run(projectReads.project(id))`. */
export const projectReads = {
  /**
   * Settings, members, history and dependencies of a project. Only a 404 on the project itself
   * means it is gone; a 404 on a side part means this service does not offer it (GoodDay's
   * may not): that part is stored empty and marked not offered, the others as answered.
   */
  project:
    (projectId: string): OnDemandRead =>
    (deps, gate) => {
      const { cache, client, pending } = deps;
      const now = () => stamp(deps.clock());
      return fetchUnlessGone(
        cache,
        async () => {
          const mark = ackMark(pending);
          const side = <T>(part: ProjectPart, call: (s: AbortSignal) => Promise<T>): Promise<T | null> =>
            gate(call).then(
              (value) => {
                offered.set(part, true);
                return value;
              },
              (err: unknown) => {
                if (!isGone(err)) throw err;
                offered.set(part, false);
                return null;
              },
            );
          const offered = new Map<ProjectPart, boolean>();
          const [project, members, history, dependencies] = await Promise.all([
            gate((s) => client.call(projectEndpoints.project, { id: projectId }, s)),
            side('members', (s) => client.call(memberEndpoints.projectUsers, { id: projectId }, s)),
            side('history', (s) => client.call(historyEndpoints.projectHistory, { id: projectId }, s)),
            side('dependencies', (s) =>
              client.call(dependencyEndpoints.dependencies, { kind: 'project', id: projectId }, s),
            ),
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
            cache.projectParts.replaceMembers(projectId, members ?? []);
            cache.projectParts.replaceHistory(projectId, history ?? []);
            storeDependencies(
              deps,
              'project',
              projectId,
              dependencies ?? { predecessors: [], successors: [] },
              mark,
            );
            for (const [part, yes] of offered) markOffered(cache, projectId, part, yes, now());
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
};

export const project: EntityDescriptor<'project'> = {
  views: ['projects', 'members'],
  idsOf: 'projects',
  tables: [
    { name: 'projects', localId: 'id', refs: ['parent_project_id'] },
    { name: 'project_users', refs: ['project_id'] },
    { name: 'project_history', refs: ['project_id'] },
  ],
  // Organization lists go first, then projects: the tree decides which task lists to ask for.
  pull: [{ phase: 'projects', awaited: true, run: pullProjects }],
  fetch: projectReads.project,
  dependencies: dependencyReads.ofProject,
  takeTheirs: ({ submit, cache }, id, field, value) => {
    if (field === 'customFieldsData') {
      const values = customFieldValues(value, cache.projects.get(id)?.customFieldsData);
      if (values.length) submit('project.setCustomFields', { projectId: id, values });
      return true;
    }
    if (!(field in ProjectChanges.shape)) return false;
    submit('project.update', { projectId: id, changes: { [field]: value } });
    return true;
  },
  nameOf: (cache, id) => cache.projects.get(id)?.name ?? null,
  // Read one by one: a list item lacks the custom fields a single read has (live service).
  check: {
    one: async (client, id) => ({ values: await client.call(projectEndpoints.project, { id }), source: {} }),
  },
};

/**
 * Each root's documents, subfolders included; a 404 marks them not offered by this service. A
 * document whose list element cannot be read keeps its cached row (one without a readable id
 * keeps every document of the subtree).
 */
function pullDocuments(ctx: PullContext): Promise<void> {
  const { deps, gate } = ctx;
  const { cache, client, log } = deps;
  return Promise.all(
    ctx.roots.map((root) =>
      ctx.isolated(`/project/${encodeURIComponent(root)}/documents`, async () => {
        try {
          const fetchDocs = () =>
            gate((s) =>
              client.callUnread(
                documentEndpoints.projectDocuments,
                { id: root, query: { subfolders: true } },
                s,
              ),
            );
          const { items: docs, skipped } = (await fetchDocs()).read();
          const subtree = cache.projects.subtreeIds(root);
          const keepDocs = await checkedKeep(
            cache.projectParts.documentIdsIn(subtree),
            docs,
            keepingUnreadable(ctx.keep('document'), skipped),
            async () => idSet((await fetchDocs()).read().items),
            log,
            `documents of project ${root}`,
          );
          cache.transaction(() => {
            cache.projectParts.replaceDocuments(subtree, docs, keepDocs);
            for (const id of subtree) markOffered(cache, id, 'documents', true, stamp(deps.clock()));
          });
          ctx.changed(['documents']);
        } catch (err) {
          if (!(err instanceof RejectedError && err.status === 404)) throw err;
          // Deleted since listed (the next pull removes it), or documents not offered by this
          // service: the overview then says so.
          cache.transaction(() => {
            for (const id of cache.projects.subtreeIds(root))
              markOffered(cache, id, 'documents', false, stamp(deps.clock()));
          });
        }
      }),
    ),
  ).then(() => {});
}

export const document: EntityDescriptor<'document'> = {
  // No change of a document is queued here.
  views: [],
  tables: [{ name: 'documents', refs: ['project_id'] }],
  pull: [{ phase: 'tasks', run: pullDocuments }],
};
