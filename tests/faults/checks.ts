// The checks after a run: nothing lost, nothing doubled, every cache equal to the service, and
// a conflict journal that only records real concurrent changes. Pure functions over the
// service's final state, the write log and each client's final snapshot.
import type { ServiceClient } from '../../src/main/core/api/client';
import {
  dependencyKey,
  type RecordSources,
  fileKey,
  recordSnapshots,
  type Claim,
  type DependencyEnd,
  type OutboxSnapshot,
  type RecordSnapshot,
  type TaskSnapshot,
} from '../support/engine-commands';
import type { DocumentListItem } from '../../src/shared/api/documents';
import type { Dependency } from '../../src/shared/api/dependencies';
import { reportMessageText, timeReportEndpoints } from '../../src/shared/api/time-reports';

import { DEFAULT_FRESH_MS } from '../../src/main/core/outbox/outbox';
import {
  NUMBER_FIELD,
  type Intent,
  type RecordKind,
  type OwnRecord,
  type OwnTask,
  type SharedTask,
  type TaskRef,
  type WriteRecord,
} from './workload';
import { projectEndpoints } from '../../src/shared/api/projects';
import { dependencyEndpoints } from '../../src/shared/api/dependencies';
import { memberEndpoints } from '../../src/shared/api/members';
import { eventEndpoints } from '../../src/shared/api/events';
import { crmEndpoints } from '../../src/shared/api/crm';
import { documentEndpoints } from '../../src/shared/api/documents';
import { taskEndpoints } from '../../src/shared/api/tasks';
import { messageEndpoints } from '../../src/shared/api/messages';

export type AnomalyKind =
  | 'lost-write'
  | 'duplicate'
  | 'divergence'
  | 'read-your-writes'
  | 'bogus-conflict'
  | 'missing-conflict'
  | 'silent-overwrite'
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

/** A client's cached documents: the lists the pull brought, and the content of those it opened. */
export interface CachedDocuments {
  /** Every cached document of the root project's subtree (`documents.list` with subfolders). */
  list: DocumentListItem[];
  /** The content of each document the client opened during the run, read again as a view would. */
  content: Record<string, string>;
}

export interface ClientEnd extends OutboxSnapshot {
  /** Every refused entry seen at the end (recorded before the harness discarded it). */
  failed: FailedEntry[];
  documents: CachedDocuments;
}

/** A record on the service (event, CRM contact or account, project) in the terms the checks use. */
export type ServiceRecord = RecordSnapshot;

export interface ServiceState {
  tasks: TaskSnapshot[];
  /** Events on the campaign's day, CRM contacts and accounts, projects (one entry per item). */
  records: ServiceRecord[];
  /** Every message text of each task with its count (duplicates show as count > 1). */
  messageCounts: Map<string, Map<string, number>>;
  /** Names of the files attached to each message, by task id and message text. */
  attachments: Map<string, Map<string, string[]>>;
  /** Every time report note of each task with its count (duplicates show as count > 1). */
  timeReportCounts?: Map<string, Map<string, number>>;
  /** Dependencies between tasks and events (of the campaign's day), each once, by their ends' ids. */
  dependencies: { id: string; from: string; to: string }[];
  /** Names of the events of the campaign's day, by id (dependency ends). */
  eventNames: Map<string, string>;
  /** The documents of the root project's subtree, with the content of each. */
  documents: DocumentListItem[];
  documentContent: Map<string, string>;
}

/** The fields of a document list item both a cache and the service show (no extra keys). */
const documentFields = (d: DocumentListItem) => ({
  id: d.id,
  name: d.name,
  projectId: d.projectId,
  createdByUserId: d.createdByUserId,
  momentCreated: d.momentCreated,
  momentUpdated: d.momentUpdated,
});

/**
 * The records with each event's dependencies (`dependencyKey`, sorted) among its fields, read
 * from a cache or the service by the event's name: events of the campaign's day are compared
 * with their dependencies as projects are.
 */
export function withEventDependencies(
  records: readonly RecordSnapshot[],
  byEvent: ReadonlyMap<string, readonly string[]>,
): RecordSnapshot[] {
  return records.map((r) =>
    r.kind === 'event'
      ? { ...r, fields: { ...r.fields, dependencies: [...(byEvent.get(r.name) ?? [])].sort() } }
      : r,
  );
}

export async function serviceState(
  api: ServiceClient,
  projectId: string,
  eventDay: string,
): Promise<ServiceState> {
  const projects: RecordSources['projects'][number][] = [];
  for (const p of await api.call(projectEndpoints.projects)) {
    if (p.id === projectId) continue;
    const deps = await api.call(dependencyEndpoints.dependencies, { kind: 'project', id: p.id });
    projects.push({
      ...p,
      members: await api.call(memberEndpoints.projectUsers, { id: p.id }),
      dependencies: [...deps.predecessors, ...deps.successors].map((d) =>
        serviceDependencyKey(d, { kind: 'project', id: p.id }),
      ),
    });
  }
  const events = await api.call(eventEndpoints.events, { query: { startDate: eventDay, endDate: eventDay } });
  const dependencies = new Map<string, { id: string; from: string; to: string }>();
  /** Notes the dependencies listed for one task or event, each once, by its ends' ids. */
  const noteDependencies = (
    deps: { predecessors: Dependency[]; successors: Dependency[] },
    self: DependencyEnd,
  ) => {
    for (const d of [...deps.predecessors, ...deps.successors]) {
      const from = dependencyEnd(d, 'predecessor', self);
      const to = dependencyEnd(d, 'successor', self);
      // Project dependencies are compared with their project (the workload makes none).
      if (![from, to].some((e) => e.kind.toLowerCase() === 'project'))
        dependencies.set(d.id, { id: d.id, from: from.id, to: to.id });
    }
    return [...deps.predecessors, ...deps.successors].map((d) => serviceDependencyKey(d, self)).sort();
  };
  const eventDependencies = new Map<string, string[]>();
  for (const e of events)
    eventDependencies.set(
      e.name,
      noteDependencies(await api.call(dependencyEndpoints.dependencies, { kind: 'event', id: e.id }), {
        kind: 'event',
        id: e.id,
      }),
    );
  const records = withEventDependencies(
    recordSnapshots({
      events,
      contacts: await api.call(crmEndpoints.crmContacts),
      accounts: await api.call(crmEndpoints.crmAccounts),
      projects,
    }),
    eventDependencies,
  );
  const documents = await api.call(documentEndpoints.projectDocuments, {
    id: projectId,
    query: { subfolders: true },
  });
  const documentContent = new Map<string, string>();
  for (const d of documents)
    documentContent.set(d.id, (await api.call(documentEndpoints.document, { id: d.id })).content);
  const list = await api.call(taskEndpoints.projectTasks, { id: projectId, query: { closed: true } });
  const tasks: TaskSnapshot[] = [];
  const messageCounts = new Map<string, Map<string, number>>();
  const attachments = new Map<string, Map<string, string[]>>();
  const timeReportCounts = new Map<string, Map<string, number>>();
  for (const t of list) {
    const reports = new Map<string, number>();
    for (const r of await api.call(timeReportEndpoints.taskTimeReports, { id: t.id })) {
      const note = reportMessageText(r.message);
      reports.set(note, (reports.get(note) ?? 0) + 1);
    }
    timeReportCounts.set(t.id, reports);
    const detail = await api.call(taskEndpoints.task, { id: t.id });
    const raw = await api.call(messageEndpoints.taskMessages, { id: t.id });
    const messages = raw.map((m) => m.message ?? '');
    const counts = new Map<string, number>();
    for (const m of messages) counts.set(m, (counts.get(m) ?? 0) + 1);
    messageCounts.set(t.id, counts);
    attachments.set(
      t.id,
      new Map(raw.map((m) => [m.message ?? '', (m.attachments ?? []).map((a) => a.name)] as const)),
    );
    const deps = await api.call(dependencyEndpoints.dependencies, { kind: 'task', id: t.id });
    tasks.push({
      id: t.id,
      name: t.name,
      parentTaskId: t.parentTaskId,
      priority: t.priority,
      statusId: t.status.id,
      tags: [...(detail.tags ?? [])].sort(),
      messages: [...messages].sort(),
      customFieldsData: detail.customFieldsData ?? {},
      files: raw.flatMap((m) => (m.attachments ?? []).map((f) => fileKey(m.message ?? '', f))).sort(),
      dependencies: noteDependencies(deps, { kind: 'task', id: t.id }),
    });
  }
  return {
    tasks,
    records,
    messageCounts,
    attachments,
    timeReportCounts,
    dependencies: [...dependencies.values()],
    eventNames: new Map(events.map((e) => [e.id, e.name])),
    documents,
    documentContent,
  };
}

/**
 * A dependency as the service lists it for one item (`self`), keyed as a cache shows it. The
 * service leaves out the end it was asked about: a predecessor's missing successor is `self`.
 */
function serviceDependencyKey(d: Dependency, self: DependencyEnd): string {
  return dependencyKey(d.type, dependencyEnd(d, 'predecessor', self), dependencyEnd(d, 'successor', self));
}

/** One end of a dependency the service listed for `self`; the end it leaves out is `self`. */
function dependencyEnd(d: Dependency, side: 'predecessor' | 'successor', self: DependencyEnd): DependencyEnd {
  for (const kind of ['Task', 'Event', 'Project'] as const) {
    const id = d[`${side}${kind}Id`];
    if (id) return { kind, id };
  }
  return self;
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
  /**
   * Renames the harness kept from the service until `until` (ms since the run started; the
   * journal phase's held renames): every send of one that reached the service was a retry, and a
   * retry reads its item first, whatever the client read last (`overwritesWithoutEntry`).
   */
  heldRenames?: { client: number; taskId: string; value: unknown; until: number }[];
  shared: SharedTask[];
  writes: WriteRecord[];
  ends: ClientEnd[];
  own: OwnTask[][];
  /** Each client's records (events, CRM, projects), for their ids. */
  records?: OwnRecord[][];
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

/** What a divergence names: each key whose values differ, with the cache's and the service's. */
function differences(cache: object, service: object): string {
  const a = cache as Record<string, unknown>;
  const b = service as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => !same(a[key], b[key]))
    .map((key) => `${key} cache ${canonical(a[key])} service ${canonical(b[key])}`)
    .join(', ');
}

/** Records by `kind:name` (a name is unique per run: a longer list is a duplicate). */
function groupRecords(list: readonly RecordSnapshot[]): Map<string, RecordSnapshot[]> {
  const out = new Map<string, RecordSnapshot[]>();
  for (const r of list) {
    const key = `${r.kind}:${r.name}`;
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

export function checkRun(input: CheckInput): Anomaly[] {
  const { state, shared, writes, ends, own, records = [] } = input;
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
  for (const [taskId, counts] of state.timeReportCounts ?? [])
    for (const [note, n] of counts)
      if (n > 1 && note) add('duplicate', `time report "${note}" on task ${taskId} exists ${n} times`);

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
    const files = state.attachments.get(task.id)?.get(w.intent.text) ?? [];
    if (n > 0 && !same([...files].sort(), [...(w.intent.files ?? [])].sort()))
      add(
        'lost-write',
        `client ${w.client} message "${w.intent.text}" carries ${JSON.stringify(files)}, sent ${JSON.stringify(w.intent.files ?? [])}`,
      );
  }

  // Time reports: each acked one is on its task (once, see above), unless the task is gone.
  for (const w of writes) {
    if (w.intent.type !== 'timeReport' || w.outcome !== 'acked' || !state.timeReportCounts) continue;
    const { task, key, id } = resolve(w.client, w.intent.task);
    if (!task) continue;
    if (!(state.timeReportCounts.get(task.id)?.get(w.intent.note) ?? 0) && !isExcused(w.client, key, id))
      add(
        'lost-write',
        `client ${w.client} time report "${w.intent.note}" on "${task.name}": not on the service`,
      );
  }

  // Records: each acked create exists once, unless a delete took it (or it was refused), and
  // each field its creator edited ends on its last acknowledged value.
  const recordsByKey = groupRecords(state.records);
  for (const [key, list] of recordsByKey)
    if (list.length > 1) add('duplicate', `${key} exists ${list.length} times`);
  /** A refusal of this client names the item (by name or id): its later state is not judged. */
  const mentioned = (client: number, needles: readonly string[]) =>
    ends[client]!.failed.some((f) =>
      needles.some((n) => JSON.stringify(f.payload).includes(JSON.stringify(n))),
    );
  const recordIds = (client: number, kind: RecordKind, name: string): string[] => {
    const r = records[client]?.find((x) => x.kind === kind && x.name === name);
    return r ? [name, r.id, ends[client]!.realIds[r.id] ?? r.id] : [name];
  };
  for (const w of writes) {
    if (w.intent.type !== 'recordCreate' || w.outcome !== 'acked') continue;
    const { kind, name } = w.intent;
    const deletes = writes.filter(
      (d) => d.intent.type === 'recordDelete' && d.intent.kind === kind && d.intent.name === name,
    );
    const surelyGone = deletes.some((d) => d.outcome === 'acked');
    const maybeGone = deletes.some((d) => d.outcome === 'unknown');
    const n = recordsByKey.get(`${kind}:${name}`)?.length ?? 0;
    if (mentioned(w.client, recordIds(w.client, kind, name))) continue;
    if (surelyGone && n > 0)
      add('lost-write', `client ${w.client} deleted ${kind} "${name}" but the service still has it`);
    if (!surelyGone && !maybeGone && n === 0)
      add('lost-write', `client ${w.client} created ${kind} "${name}": not on the service`);
  }
  const recordFields = new Map<string, { client: number; list: { outcome: string; value: unknown }[] }>();
  for (const w of writes) {
    if (w.intent.type !== 'recordField') continue;
    const key = JSON.stringify([w.intent.kind, w.intent.name, w.intent.field]);
    const slot = recordFields.get(key) ?? { client: w.client, list: [] };
    slot.list.push({ outcome: w.outcome, value: w.intent.value });
    recordFields.set(key, slot);
  }
  for (const [key, { client, list }] of recordFields) {
    const [kind, name, field] = JSON.parse(key) as [RecordKind, string, string];
    const record = recordsByKey.get(`${kind}:${name}`)?.[0];
    const allowed = possibleEnds(list);
    if (!record || !allowed || mentioned(client, recordIds(client, kind, name))) continue;
    const actual = field.startsWith('member:') ? record.fields[field] === true : record.fields[field];
    if (!allowed.some((v) => same(v, actual)))
      add(
        'lost-write',
        `${kind} "${name}" ${field} is ${JSON.stringify(actual)}, last writes were ${JSON.stringify(allowed)}`,
      );
  }

  // Dependencies between own tasks and events: at most one per pair; present or not as last
  // acknowledged. Task titles and event names are unique in a run, and never equal each other.
  const itemName = (id: string) => byId.get(id)?.name ?? state.eventNames.get(id);
  const onService = (name: string) => byName.has(name) || recordsByKey.has(`event:${name}`);
  /** Events an acknowledged or unknown delete removed: their dependencies went with them. */
  const goneEvents = new Set<string>();
  for (const w of writes)
    if (
      w.intent.type === 'recordDelete' &&
      w.intent.kind === 'event' &&
      (w.outcome === 'acked' || w.outcome === 'unknown')
    )
      goneEvents.add(w.intent.name);
  const depCount = new Map<string, number>();
  for (const d of state.dependencies) {
    const key = JSON.stringify([itemName(d.from), itemName(d.to)]);
    depCount.set(key, (depCount.get(key) ?? 0) + 1);
  }
  for (const [key, n] of depCount) if (n > 1) add('duplicate', `dependency ${key} exists ${n} times`);
  const depWrites = new Map<string, { client: number; list: { outcome: string; value: unknown }[] }>();
  for (const w of writes) {
    if (w.intent.type !== 'dependency') continue;
    const key = JSON.stringify([w.intent.from, w.intent.to]);
    const slot = depWrites.get(key) ?? { client: w.client, list: [] };
    slot.list.push({ outcome: w.outcome, value: w.intent.present });
    depWrites.set(key, slot);
  }
  for (const [key, { client, list }] of depWrites) {
    const [from, to] = JSON.parse(key) as [string, string];
    const allowed = possibleEnds(list);
    if (!allowed || [from, to].some((e) => gone.has(e) || goneEvents.has(e) || !onService(e))) continue;
    const ids = [from, to].flatMap((t) => {
      const mine = own[client]!.find((o) => o.title === t);
      return mine ? [t, mine.id, ends[client]!.realIds[mine.id] ?? mine.id] : recordIds(client, 'event', t);
    });
    if (isExcused(client, from) || isExcused(client, to) || mentioned(client, ids)) continue;
    const actual = (depCount.get(key) ?? 0) > 0;
    if (!allowed.includes(actual))
      add(
        'lost-write',
        `dependency ${from} -> ${to} present=${actual}, last writes were ${JSON.stringify(allowed)}`,
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

  // Convergence: every cache equals the service, task by task (fields, messages and their files,
  // dependencies), record by record (events of the day and CRM, events and projects with their
  // dependencies, projects with their members) and document by document (the list items the pull
  // brings; the content of those the client opened): nothing missing, extra or different.
  const serviceDocuments = new Map(state.documents.map((d) => [d.id, documentFields(d)]));
  ends.forEach((end, k) => {
    const cachedDocuments = new Map(end.documents.list.map((d) => [d.id, documentFields(d)]));
    for (const [id, d] of serviceDocuments) {
      const mine = cachedDocuments.get(id);
      if (!mine) add('divergence', `client ${k} lacks document "${d.name}" (${id})`);
      else if (!same(mine, d)) add('divergence', `client ${k} document ${id}: ${differences(mine, d)}`);
    }
    for (const [id, d] of cachedDocuments)
      if (!serviceDocuments.has(id))
        add('divergence', `client ${k} still shows document "${d.name}" (${id}), gone from the service`);
    for (const [id, content] of Object.entries(end.documents.content)) {
      const theirs = state.documentContent.get(id);
      if (theirs !== undefined && theirs !== content)
        add(
          'divergence',
          `client ${k} document ${id}: content cache ${JSON.stringify(content)} service ${JSON.stringify(theirs)}`,
        );
    }

    const cachedRecords = groupRecords(end.records);
    for (const [key, list] of recordsByKey) {
      const mine = cachedRecords.get(key);
      if (!mine) add('divergence', `client ${k} lacks ${key}`);
      else if (!same(mine, list))
        add(
          'divergence',
          mine.length === list.length
            ? `client ${k} ${key}: ${mine.map((r, i) => differences(r.fields, list[i]!.fields)).join('; ')}`
            : `client ${k} ${key}: ${mine.length} in the cache, ${list.length} on the service`,
        );
    }
    for (const key of cachedRecords.keys())
      if (!recordsByKey.has(key)) add('divergence', `client ${k} still shows ${key}, not on the service`);

    const cached = new Map(end.tasks.map((t) => [t.id, t]));
    for (const t of state.tasks) {
      const mine = cached.get(t.id);
      if (!mine) add('divergence', `client ${k} lacks "${t.name}" (${t.id})`);
      else if (!same(mine, t))
        add('divergence', `client ${k} "${t.name}" (${t.id}): ${differences(mine, t)}`);
    }
    for (const t of end.tasks)
      if (!byId.has(t.id))
        add('divergence', `client ${k} still shows "${t.name}" (${t.id}), gone from the service`);
    // A change that needs attention left automatic retry: the run did not settle it either.
    if (end.status.pending > 0 || (end.status.stuck ?? 0) > 0)
      add('not-drained', `client ${k} ends with ${JSON.stringify(end.status)}`);
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
  for (const a of missingConflicts(input).missing) add('missing-conflict', a);
  for (const a of overwritesWithoutEntry(input).missing) add('silent-overwrite', a);
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
export function missingConflicts(input: CheckInput): { judged: number; missing: string[] } {
  const { commits = [], pulls = [], writes, ends } = input;
  const out = new Set<string>();
  let judged = 0;
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
      judged++;
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
  return { judged, missing: [...out] };
}

/**
 * How long a client may send a change without reading its item first after a read of it
 * (`DEFAULT_FRESH_MS` of the outbox: the first attempt of a change of an item read this
 * recently goes unread), and a margin for the time a send takes from its read to the commit.
 */
export const SEND_UNREAD_MS = DEFAULT_FRESH_MS;
export const SEND_SLACK_MS = 2_000;

/**
 * Sends judged, not only pulls: a client's rename the service committed over another client's
 * name, when the client's rename was acknowledged locally before that name was committed (so its
 * base cannot have been that name), overwrote a concurrent change: the client's journal must hold
 * a conflict on the field. Judged where the engine surely read the other name before sending:
 * for a held rename, that name was committed before the harness let the rename through (its send
 * was a retry, read first); otherwise, committed more than `SEND_UNREAD_MS + SEND_SLACK_MS` before
 * the client's rename (the first send of an item read within `SEND_UNREAD_MS` is not read again).
 */
export function overwritesWithoutEntry(input: CheckInput): { judged: number; missing: string[] } {
  const { commits = [], writes, ends, heldRenames = [] } = input;
  const out: string[] = [];
  let judged = 0;
  const byTask = new Map<string, SharedCommit[]>();
  for (const c of commits) byTask.set(c.taskId, [...(byTask.get(c.taskId) ?? []), c]);
  for (const list of byTask.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 1; i < list.length; i++) {
      const theirs = list[i - 1]!;
      const mine = list[i]!;
      if (theirs.client === null || mine.client === null || theirs.client === mine.client) continue;
      if (same(theirs.value, mine.value)) continue;
      const write = writes.find(
        (w) =>
          w.client === mine.client &&
          w.intent.type === 'field' &&
          w.intent.field === 'name' &&
          'shared' in w.intent.task &&
          w.intent.task.shared === mine.taskId &&
          same(w.intent.value, mine.value),
      );
      if (!write || theirs.at <= write.answeredAt) continue;
      const held = heldRenames.find(
        (h) => h.client === mine.client && h.taskId === mine.taskId && same(h.value, mine.value),
      );
      if (held ? theirs.at >= held.until : mine.at - theirs.at <= SEND_UNREAD_MS + SEND_SLACK_MS) continue;
      judged++;
      const journaled = ends[mine.client]?.conflicts.some(
        (c) => c.entityId === mine.taskId && c.field === 'name',
      );
      if (!journaled)
        out.push(
          `client ${mine.client} sent ${JSON.stringify(mine.value)} for ${mine.taskId} at ${mine.at} ms over ` +
            `client ${theirs.client}'s ${JSON.stringify(theirs.value)} (committed at ${theirs.at} ms, after its rename ` +
            `was acknowledged locally at ${write.answeredAt} ms); no conflict in its journal`,
        );
    }
  }
  return { judged, missing: out };
}
