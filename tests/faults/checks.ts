// The checks after a run: nothing lost, nothing doubled, every cache equal to the service, and
// a conflict journal that only records real concurrent changes. Pure functions over the
// service's final state, the write log and each client's final snapshot.
import type { ServiceClient } from '../../src/main/core/api/client';
import type { Claim, OutboxSnapshot, TaskSnapshot } from '../support/engine-commands';
import {
  NUMBER_FIELD,
  type Intent,
  type OwnTask,
  type SharedTask,
  type TaskRef,
  type WriteRecord,
} from './workload';

export type AnomalyKind =
  | 'lost-write'
  | 'duplicate'
  | 'divergence'
  | 'read-your-writes'
  | 'bogus-conflict'
  | 'missing-conflict'
  | 'refusal-without-reason'
  | 'unexpected-refusal'
  | 'refused-change-applied'
  | 'wrong-parent'
  | 'not-drained'
  | 'sync-failed'
  | 'internal-error'
  | 'harness-error';

export interface Anomaly {
  kind: AnomalyKind;
  detail: string;
}

export interface FailedEntry {
  kind: string;
  payload: unknown;
  errorType: string | null;
  errorMessage: string | null;
}

export interface ClientEnd extends OutboxSnapshot {
  /** Every refused entry seen at the end (recorded before the harness discarded it). */
  failed: FailedEntry[];
}

export interface ServiceState {
  tasks: TaskSnapshot[];
  /** Names of the calendar events on the campaign's day, one entry per event. */
  eventNames: string[];
  /** Every message text of each task with its count (duplicates show as count > 1). */
  messageCounts: Map<string, Map<string, number>>;
}

export async function serviceState(
  api: ServiceClient,
  projectId: string,
  eventDay: string,
): Promise<ServiceState> {
  const eventNames = (await api.events({ startDate: eventDay, endDate: eventDay })).map((e) => e.name);
  const list = await api.projectTasks(projectId, { closed: true });
  const tasks: TaskSnapshot[] = [];
  const messageCounts = new Map<string, Map<string, number>>();
  for (const t of list) {
    const detail = await api.task(t.id);
    const messages = (await api.taskMessages(t.id)).map((m) => m.message ?? '');
    const counts = new Map<string, number>();
    for (const m of messages) counts.set(m, (counts.get(m) ?? 0) + 1);
    messageCounts.set(t.id, counts);
    tasks.push({
      id: t.id,
      name: t.name,
      parentTaskId: t.parentTaskId,
      priority: t.priority,
      statusId: t.status.id,
      tags: [...(detail.tags ?? [])].sort(),
      messages: [...messages].sort(),
      customFieldsData: detail.customFieldsData ?? {},
    });
  }
  return { tasks, messageCounts, eventNames };
}

/** A rename of a shared task the service committed (seen by the harness's hook on the service). */
export interface SharedCommit {
  taskId: string;
  field: 'name';
  value: unknown;
  /** The client whose user sent it; null when several clients act as that user. */
  client: number | null;
  /** ms since the run started. */
  at: number;
}

/** A pull a client ran during the workload, with its claims on the shared tasks around it. */
export interface PullRecord {
  client: number;
  start: number;
  end: number;
  ok: boolean;
  claimsBefore: Claim[];
  claimsAfter: Claim[];
}

export interface CheckInput {
  state: ServiceState;
  /** Renames of shared tasks as the service committed them, and the workload's pulls. */
  commits?: SharedCommit[];
  pulls?: PullRecord[];
  shared: SharedTask[];
  writes: WriteRecord[];
  ends: ClientEnd[];
  own: OwnTask[][];
  faultsInjected: number;
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The values a field may end with after one client's writes: its last acked value, and any
 * value written after it whose outcome is unknown (the client died before answering). */
function possibleEnds<T>(writes: readonly { outcome: string; value: T }[]): T[] | undefined {
  let lastAcked = -1;
  writes.forEach((w, i) => {
    if (w.outcome === 'acked') lastAcked = i;
  });
  if (lastAcked < 0) return undefined;
  return writes
    .slice(lastAcked)
    .filter((w) => w.outcome === 'acked' || w.outcome === 'unknown')
    .map((w) => w.value);
}

export function checkRun(input: CheckInput): Anomaly[] {
  const { state, shared, writes, ends, own } = input;
  const out: Anomaly[] = [];
  const add = (kind: AnomalyKind, detail: string) => out.push({ kind, detail });
  const byId = new Map(state.tasks.map((t) => [t.id, t]));
  const byName = new Map<string, TaskSnapshot[]>();
  for (const t of state.tasks) byName.set(t.name, [...(byName.get(t.name) ?? []), t]);

  // No duplicate: names of tasks and texts of messages are unique in a run.
  for (const [name, list] of byName)
    if (list.length > 1) add('duplicate', `task "${name}" exists ${list.length} times`);
  for (const [taskId, counts] of state.messageCounts)
    for (const [text, n] of counts)
      if (n > 1 && text) add('duplicate', `message "${text}" on task ${taskId} exists ${n} times`);

  // Calendar events: each acked create exists once, unless an acked delete took it.
  const eventCount = new Map<string, number>();
  for (const name of state.eventNames) eventCount.set(name, (eventCount.get(name) ?? 0) + 1);
  for (const [name, n] of eventCount) if (n > 1) add('duplicate', `event "${name}" exists ${n} times`);
  for (const w of writes) {
    if (w.intent.type !== 'eventCreate' || w.outcome !== 'acked') continue;
    const name = w.intent.name;
    const deletes = writes.filter((d) => d.intent.type === 'eventDelete' && d.intent.name === name);
    const surelyGone = deletes.some((d) => d.outcome === 'acked');
    const maybeGone = deletes.some((d) => d.outcome === 'unknown');
    const refused = ends[w.client]!.failed.some((f) =>
      JSON.stringify(f.payload).includes(JSON.stringify(name)),
    );
    const n = eventCount.get(name) ?? 0;
    if (refused) continue;
    if (surelyGone && n > 0)
      add('lost-write', `client ${w.client} deleted event "${name}" but the service still has it`);
    if (!surelyGone && !maybeGone && n === 0)
      add('lost-write', `client ${w.client} created event "${name}": not on the service`);
  }

  // Refusals: each carries the service's reason; only the deliberately bad writes are expected.
  const excused = ends.map(() => new Set<string>());
  ends.forEach((end, k) => {
    for (const f of end.failed) {
      if (!f.errorMessage)
        add('refusal-without-reason', `client ${k} ${f.kind} ${JSON.stringify(f.payload)}`);
      const p = f.payload as {
        taskId?: string;
        tempId?: string;
        values?: { id: string }[];
        input?: { title?: string };
      };
      const taskId = p.taskId ?? p.tempId;
      if (taskId) {
        excused[k]!.add(taskId);
        excused[k]!.add(end.realIds[taskId] ?? taskId);
      }
      if (p.input?.title) excused[k]!.add(p.input.title);
      const deliberate = f.kind === 'task.setCustomFields' && p.values?.some((v) => v.id === NUMBER_FIELD);
      if (!deliberate)
        add('unexpected-refusal', `client ${k} ${f.kind} ${JSON.stringify(f.payload)}: ${f.errorMessage}`);
    }
  });

  /** The service's task for a ref, as the client that wrote it means it. */
  const resolve = (client: number, ref: TaskRef): { task?: TaskSnapshot; key: string; id?: string } => {
    if ('shared' in ref) return { task: byId.get(ref.shared), key: ref.shared, id: ref.shared };
    const mine = own[client]!.find((o) => o.title === ref.own);
    const id = mine ? (ends[client]!.realIds[mine.id] ?? mine.id) : undefined;
    return { task: byName.get(ref.own)?.[0], key: ref.own, ...(id ? { id } : {}) };
  };
  const isExcused = (client: number, key: string, id?: string) =>
    excused[client]!.has(key) || (id !== undefined && excused[client]!.has(id));

  // Deleted items: by acked (surely gone) or unknown (maybe gone) deletes, children included.
  const gone = new Map<string, 'sure' | 'maybe'>();
  for (const w of writes) {
    if (w.intent.type !== 'delete' || !('own' in w.intent.task)) continue;
    if (w.outcome !== 'acked' && w.outcome !== 'unknown') continue;
    const title = w.intent.task.own;
    const how = w.outcome === 'acked' ? 'sure' : 'maybe';
    for (const o of own[w.client]!)
      if (o.title === title || o.parent === title) if (gone.get(o.title) !== 'sure') gone.set(o.title, how);
  }

  // Creates: each acked create exists once (or is gone, or was refused with a reason).
  for (const w of writes) {
    if (w.intent.type !== 'create' || w.outcome !== 'acked') continue;
    const { title, parent } = w.intent;
    const found = byName.get(title) ?? [];
    const del = gone.get(title);
    const excusedHere = isExcused(w.client, title) || (parent !== null && isExcused(w.client, parent));
    if (del === 'sure' && found.length && !excusedHere)
      add('lost-write', `client ${w.client} deleted "${title}" but the service still has it`);
    if (!del && !found.length && !excusedHere)
      add('lost-write', `client ${w.client} created "${title}": not on the service`);
    const task = found[0];
    if (task) {
      const parentName = task.parentTaskId ? byId.get(task.parentTaskId)?.name : null;
      if ((parentName ?? null) !== parent)
        add(
          'wrong-parent',
          `"${title}" has parent ${parentName ?? 'none'}, created under ${parent ?? 'none'}`,
        );
    }
  }

  // Messages: each acked comment or reply is on its task once (unless the task is gone).
  for (const w of writes) {
    if (w.intent.type !== 'message' || w.outcome !== 'acked') continue;
    const { task, key, id } = resolve(w.client, w.intent.task);
    if (!task) {
      if ('own' in w.intent.task && !gone.has(key) && !isExcused(w.client, key, id))
        add('lost-write', `client ${w.client} message "${w.intent.text}": its task "${key}" is missing`);
      continue;
    }
    const n = state.messageCounts.get(task.id)?.get(w.intent.text) ?? 0;
    if (n === 0 && !isExcused(w.client, key, id))
      add(
        'lost-write',
        `client ${w.client} message "${w.intent.text}" on "${task.name}": not on the service`,
      );
  }

  // Field values. Per (task, field): the writes of each client in order.
  type Key = string;
  const perField = new Map<Key, Map<number, { outcome: string; value: unknown }[]>>();
  const fieldKey = (ref: TaskRef, field: string) => JSON.stringify([ref, field]);
  const valueOf = (intent: Intent): [string, unknown] | undefined => {
    switch (intent.type) {
      case 'field':
        return [intent.field, intent.value];
      case 'tag':
        return [`tag:${intent.tagId}`, intent.present];
      case 'customField':
        return intent.refused ? undefined : [`cf:${intent.fieldId}`, intent.value];
      default:
        return undefined;
    }
  };
  for (const w of writes) {
    const v = valueOf(w.intent);
    if (!v || !('task' in w.intent)) continue;
    const key = fieldKey(w.intent.task, v[0]);
    const clients = perField.get(key) ?? new Map<number, { outcome: string; value: unknown }[]>();
    perField.set(key, clients);
    clients.set(w.client, [...(clients.get(w.client) ?? []), { outcome: w.outcome, value: v[1] }]);
  }
  for (const [key, clients] of perField) {
    const [ref, field] = JSON.parse(key) as [TaskRef, string];
    const owner = 'own' in ref ? [...clients.keys()][0]! : undefined;
    const { task, id } = resolve(owner ?? 0, ref);
    if (!task) continue;
    if (owner !== undefined && 'own' in ref && isExcused(owner, ref.own, id)) continue;
    if ('shared' in ref && [...clients.keys()].some((c) => isExcused(c, ref.shared))) continue;
    const allowed: unknown[] = [];
    let anyAcked = false;
    for (const list of clients.values()) {
      const ends_ = possibleEnds(list);
      if (ends_) {
        anyAcked = true;
        allowed.push(...ends_);
      } else allowed.push(...list.filter((w) => w.outcome === 'unknown').map((w) => w.value));
    }
    if (!anyAcked) continue;
    const actual = field.startsWith('tag:')
      ? task.tags.includes(field.slice(4))
      : field.startsWith('cf:')
        ? task.customFieldsData[field.slice(3)]
        : task[field as 'name' | 'priority' | 'statusId'];
    if (!allowed.some((v) => same(v, actual)))
      add(
        'lost-write',
        `"${task.name}" ${field} is ${JSON.stringify(actual)}, last writes were ${JSON.stringify(allowed)}`,
      );
  }

  // Refused values never reach the service.
  for (const t of state.tasks) {
    const v = t.customFieldsData[NUMBER_FIELD];
    if (typeof v === 'string')
      add('refused-change-applied', `"${t.name}" holds ${JSON.stringify(v)} in a number field`);
  }

  // Convergence: every cache equals the service, task by task.
  ends.forEach((end, k) => {
    const cached = new Map(end.tasks.map((t) => [t.id, t]));
    for (const t of state.tasks) {
      const mine = cached.get(t.id);
      if (!mine) add('divergence', `client ${k} lacks "${t.name}" (${t.id})`);
      else if (!same(mine, t))
        add(
          'divergence',
          `client ${k} "${t.name}": cache ${JSON.stringify(mine)} service ${JSON.stringify(t)}`,
        );
    }
    for (const t of end.tasks)
      if (!byId.has(t.id))
        add('divergence', `client ${k} still shows "${t.name}" (${t.id}), gone from the service`);
    if (end.status.pending > 0) add('not-drained', `client ${k} ends with ${JSON.stringify(end.status)}`);
  });

  // The conflict journal: each entry pairs a value this client wrote with one another wrote.
  const written = (client: number, taskId: string, field: string, mine: boolean) =>
    writes.some(
      (w) =>
        (mine ? w.client === client : w.client !== client) &&
        w.intent.type === 'field' &&
        'shared' in w.intent.task &&
        w.intent.task.shared === taskId &&
        w.intent.field === field,
    );
  const sharedIds = new Set(shared.map((s) => s.id));
  ends.forEach((end, k) => {
    for (const c of end.conflicts) {
      // Fields the workload writes directly; others (a reply's action-required user) are not judged.
      if (!sharedIds.has(c.entityId) || (c.field !== 'name' && c.field !== 'priority')) continue;
      if (!written(k, c.entityId, c.field, true) || !written(k, c.entityId, c.field, false))
        add('bogus-conflict', `client ${k} conflict on ${c.entityId} ${c.field}: ${JSON.stringify(c)}`);
    }
  });
  for (const a of missingConflicts(input)) add('missing-conflict', a);
  return out;
}

/**
 * The conflict journal records every overwritten concurrent change (rule 7), where the harness
 * can prove the engine saw it: a pull that ran while one open entry of the client held a rename
 * of a shared task (the same entry, before and after the pull), while the service held another
 * client's name for it, committed after the client's own rename was acknowledged locally (so its
 * base cannot have been that name) and unchanged during the whole pull. That pull saw the other
 * name over a pending local one: the client's journal must hold a conflict on the field. Names
 * only: they are unique per client, priorities are not.
 */
export function missingConflicts(input: CheckInput): string[] {
  const { commits = [], pulls = [], writes, ends } = input;
  const out = new Set<string>();
  for (const pull of pulls) {
    if (!pull.ok) continue;
    for (const claim of pull.claimsBefore) {
      if (claim.field !== 'name') continue;
      const held = pull.claimsAfter.some(
        (c) => c.entityId === claim.entityId && c.field === claim.field && c.entryId === claim.entryId,
      );
      if (!held) continue;
      const onField = commits.filter((c) => c.taskId === claim.entityId && c.field === claim.field);
      if (onField.some((c) => c.at >= pull.start && c.at <= pull.end)) continue;
      const seen = onField.filter((c) => c.at < pull.start).at(-1);
      if (!seen || seen.client === null || seen.client === pull.client || same(seen.value, claim.value))
        continue;
      const mine = writes.find(
        (w) =>
          w.client === pull.client &&
          w.intent.type === 'field' &&
          w.intent.field === 'name' &&
          'shared' in w.intent.task &&
          w.intent.task.shared === claim.entityId &&
          same(w.intent.value, claim.value),
      );
      if (!mine || seen.at <= mine.answeredAt) continue;
      const journaled = ends[pull.client]?.conflicts.some(
        (c) => c.entityId === claim.entityId && c.field === claim.field,
      );
      if (!journaled)
        out.add(
          `client ${pull.client} pulled at ${pull.start}-${pull.end} ms while renaming ${claim.entityId} to ` +
            `${JSON.stringify(claim.value)} (entry #${claim.entryId}); the service held client ${seen.client}'s ` +
            `${JSON.stringify(seen.value)} (committed at ${seen.at} ms); no conflict in its journal`,
        );
    }
  }
  return [...out];
}
