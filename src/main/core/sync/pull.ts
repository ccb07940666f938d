import type { Task, TaskDetail } from '../../../shared/api/tasks';
import type { Project } from '../../../shared/api/projects';
import type { CacheEntity } from '../../../shared/entities';
import { AbortedError, RejectedError, ServiceError, UnauthorizedError, isOffline } from '../api/errors';
import { turnSpent, workSlice, yieldToLoop } from '../loop-turns';
import { STORE_CHUNK } from './store-slices';
import { flattenTask } from '../cache/repos/tasks';
import { stamp, type Gate, type Progress, type SyncDeps } from './context';
import {
  ACKED_ITEM,
  ackedSince,
  ackMark,
  mergePending,
  mergePendingTags,
  listedMessages,
  type ListedItems,
  type PendingEntity,
  withStructuralOf,
} from './pending';
import { taskEndpoints } from '../../../shared/api/tasks';
import { messageEndpoints } from '../../../shared/api/messages';

export interface EventWindow {
  monthsBack: number;
  monthsAhead: number;
}

export const DEFAULT_EVENT_WINDOW: EventWindow = { monthsBack: 3, monthsAhead: 12 };

/** The day `months` months from `date` (the event window's ends). */
export function shiftMonths(date: Date, months: number): string {
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
 * (`PendingFields.copiesOfUnfoldedCreates`). Returns the indexes in `tasks` of those stored
 * exactly as the service sent them (no local value kept).
 */
export function storeTasks(deps: SyncDeps, tasks: readonly Task[], mark?: number): number[] {
  const { cache } = deps;
  if (!tasks.length) return [];
  // The outbox asked once which of these a local create or delete holds, not twice per task.
  const pending = withStructuralOf(
    deps.pending,
    'task',
    tasks.map((t) => t.id),
  );
  const copies = pending.copiesOfUnfoldedCreates?.('task', tasks);
  if (copies?.size) cache.tasks.delete([...copies]);
  const verbatim: number[] = [];
  for (const [index, t] of tasks.entries()) {
    if (copies?.has(t.id)) continue;
    const merged = mergePending(pending, 'task', t, () => cache.tasks.get(t.id), mark);
    if (merged) cache.tasks.codec.upsert(flattenTask(merged));
    if (merged === t) verbatim.push(index);
  }
  return verbatim;
}

/**
 * A project's task list (closed tasks and subfolders' too) read and stored as a steady pull
 * needs it: with no local change waiting in the outbox, the elements stored exactly as they are
 * now are neither parsed nor written again (`TaskFingerprints`); the others are stored as the
 * answer is read, a slice at a time (`taskEndpoints.projectTaskList`'s `each`), each slice one
 * transaction or a few, with the event loop given back between them, so no other call waits
 * long behind a large list and its items are never all in memory. `onStored` is told the ids of
 * each slice once stored. Resolves with the ids of every task the list holds, how many rows were
 * written, and, when every task of the list is held exactly as its element (none skipped, each
 * one stored as sent or already so; each such row's project is the one the list gave), how many
 * distinct tasks it holds (`asStored`), which lets the removal check count rather than read the
 * ids back. A list that fails
 * part-way (cut off, malformed) keeps the slices stored before the fault, and throws it.
 */
export async function pullProjectTaskList(
  deps: SyncDeps,
  gate: Gate,
  projectId: string,
  mark?: number,
  onStored?: (ids: readonly string[]) => void,
): Promise<{
  ids: string[];
  stored: number;
  asStored: number | undefined;
  /** Ids of the elements that could not be read: the service holds them, no removal takes them. */
  unreadable: string[];
  /** Whether an element that could not be read had no readable id (it may be any task). */
  unnamedUnreadable: boolean;
}> {
  const { cache, pending } = deps;
  const fingerprints = cache.taskFingerprints;
  // Local changes waiting are merged into every element (rule 7): then none is skipped.
  const skip = pending.openCount?.() === 0;
  const known = skip ? fingerprints.forList(projectId) : undefined;
  const storedIds: string[] = [];
  let storedAsSent = 0;
  /** Items stored exactly as sent. */
  let verbatimCount = 0;
  const store = async ({
    items,
    fingerprints: itemFingerprints,
  }: {
    items: Task[];
    fingerprints: string[];
  }) => {
    let at = 0;
    // Handed over once this turn's budget is spent (six lists answered in one turn): its turn first.
    if (items.length && turnSpent()) await yieldToLoop();
    while (at < items.length) {
      const slice = workSlice();
      const first = at;
      const verbatim: (readonly [string, string])[] = [];
      cache.transaction(() => {
        // A few tasks between looks at the clock (`STORE_CHUNK`: the least a slice stores).
        while (at < items.length && (at === first || !slice.due())) {
          const from = at;
          const part = items.slice(from, Math.min(items.length, from + STORE_CHUNK));
          for (const i of storeTasks(deps, part, mark)) {
            verbatimCount++;
            verbatim.push([part[i]!.id, itemFingerprints[from + i]!]);
          }
          at = from + part.length;
        }
      });
      fingerprints.stored(verbatim);
      storedAsSent += verbatim.length;
      // Told as each slice is stored, before the loop is given back: a per-user list's chunk
      // stored between two slices must not store its older copy over these.
      const ids = items.slice(first, at).map((t) => t.id);
      for (const id of ids) storedIds.push(id);
      onStored?.(ids);
      if (at < items.length) await yieldToLoop();
    }
  };
  const answer = await gate((s) =>
    deps.client.call(
      taskEndpoints.projectTaskList,
      { id: projectId, query: { closed: true, subfolders: true } },
      { known, signal: s, each: store },
    ),
  );
  // Reading the answer ended in a look-up of the cache (thousands of ids for a list known whole):
  // the loop is given back before the ids are noted.
  await yieldToLoop();
  // What a read of the task would tell the outbox's check before a send (see `noteSeen`).
  if (pending.noteSeenAll) pending.noteSeenAll('task', answer.unchanged);
  else for (const id of answer.unchanged) pending.noteSeen?.('task', id);
  // Those not read again (rows written meanwhile) are still the list's: no removal takes them.
  const ids = [...answer.unchanged, ...answer.unread, ...storedIds];
  /** How many distinct tasks the answer holds, when the store of the list whole proved it. */
  let distinct: number | undefined;
  // Every element is held as sent: the next answer that is the same text is known whole.
  if (answer.whole && !answer.skipped.length && storedAsSent + answer.unchanged.length === answer.total)
    distinct = await fingerprints.storedWhole(
      projectId,
      answer.whole,
      // The spans vouched for are handed over as spans: their tasks are not gone through again.
      answer.vouched ? [...answer.unvouched, ...answer.unread, ...storedIds] : ids,
      answer.ranges ?? undefined,
      answer.vouched ?? undefined,
    );
  const asStored = !answer.skipped.length && verbatimCount + answer.unchanged.length === answer.total;
  // Distinct tasks: an answer listing one twice must not stand for a task gone from it. Counted
  // here (a set of every id) only when the store of the list whole did not tell.
  return {
    ids,
    stored: storedIds.length,
    asStored: asStored ? (distinct ?? new Set(ids).size) : undefined,
    unreadable: answer.skipped.flatMap((s) => (s.id === null ? [] : [s.id])),
    unnamedUnreadable: answer.skipped.some((s) => s.id === null),
  };
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
  // Read alone (not the whole task): this runs once per message read, 20,000 times in a first sync.
  const asked = deps.cache.tasks.fetchStateOf(taskId)?.recentActivityMoment;
  try {
    const [answer, detail] = await Promise.all([
      gate((s) => deps.client.call(messageEndpoints.taskMessages, { id: taskId }, s)),
      withDetail
        ? gate((s) => deps.client.call(taskEndpoints.task, { id: taskId }, s))
        : Promise.resolve(null),
    ]);
    const at = stamp(deps.clock());
    write(() => {
      if (detail) storeTaskDetail(deps, detail, at, mark);
      // A message posted here whose answer has not folded shows as its draft alone.
      const messages = withoutCopies(deps.pending, 'message', listedMessages(taskId, answer));
      const stale = ackedSince(deps.pending, 'task', taskId, mark).size > 0;
      // A stale answer may lack what was acknowledged meanwhile, so cached messages stay; but a
      // settled draft whose message the answer does hold gives way, or it would show twice.
      // Only a stale answer asks, and only about drafts: the answer's texts are not copied else.
      const drafts = stale ? deps.cache.messages.draftsOfTask(taskId) : [];
      const answered = drafts.length
        ? new Set(messages.map((m) => `${m.fromUserId}\n${m.message}`))
        : new Set<string>();
      const draftKeys = new Map(drafts.map((m) => [m.id, `${m.fromUserId}\n${m.message}`]));
      deps.cache.messages.replaceListed(
        taskId,
        messages,
        (id) =>
          deps.pending.isPendingStructural('message', id) ||
          (stale && !answered.has(draftKeys.get(id) ?? '')),
      );
      // A task first seen in this answer's detail has no earlier moment: the detail's is the one.
      const activity = asked ?? deps.cache.tasks.fetchStateOf(taskId)?.recentActivityMoment;
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
export function endsTheRun(err: unknown): boolean {
  return err instanceof UnauthorizedError || err instanceof AbortedError || isOffline(err);
}

/** The steps of a pull, in order; each part of it runs in one (see `PullPart`). */
export const PULL_PHASES = ['org', 'projects', 'tasks', 'details'] as const;
export type PullPhase = (typeof PULL_PHASES)[number];

/** What a part of a pull is given: the run's facilities and what earlier phases learnt. */
export interface PullContext {
  deps: SyncDeps;
  gate: Gate;
  run: AbortController;
  progress: Progress;
  window: EventWindow;
  /** Task-detail fetches kept going at once (a few more than the gate's concurrency). */
  poolSize: number;
  /** The outbox's acknowledgements before the first request (rule 7, see `PendingFields.ackedSince`). */
  mark: number;
  /**
   * Runs a piece of the part whose failure costs that piece alone: recorded as a read problem
   * under its path (or `part`), and undefined is answered. What ends the run is thrown on.
   */
  isolated<T>(part: string, work: () => Promise<T>): Promise<T | undefined>;
  /** Not removed though the service's list lacks it: created or deleted locally, or since the mark. */
  keep(entity: PendingEntity): (id: string) => boolean;
  /** Views showing these entities read again. */
  changed(entities: CacheEntity[]): void;
  /**
   * The projects whose subtrees' task lists and documents are read (a root is a project whose
   * parent is not visible): set by the project list's part, which the later phases wait for.
   */
  roots: readonly string[];
  /**
   * The project list was read in this run (set by its part): false when it failed and the cached
   * tree, empty on a new account, stands for it.
   */
  treeRead: boolean;
  /**
   * No pull completed in this cache yet (a new account, or a cache made again): what makes
   * My Work usable is read first, and the progress says what is usable already.
   */
  first: boolean;
}

/**
 * One part of a pull (a resource's list, or its parts), from a resource's descriptor
 * (`src/main/core/entities/`). It stands alone: a piece that fails is recorded through
 * `isolated` and the other parts go on.
 */
export interface PullPart {
  phase: PullPhase;
  /** The next phase starts once this part is done (the project tree decides which task lists to read). */
  awaited?: boolean;
  run(ctx: PullContext): Promise<void>;
}

/**
 * One full pull: the parts of every resource, phase by phase (organization lists, projects
 * open and archived, then every root project's tasks and documents, events in the window, time
 * reports and CRM, all in parallel through the gate; then messages and details of tasks whose
 * activity moved). Vanished items are removed (rule 9 checked), pending local changes kept
 * (rule 7). Each part stands alone: one that fails is recorded as a read problem and the others
 * go on; only being offline, a refused token or cancelling ends the run.
 */
export async function pull(
  deps: SyncDeps,
  gate: Gate,
  progress: Progress,
  run: AbortController,
  parts: readonly PullPart[],
  window: EventWindow = DEFAULT_EVENT_WINDOW,
  poolSize = 16,
): Promise<void> {
  const { cache, pending, problems } = deps;
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
  const failedParts: string[] = [];
  const ctx: PullContext = {
    deps,
    gate,
    run,
    progress,
    window,
    poolSize,
    mark,
    isolated: async (part, work) => {
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
    },
    keep: (entity) => (id) =>
      pending.isPendingStructural(entity, id) || ackedSince(pending, entity, id, mark).has(ACKED_ITEM),
    changed: (entities) => deps.emitChange({ entities }),
    roots: [],
    treeRead: false,
    first: rebuilt,
  };
  if (rebuilt) progress.initial?.({});
  const started: Promise<void>[] = [];
  for (const phase of PULL_PHASES) {
    progress.phase(phase);
    const awaited: Promise<void>[] = [];
    // On a first pull the organization lists are asked for after the tree's and My Work's lists
    // (the projects' phase), so those are in the first round trip the gate lets through: a new
    // account waits for them, nothing waits for the organization lists.
    const starting =
      rebuilt && phase === 'org'
        ? []
        : parts.filter(
            (part) => part.phase === phase || (rebuilt && phase === 'projects' && part.phase === 'org'),
          );
    for (const part of starting) {
      const done = background(part.run(ctx));
      started.push(done);
      if (part.awaited) awaited.push(done);
    }
    await Promise.all(awaited);
    // The project list's part is awaited: the tree is in the cache (or the cached one stands).
    if (rebuilt && phase === 'projects') progress.initial?.({ treeReady: true });
    // A phase's last work and the next phase's first cache reads would otherwise run as one
    // stretch (the task lists' removal check, then the choice of stale messages).
    await yieldToLoop();
  }
  await Promise.all(started);
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
