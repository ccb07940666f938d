import type { DependenciesResponse } from '../../../shared/api/index';
import { dependencyRowsOf, type DependencyEnd, type DependencyKind } from '../cache/repos/dependencies';
import { storeProjectTemplates } from './project-templates';
import { markOffered } from './not-offered';
import type { ProjectPart } from '../../../shared/ipc/projects';
import { RejectedError } from '../api/errors';
import type { Gate, SyncDeps } from './context';
import { stamp } from './context';
import { ACKED_ITEM, ackedSince, ackMark, mergePending, type PendingEntity } from './pending';
import { pullTaskParts, storeTagTasks, storeTasks } from './pull';

const isGone = (err: unknown): boolean => err instanceof RejectedError && err.status === 404;

/**
 * Runs a fetch of one item: 'ok' when it ran, 'gone' when the service answered 404 (then
 * `onGone` removes what the cache holds of it, in one transaction); other errors are thrown.
 */
export async function fetchUnlessGone(
  cache: Pick<SyncDeps['cache'], 'transaction'>,
  run: () => Promise<void>,
  onGone: () => void,
): Promise<'ok' | 'gone'> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    if (!isGone(err)) throw err;
    cache.transaction(onGone);
    return 'gone';
  }
}

/**
 * Fetches of what a view opens (a task, a project, a document, a tag's tasks; CRM records and
 * time reports have theirs in their descriptor files, run through `run`),
 * stored in the cache. Each resolves 'ok' or 'gone' (the service no longer has it: removed from
 * the cache unless a local create or delete is pending) and throws the client's errors
 * otherwise (the handler then answers from the cache).
 */
export function createOnDemand(deps: SyncDeps, gate: Gate) {
  const { cache, client, pending } = deps;
  const now = () => stamp(deps.clock());
  /** Rule 7 for a record fetched after `mark` was taken (see `mergePending`). */
  const keepLocal = <T extends Record<string, unknown>>(
    entity: PendingEntity,
    incoming: T,
    cached: () => Record<string, unknown> | null,
    mark: number,
  ): T | null => mergePending(pending, entity, incoming, cached, mark);

  const guard = (run: () => Promise<void>, onGone: () => void) => fetchUnlessGone(cache, run, onGone);

  /**
   * An item's dependencies as the service answered, pending local creates and deletes kept, and
   * those acknowledged after `mark` (the answer may predate them).
   */
  function storeDependencies(
    kind: DependencyKind,
    id: string,
    response: DependenciesResponse,
    mark?: number,
  ): void {
    // An item deleted here (its delete waiting, or acknowledged after the fetch began) took its
    // dependencies along, whatever its kind: the answer may still list them, but they must not
    // come back. The fetched item is an end of every dependency of its answer, so when it was
    // deleted here the answer stores nothing.
    const deletedHere = (end: DependencyEnd) =>
      !cache.dependencies.holdsEnd(end) &&
      (pending.isPendingStructural(end.kind, end.id) ||
        ackedSince(pending, end.kind, end.id, mark).has(ACKED_ITEM));
    // A dependency made here whose answer has not folded shows as its local row alone.
    const copies = pending.copiesOfUnfoldedCreates?.('dependency', dependencyRowsOf(kind, id, response));
    cache.dependencies.replaceFor(kind, id, response, {
      keep: (depId) =>
        pending.isPendingStructural('dependency', depId) ||
        ackedSince(pending, 'dependency', depId, mark).has(ACKED_ITEM),
      dropEnd: deletedHere,
      leaveOut: (depId) => copies?.has(depId) ?? false,
    });
    cache.syncState.set(`dependencies:${kind}:${id}`, now());
  }

  /** When the item is gone, its dependencies go; the item itself is left to its own fetch or the pull. */
  function dependenciesOf(kind: 'event' | 'project', id: string): Promise<'ok' | 'gone'> {
    return guard(
      async () => {
        const mark = ackMark(pending);
        const response = await gate((s) => client.dependencies(kind, id, s));
        cache.transaction(() => storeDependencies(kind, id, response, mark));
        deps.emitChange({ entities: ['dependencies'] });
      },
      () => {
        storeDependencies(kind, id, { predecessors: [], successors: [] });
        // A project still listed whose dependencies answer 404: not offered by this service.
        if (kind === 'project' && cache.projects.get(id))
          markOffered(cache, id, 'dependencies', false, now());
      },
    );
  }

  return {
    /** An event's dependencies (a task's come with `task`, a project's also with `project`). */
    eventDependencies: (eventId: string) => dependenciesOf('event', eventId),
    projectDependencies: (projectId: string) => dependenciesOf('project', projectId),

    /** The project templates, when a view needs them before a pull brought them. */
    async projectTemplates(): Promise<'ok'> {
      const templates = await gate((s) => client.projectTemplates(s));
      cache.transaction(() => storeProjectTemplates(deps, templates));
      deps.emitChange({ entities: ['projects'] });
      return 'ok';
    },

    /**
     * Runs a resource's own on-demand read (kept in its descriptor file, e.g. `timeReportReads`)
     * with the sync's deps and gate, as the reads here run.
     */
    run: <T>(read: (deps: SyncDeps, gate: Gate) => Promise<T>): Promise<T> => read(deps, gate),

    /**
     * The single-task response, messages and dependencies of a task. When only the dependencies
     * cannot be read, the detail and messages that arrived are kept but the task is not marked
     * as read (its detail's fetch moment is cleared), so the next open asks for all three again:
     * nothing else reads a task's dependencies. The read's error is thrown after that.
     */
    async task(taskId: string): Promise<'ok' | 'gone'> {
      const mark = ackMark(pending);
      const unread: unknown[] = [];
      const [parts, deps_] = await Promise.all([
        pullTaskParts(deps, gate, taskId, true),
        gate((s) => client.dependencies('task', taskId, s)).catch((err: unknown) => {
          if (!isGone(err)) unread.push(err);
          return null;
        }),
      ]);
      if (parts === 'ok') {
        cache.transaction(() => {
          if (deps_) storeDependencies('task', taskId, deps_, mark);
          if (unread.length) cache.tasks.forgetDetailFetched(taskId);
        });
        deps.emitChange({ entities: ['tasks', 'messages', 'dependencies'], ids: { tasks: [taskId] } });
      } else deps.emitChange({ entities: ['tasks'], ids: { tasks: [taskId] } });
      if (unread.length) throw unread[0];
      return parts;
    },

    /**
     * Settings, members, history and dependencies of a project. Only a 404 on the project itself
     * means it is gone; a 404 on a side part means this service does not offer it (GoodDay's
     * may not): that part is stored empty and marked not offered, the others as answered.
     */
    project(projectId: string): Promise<'ok' | 'gone'> {
      return guard(
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
            gate((s) => client.project(projectId, s)),
            side('members', (s) => client.projectUsers(projectId, s)),
            side('history', (s) => client.projectHistory(projectId, s)),
            side('dependencies', (s) => client.dependencies('project', projectId, s)),
          ]);
          cache.transaction(() => {
            const { settings, ...listShape } = project;
            const merged = keepLocal('project', listShape, () => cache.projects.get(projectId), mark);
            if (merged) cache.projects.upsertMany([merged]);
            cache.projects.setSettings(projectId, settings, now());
            cache.projectParts.replaceMembers(projectId, members ?? []);
            cache.projectParts.replaceHistory(projectId, history ?? []);
            storeDependencies(
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
  };
}

export type OnDemand = ReturnType<typeof createOnDemand>;
