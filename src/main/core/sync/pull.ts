import {
  formatLocalDate,
  type Project,
  type Task,
  type TaskDetail,
  type TimeReport,
} from '../../../shared/api/index';
import { AbortedError, RejectedError, ServiceError, UnauthorizedError, isOffline } from '../api/errors';
import { flattenTask } from '../cache/repos/tasks';
import { LOCAL_ROW_PREFIX } from '../local-ids';
import { createWriteBatcher, stamp, type Gate, type Progress, type SyncDeps } from './context';
import {
  ACKED_ITEM,
  ackedSince,
  ackMark,
  mergePending,
  mergePendingTags,
  listedMessages,
  type ListedItems,
  type PendingEntity,
} from './pending';
import { markOffered } from './not-offered';
import { storeProjectTemplates } from './project-templates';
import { checkedKeep, confirmRemoval, idSet } from './removal';

export interface EventWindow {
  monthsBack: number;
  monthsAhead: number;
}

export const DEFAULT_EVENT_WINDOW: EventWindow = { monthsBack: 3, monthsAhead: 12 };

function shiftMonths(date: Date, months: number): string {
  const d = new Date(date.getFullYear(), date.getMonth() + months, date.getDate());
  return stamp(d).slice(0, 10);
}

/** `items` without the service's copies of local creates whose answer has not folded here. */
export function withoutCopies<E extends keyof ListedItems>(
  pending: SyncDeps['pending'],
  entity: E,
  items: readonly ListedItems[E][],
): readonly ListedItems[E][] {
  const copies = pending.copiesOfUnfoldedCreates?.(entity, items);
  return copies?.size ? items.filter((item) => !copies.has(item.id)) : items;
}

/**
 * Stores tasks in the list shape, keeping fields with pending local changes (rule 7) and those
 * acknowledged after `mark`, when the fetch began (see `PendingFields.ackedSince`). The service's
 * copy of a local create whose answer has not folded is not stored: its local row stands for it
 * (`PendingFields.copiesOfUnfoldedCreates`).
 */
export function storeTasks(deps: SyncDeps, tasks: readonly Task[], mark?: number): void {
  const { cache, pending } = deps;
  const copies = pending.copiesOfUnfoldedCreates?.('task', tasks);
  if (copies?.size) cache.tasks.delete([...copies]);
  for (const t of tasks) {
    if (copies?.has(t.id)) continue;
    const merged = mergePending(pending, 'task', t, () => cache.tasks.get(t.id), mark);
    if (merged) cache.tasks.codec.upsert(flattenTask(merged));
  }
}

/** Stores a single-task response: the task, its subtasks, tags, CRM links (rule 7 for each). */
export function storeTaskDetail(deps: SyncDeps, detail: TaskDetail, at: string, mark?: number): void {
  const { cache, pending } = deps;
  const { subtasks, tags, ...task } = detail;
  const incoming = {
    ...task,
    crmAccountId: task.crmAccountId ?? null,
    crmContactIds: task.crmContactIds ?? cache.crm.contactIdsOfTask(detail.id),
  };
  const merged = mergePending(
    pending,
    'task',
    incoming,
    () => {
      const view = cache.tasks.get(detail.id);
      return view && { ...view, crmContactIds: cache.crm.contactIdsOfTask(detail.id) };
    },
    mark,
  );
  storeTasks(deps, subtasks, mark);
  if (!merged) return;
  const { crmAccountId, crmContactIds, ...flat } = merged;
  cache.tasks.codec.upsert(flattenTask(flat));
  cache.tasks.setDetail(detail.id, crmAccountId, at);
  if (tags) {
    const has = new Set(cache.org.tagsOfTask(detail.id).map((t) => t.id));
    cache.org.setTaskTags(
      detail.id,
      mergePendingTags(pending, detail.id, tags, (id) => has.has(id), mark),
    );
  }
  cache.crm.setTaskContacts(detail.id, crmContactIds);
}

/** Makes the cached tasks of a tag `taskIds`, except links with a pending or newer local change. */
export function storeTagTasks(
  deps: SyncDeps,
  tagId: string,
  taskIds: readonly string[],
  mark?: number,
): void {
  const { cache, pending } = deps;
  const cached = new Set(cache.org.taskIdsOfTag(tagId));
  const result = new Set(taskIds);
  for (const id of new Set([...cached, ...taskIds])) {
    const local =
      pending.pendingFieldsFor('taskTag', id).has(tagId) ||
      ackedSince(pending, 'taskTag', id, mark).has(tagId);
    if (!local) continue;
    if (cached.has(id)) result.add(id);
    else result.delete(id);
  }
  cache.org.setTagTasks(tagId, [...result]);
}

/**
 * Fetches a task's messages (and its detail when asked) and stores them in one transaction.
 * When a change of the task was acknowledged while the fetch ran, the answer may predate it: the
 * cached messages it lacks (a comment's draft) stay and the messages are fetched again next pull.
 */
export async function pullTaskParts(
  deps: SyncDeps,
  gate: Gate,
  taskId: string,
  withDetail: boolean,
  /** Where the cache write goes: at once (default) or into a batch. */
  write: (fn: () => void) => void = (fn) => deps.cache.transaction(fn),
): Promise<'ok' | 'gone'> {
  const mark = ackMark(deps.pending);
  // The activity the answer can be trusted to cover: the one known before asking. A newer fetch
  // may store a later moment while this one runs, and so may the detail fetched alongside (a
  // comment landed between the two answers); marking that one would hide its messages.
  const asked = deps.cache.tasks.get(taskId)?.recentActivityMoment;
  try {
    const [answer, detail] = await Promise.all([
      gate((s) => deps.client.taskMessages(taskId, s)),
      withDetail ? gate((s) => deps.client.task(taskId, s)) : Promise.resolve(null),
    ]);
    const at = stamp(deps.clock());
    write(() => {
      if (detail) storeTaskDetail(deps, detail, at, mark);
      // A message posted here whose answer has not folded shows as its draft alone.
      const messages = withoutCopies(deps.pending, 'message', listedMessages(taskId, answer));
      const stale = ackedSince(deps.pending, 'task', taskId, mark).size > 0;
      // A stale answer may lack what was acknowledged meanwhile, so cached messages stay; but a
      // settled draft whose message the answer does hold gives way, or it would show twice.
      const answered = new Set(messages.map((m) => `${m.fromUserId}\n${m.message}`));
      const drafts = new Map(
        deps.cache.messages
          .listForTask(taskId)
          .filter((m) => m.id.startsWith(LOCAL_ROW_PREFIX))
          .map((m) => [m.id, `${m.fromUserId}\n${m.message}`]),
      );
      deps.cache.messages.replaceForTask(
        taskId,
        messages,
        (id) =>
          deps.pending.isPendingStructural('message', id) || (stale && !answered.has(drafts.get(id) ?? '')),
      );
      // A task first seen in this answer's detail has no earlier moment: the detail's is the one.
      const activity = asked ?? deps.cache.tasks.get(taskId)?.recentActivityMoment;
      if (stale) deps.cache.tasks.markMessagesStale(taskId);
      else if (activity) deps.cache.tasks.markMessagesFetched(taskId, activity, at);
    });
    return 'ok';
  } catch (err) {
    if (err instanceof RejectedError && err.status === 404) {
      write(() => {
        if (
          !deps.pending.isPendingStructural('task', taskId) &&
          !ackedSince(deps.pending, 'task', taskId, mark).has(ACKED_ITEM)
        )
          deps.cache.tasks.delete([taskId]);
      });
      return 'gone';
    }
    throw err;
  }
}

/** Failures that end the whole run: the service is out of reach, the token refused, or cancelled. */
function endsTheRun(err: unknown): boolean {
  return err instanceof UnauthorizedError || err instanceof AbortedError || isOffline(err);
}

/** Weeks of the acting user's time reports a pull keeps in the cache. */
export const TIME_REPORT_WEEKS = 8;

/** The report dates a pull reads: the last `TIME_REPORT_WEEKS` weeks, up to today. */
export function timeReportWindow(
  now: Date,
  weeks = TIME_REPORT_WEEKS,
): { startDate: string; endDate: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - weeks * 7);
  return { startDate: formatLocalDate(start), endDate: formatLocalDate(now) };
}

/**
 * Makes the cached reports of the acting user in the range the service's `list`: reports made
 * here and not yet acknowledged stay (their local row stands for the service's copy).
 */
export function storeUserTimeReports(
  deps: SyncDeps,
  range: { startDate: string; endDate: string },
  list: readonly TimeReport[],
): void {
  const keep = (id: string) => deps.pending.isPendingStructural('timeReport', id);
  deps.cache.transaction(() =>
    deps.cache.timeReports.replaceUserRange(
      deps.userId,
      { from: range.startDate, to: range.endDate },
      withoutCopies(deps.pending, 'timeReport', list),
      keep,
    ),
  );
  deps.emitChange({ entities: ['timeReports'] });
}

/** As `storeUserTimeReports`, for one task's reports (fetched when the task is opened). */
export function storeTaskTimeReports(deps: SyncDeps, taskId: string, list: readonly TimeReport[]): void {
  const keep = (id: string) => deps.pending.isPendingStructural('timeReport', id);
  deps.cache.transaction(() =>
    deps.cache.timeReports.replaceTask(taskId, withoutCopies(deps.pending, 'timeReport', list), keep),
  );
  deps.emitChange({ entities: ['timeReports'], ids: { tasks: [taskId] } });
}

/**
 * One full pull: organization lists, projects (open and archived), then every root project's
 * tasks (closed too, subfolders included) and documents, events in the window and CRM, all in
 * parallel through the gate; then messages (and details, where fetched before) of tasks whose
 * recentActivityMoment moved. Vanished items are removed (rule 9 checked), pending local
 * changes kept (rule 7). Each part (an organization list, the project list, one project's
 * tasks, the events, ...) stands alone: one that fails is recorded as a read problem and the
 * others go on; only being offline, a refused token or cancelling ends the run.
 */
export async function pull(
  deps: SyncDeps,
  gate: Gate,
  progress: Progress,
  run: AbortController,
  window: EventWindow = DEFAULT_EVENT_WINDOW,
  /** Task-detail fetches kept going at once (a few more than the gate's concurrency). */
  poolSize = 16,
): Promise<void> {
  const { cache, client, pending, log, problems } = deps;
  // What the outbox acknowledges from here on may be missing from the answers (rule 7).
  const mark = ackMark(pending);
  // A cache no pull completed in (new, or made again after its file was lost) holds none of the
  // outbox's optimistic changes: they are put back once this pull has stored what it read.
  const rebuilt = !cache.syncState.get('pull');
  // Work started now and awaited later: a failure that ends the run cancels the rest of it, and
  // no rejection is left unhandled meanwhile.
  const background = <T>(p: Promise<T>): Promise<T> => {
    p.catch((err: unknown) => run.abort(err));
    return p;
  };
  /**
   * A part of the pull whose failure costs that part alone: recorded under its path (or its
   * name), and undefined is answered. What ends the run is thrown on.
   */
  const failedParts: string[] = [];
  const isolated = async <T>(part: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await work();
      problems?.clear(part);
      return result;
    } catch (err) {
      if (run.signal.aborted || endsTheRun(err)) throw err;
      problems?.failed(err instanceof ServiceError ? err.path : part, err);
      failedParts.push(err instanceof Error ? err.message : `${part}: ${String(err)}`);
      return undefined;
    }
  };
  /** Not removed though the service's list lacks it: created or deleted locally, or since the mark. */
  const keep = (entity: PendingEntity) => (id: string) =>
    pending.isPendingStructural(entity, id) || ackedSince(pending, entity, id, mark).has(ACKED_ITEM);
  const changed = (entities: Parameters<SyncDeps['emitChange']>[0]['entities']) =>
    deps.emitChange({ entities });

  // Organization lists and projects go first: the tree decides which task lists to ask for.
  // Each list is fetched and stored on its own: a status list that cannot be read leaves the
  // users, task types and the rest to be stored.
  progress.phase('org');
  const orgList = <T>(
    path: string,
    fetch: (signal: AbortSignal) => Promise<T>,
    store: (value: T) => void,
    entities: Parameters<typeof changed>[0],
  ): Promise<T | undefined> =>
    background(
      isolated(path, async () => {
        const value = await gate(fetch);
        cache.transaction(() => store(value));
        changed(entities);
        return value;
      }),
    );
  const orgLists = [
    orgList(
      '/custom-fields',
      (s) => client.customFields(s),
      (v) => cache.org.customFields.replace(v),
      ['customFields'],
    ),
    orgList(
      '/users',
      (s) => client.users(s),
      (v) => v && cache.org.users.replace(v),
      ['users'],
    ),
    orgList(
      '/statuses',
      (s) => client.statuses(s),
      (v) => v && cache.org.statuses.replace(v),
      ['statuses'],
    ),
    orgList(
      '/task-types',
      (s) => client.taskTypes(s),
      (v) => v && cache.org.taskTypes.replace(v),
      ['taskTypes'],
    ),
    orgList(
      '/project-templates',
      (s) => client.projectTemplates(s),
      (v) => storeProjectTemplates(deps, v),
      ['projects'],
    ),
  ];
  // Without a tag list (GoodDay offers none) the tags are those seen on tasks: kept as stored.
  const tagsRead = orgList(
    '/tags',
    (s) => client.tags(s),
    (v) => v && cache.org.tags.replace(v),
    ['tags'],
  );

  progress.phase('projects');
  const fetchProjects = async (): Promise<Project[]> => {
    const [open, archived] = await Promise.all([
      gate((s) => client.projects({ archived: false }, s)),
      gate((s) => client.projects({ archived: true }, s)),
    ]);
    return [...new Map([...open, ...archived].map((p) => [p.id, p])).values()];
  };
  // The service's copy of a project created here whose answer has not folded is left out, with
  // its task list and documents, and one stored earlier goes: the local row stands for it.
  const listed = await isolated('/projects', fetchProjects);
  if (listed) {
    const projects = withFolders(withoutCopies(pending, 'project', listed));
    const cachedProjects = cache.projects.ids();
    const projectIds = new Set(projects.map((p) => p.id));
    const goneProjects = await confirmRemoval(
      cachedProjects.length,
      cachedProjects.filter((id) => !projectIds.has(id) && !keep('project')(id)),
      async () => new Set((await fetchProjects()).map((p) => p.id)),
      log,
      'project list',
    );
    cache.transaction(() => {
      for (const p of projects) {
        const merged = mergePending(pending, 'project', p, () => cache.projects.get(p.id), mark);
        if (merged) cache.projects.upsertMany([merged]);
      }
      cache.tasks.delete(cache.tasks.idsInProjects(goneProjects).filter((id) => !keep('task')(id)));
      cache.projects.delete(goneProjects);
    });
    changed(['projects']);
  }
  // A root is a project whose parent is not visible; subfolders=true covers its subtree. When
  // the project list could not be read, the cached tree stands for it.
  const tree = (listed ? withoutCopies(pending, 'project', listed) : cache.projects.all()).filter(
    (p) => !p.id.startsWith(LOCAL_ROW_PREFIX),
  );
  const treeIds = new Set(tree.map((p) => p.id));
  const roots = tree.filter((p) => !p.parentProjectId || !treeIds.has(p.parentProjectId)).map((p) => p.id);

  progress.phase('tasks');
  const seen = new Set<string>();
  const fetchedRoots: string[] = [];
  const taskLists = roots.map((root) =>
    background(
      isolated(`/project/${encodeURIComponent(root)}/tasks`, async () => {
        try {
          const tasks = await gate((s) => client.projectTasks(root, { closed: true, subfolders: true }, s));
          cache.transaction(() => storeTasks(deps, tasks, mark));
          for (const t of tasks) seen.add(t.id);
          fetchedRoots.push(root);
          changed(['tasks']);
        } catch (err) {
          // A root deleted since the project list answered: its tasks go with the next pull.
          if (!(err instanceof RejectedError && err.status === 404)) throw err;
        }
      }),
    ),
  );
  const documents = roots.map((root) =>
    background(
      isolated(`/project/${encodeURIComponent(root)}/documents`, async () => {
        try {
          const fetchDocs = () => gate((s) => client.projectDocuments(root, { subfolders: true }, s));
          const docs = await fetchDocs();
          const subtree = cache.projects.subtreeIds(root);
          const keepDocs = await checkedKeep(
            cache.projectParts.documentIdsIn(subtree),
            docs,
            keep('document'),
            async () => idSet(await fetchDocs()),
            log,
            `documents of project ${root}`,
          );
          cache.transaction(() => {
            cache.projectParts.replaceDocuments(subtree, docs, keepDocs);
            for (const id of subtree) markOffered(cache, id, 'documents', true, stamp(deps.clock()));
          });
          changed(['documents']);
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
  );
  const now = deps.clock();
  const from = shiftMonths(now, -window.monthsBack);
  const to = shiftMonths(now, window.monthsAhead);
  const fetchEvents = () => gate((s) => client.events({ startDate: from, endDate: to }, s));
  const events = background(
    isolated('/events', async () => {
      const list = await fetchEvents();
      const keepEvents = await checkedKeep(
        cache.events.idsInWindow(from, to),
        list,
        keep('event'),
        async () => idSet(await fetchEvents()),
        log,
        'event window',
      );
      // The service's copy of an event created here whose answer has not folded is left out, and
      // one stored earlier goes (not kept: it was listed): the local row stands for it.
      cache.transaction(() =>
        cache.events.replaceWindow(from, to, withoutCopies(pending, 'event', list), keepEvents),
      );
      changed(['events']);
    }),
  );
  // The acting user's time reports of the last weeks (My Time); older weeks are read on demand.
  const reportRange = timeReportWindow(now);
  const timeReports = background(
    isolated(`/user/${encodeURIComponent(deps.userId)}/time-reports`, async () => {
      const list = await gate((s) => client.userTimeReports(deps.userId, reportRange, s));
      storeUserTimeReports(deps, reportRange, list);
    }),
  );
  // Contacts and accounts are read and stored each on its own.
  const contacts = background(
    isolated('/crm/contacts', async () => {
      const list = await gate((s) => client.crmContacts(s));
      const keepContacts = await checkedKeep(
        cache.crm.contactIds(),
        list,
        keep('crmContact'),
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
      changed(['crmContacts']);
    }),
  );
  const accounts = background(
    isolated('/crm/accounts', async () => {
      const list = await gate((s) => client.crmAccounts(s));
      const keepAccounts = await checkedKeep(
        cache.crm.accountIds(),
        list,
        keep('crmAccount'),
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
      changed(['crmAccounts']);
    }),
  );
  const tagLists = background(
    tagsRead.then((tags) =>
      Promise.all(
        (tags ?? []).map((tag) =>
          isolated(`/tag/${encodeURIComponent(tag.id)}/tasks`, async () => {
            const tasks = await gate((s) => client.tagTasks(tag.id, { closed: true }, s));
            cache.transaction(() => {
              storeTagTasks(
                deps,
                tag.id,
                tasks.map((t) => t.id),
                mark,
              );
              cache.syncState.set(`tag:${tag.id}`, stamp(deps.clock()));
            });
          }),
        ),
      ),
    ),
  );

  await Promise.all(taskLists);
  // Removal per fetched root: cached tasks of its subtree that no fetched list returned.
  for (const root of fetchedRoots) {
    await isolated(`/project/${encodeURIComponent(root)}/tasks`, async () => {
      const subtree = cache.projects.subtreeIds(root);
      const cached = cache.tasks.idsInProjects(subtree);
      const candidates = cached.filter((id) => !seen.has(id) && !keep('task')(id));
      const gone = await confirmRemoval(
        cached.length,
        candidates,
        async () =>
          new Set(
            (await gate((s) => client.projectTasks(root, { closed: true, subfolders: true }, s))).map(
              (t) => t.id,
            ),
          ),
        log,
        `project ${root}`,
      );
      if (gone.length) {
        cache.transaction(() => cache.tasks.delete(gone));
        changed(['tasks']);
      }
    });
  }

  // Messages (and details once fetched) of tasks whose activity moved since they were fetched.
  progress.phase('details');
  const stale = [...cache.tasks.fetchState()].filter(
    ([id, s]) =>
      s.messagesActivityMoment !== s.recentActivityMoment && !pending.isPendingStructural('task', id),
  );
  // Views refresh once per batch of stored messages while they stream in.
  const batch = createWriteBatcher(cache, () => deps.emitChange({ entities: ['messages', 'tasks'] }));
  // The whole count is known now, so the progress bar does not jump; the fetches themselves are
  // started by a small pool pulling from one queue, so a 20,000-task pull holds a few dozen
  // pending requests in memory, not 20,000.
  const counted: Gate = (call) => gate(call, true);
  progress.add(stale.reduce((n, [, s]) => n + (s.detailFetchedAt !== null ? 2 : 1), 0));
  const queue = stale[Symbol.iterator]();
  const workers = Array.from({ length: Math.min(stale.length, poolSize) }, () =>
    background(
      (async () => {
        for (const [id, s] of queue) {
          if (run.signal.aborted) throw new AbortedError('SYNC', '', 'cancelled');
          // One task's messages that cannot be read cost that task's, not the others'.
          await isolated(`/task/${encodeURIComponent(id)}/messages`, () =>
            pullTaskParts(deps, counted, id, s.detailFetchedAt !== null, batch.write),
          );
        }
      })(),
    ),
  );
  try {
    await Promise.all([
      ...orgLists,
      tagsRead,
      tagLists,
      ...documents,
      events,
      timeReports,
      contacts,
      accounts,
      ...workers,
    ]);
  } finally {
    batch.flush();
  }
  // Also after a run that failed in part: what it stored must not hide the local changes.
  if (rebuilt) pending.restoreLocalChanges?.();
  // A cancelled run never counts as a completed pull.
  if (run.signal.aborted) throw new AbortedError('SYNC', '', 'cancelled');
  // Nor does one with a part that failed as a whole: everything else is stored, and the run
  // ends with the failure as its error, so the next run (and whoever waits for a clean one)
  // tries again. Items skipped from lists read are not such a failure: they are read problems.
  if (failedParts.length) {
    throw new Error(
      failedParts.length === 1
        ? (failedParts[0] ?? '')
        : `${failedParts.length} parts could not be read; the first: ${failedParts[0] ?? ''}`,
    );
  }
  cache.syncState.set('pull', stamp(deps.clock()));
}

/**
 * The list with every item's `isFolder` settled. An answer that says neither `isFolder` nor
 * `systemType` (neither flag in it) is told from the tree: an item with projects under it and no
 * status of its own is a folder (GoodDay's folders carry no status), any other a project.
 */
export function withFolders(projects: readonly Project[]): Project[] {
  const parents = new Set(projects.map((p) => p.parentProjectId).filter((id): id is string => !!id));
  return projects.map((p) =>
    p.isFolder !== undefined ? p : { ...p, isFolder: parents.has(p.id) && !p.status && !p.statusId },
  );
}
