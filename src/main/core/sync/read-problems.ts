import type { ReadProblem } from '../../../shared/ipc/sync';
import type { ListRead } from '../api/client';
import { ResponseShapeError, ServiceError } from '../api/errors';
import type { Cache } from '../cache/cache';
import { stamp } from './context';

/** The sync-state key the problems are kept under, so they outlive a restart. */
const STATE_KEY = 'readProblems';

/**
 * What one account's service answered that could not be read, one entry per list or part (its
 * path): items of a list skipped, or a whole read that failed while the others went on. An entry
 * stays until a read of the same path succeeds with every item read.
 */
export interface ReadProblems {
  list(): ReadProblem[];
  /** A list read went through: records its skipped items, or clears its entry when none were. */
  listRead(read: ListRead): void;
  /** A read (or a sync part) failed as a whole; `key` is its path, or the part's name. */
  failed(key: string, err: unknown): void;
  /** A part that failed as a whole before went through now (its skipped items stay recorded). */
  clear(key: string): void;
  /** Stores and tells a change not yet told (the sync calls it when a run ends). */
  flush(): void;
  /** Listens to changes of the list; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/** Names what a path holds, in words a user knows, with the cached names of its project or task. */
export function describePath(
  path: string,
  cache: Pick<Cache, 'projects' | 'tasks' | 'org'>,
): {
  what: string;
  one: string;
} {
  const parts = path.split('/').filter(Boolean);
  const fixed: Record<string, [string, string]> = {
    projects: ['projects and folders', 'project or folder'],
    'custom-fields': ['custom fields', 'custom field'],
    users: ['users', 'user'],
    statuses: ['statuses', 'status'],
    'task-types': ['task types', 'task type'],
    tags: ['tags', 'tag'],
    'project-templates': ['project templates', 'project template'],
    events: ['events', 'event'],
    'crm/contacts': ['CRM contacts', 'CRM contact'],
    'crm/accounts': ['CRM accounts', 'CRM account'],
  };
  const known = fixed[parts.join('/')];
  if (known) return { what: known[0], one: known[1] };
  const [head, rawId, tail] = parts;
  const id = rawId ? decodeURIComponent(rawId) : '';
  const project = (): string => {
    const cached = cache.projects.get(id);
    return `${cached?.isFolder ? 'folder' : 'project'} ${quoted(id, cached?.name)}`;
  };
  const of = (many: string, single: string, owner: string) => ({
    what: `${many} of ${owner}`,
    one: `${single} of ${owner}`,
  });
  if ((head === 'project' || head === 'projects') && tail) {
    if (tail === 'tasks') return of('tasks', 'task', project());
    if (tail === 'users') return of('members', 'member', project());
    if (tail === 'documents') return of('documents', 'document', project());
    if (tail === 'history') return of('history events', 'history event', project());
    if (tail === 'dependencies') return of('dependencies', 'dependency', project());
  }
  if (head === 'project' && !tail) return { what: `details of ${project()}`, one: `detail of ${project()}` };
  if (head === 'task' && tail === 'messages') {
    const task = cache.tasks.get(id);
    return of('messages', 'message', `task ${quoted(id, task && `#${task.shortId} ${task.name}`)}`);
  }
  if (head === 'user' && tail === 'action-required-tasks')
    return { what: 'action-required tasks', one: 'action-required task' };
  if (head === 'user' && tail === 'assigned-tasks') return { what: 'assigned tasks', one: 'assigned task' };
  if (head === 'tag' && tail === 'tasks') {
    const name = cache.org.tags.all().find((t) => t.id === id)?.name;
    return of('tasks', 'task', `tag ${quoted(id, name)}`);
  }
  return { what: `answers of ${path}`, one: `answer of ${path}` };
}

function quoted(id: string, name: string | null | undefined): string {
  return name ? `"${name}"` : id;
}

/** The reason of a failed read, token-free: the client's errors name method, path and cause. */
function reasonOf(err: unknown): { field: string | null; reason: string } {
  if (err instanceof ResponseShapeError) return { field: err.field, reason: err.message };
  if (err instanceof ServiceError || err instanceof Error) return { field: null, reason: err.message };
  return { field: null, reason: String(err) };
}

export function createReadProblems(deps: {
  cache: Cache;
  clock: () => Date;
  log: (message: string) => void;
}): ReadProblems {
  const { cache } = deps;
  const stored = cache.syncState.get(STATE_KEY)?.value;
  const entries = new Map<string, ReadProblem>(
    Array.isArray(stored) ? (stored as ReadProblem[]).map((p) => [p.key, p]) : [],
  );
  const listeners = new Set<() => void>();
  // Stored and told at most every 100 ms (and at `flush`): a pull of 20,000 tasks whose messages
  // all fail must not write the list 20,000 times.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    if (!timer) return;
    timer = null;
    try {
      cache.syncState.set(STATE_KEY, stamp(deps.clock()), [...entries.values()]);
    } catch (err) {
      // The cache closed meanwhile (the account was closed): the next pull finds them again.
      deps.log(`read problems not stored: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        deps.log(`read problems listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
  const changed = (): void => {
    if (timer) return;
    timer = setTimeout(flush, 100);
    timer.unref?.();
  };
  const put = (problem: Omit<ReadProblem, 'what' | 'one' | 'at'>): void => {
    entries.set(problem.key, { ...problem, ...describePath(problem.key, cache), at: stamp(deps.clock()) });
    changed();
  };
  return {
    flush,
    list: () => [...entries.values()],
    listRead(read) {
      const first = read.skipped[0];
      if (!first) {
        if (entries.delete(read.path)) changed();
        return;
      }
      put({
        key: read.path,
        count: read.skipped.length,
        total: read.total,
        field: first.field,
        reason: first.message,
        itemId: first.id,
      });
    },
    failed(key, err) {
      const { field, reason } = reasonOf(err);
      deps.log(`sync: ${key} could not be read: ${reason}`);
      put({ key, count: null, total: null, field, reason, itemId: null });
    },
    clear(key) {
      // Skipped items of the same read stay: they are the list read's to clear.
      if (entries.get(key)?.count === null && entries.delete(key)) changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
