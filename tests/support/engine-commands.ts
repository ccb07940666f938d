// The commands a child engine (`engine-process.ts`) answers, and what it answers them with. Writes
// go through `createDispatch`, the entry the Electron and web transports both call; each write is
// followed at once by a read of the same item, so the campaign's read-your-writes check runs in
// the child before anything else can happen.
import type { Engine } from '../../src/main/core/engine';
import { stageDroppedPaths } from '../../src/main/core/handlers/attachments';
import type { IpcResult } from '../../src/shared/ipc/channel';

/** What the child must see right after a successful write (read-your-writes). */
export type Expectation =
  | { kind: 'field'; taskId?: string; field: 'name' | 'priority' | 'statusId'; value: string | number }
  | { kind: 'message'; taskId: string; text: string }
  | { kind: 'tag'; taskId: string; tagId: string; present: boolean }
  | { kind: 'customField'; taskId: string; fieldId: string; value: unknown }
  | { kind: 'gone'; taskId: string };

/** A task as a client's cache (or the service) shows it, in the terms the checks compare. */
export interface TaskSnapshot {
  id: string;
  name: string;
  parentTaskId: string | null;
  priority: number;
  statusId: string;
  tags: string[];
  messages: string[];
  customFieldsData: Record<string, unknown>;
  /** The files on its messages (`fileKey`), sorted. */
  files: string[];
  /** Its dependencies, either end (`dependencyKey`), sorted. */
  dependencies: string[];
}

/** Items other than tasks, each known by its name (unique in a campaign run). */
export const RECORD_KINDS = ['event', 'contact', 'account', 'project'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** A record (event, CRM contact or account, project) in the terms the checks use, the same
 * shape for a client's cache and the service. */
export interface RecordSnapshot {
  kind: RecordKind;
  name: string;
  /** The fields the workload edits; `member:<userId>` true for each project member; a project's
   * `dependencies` (`dependencyKey`, sorted). */
  fields: Record<string, unknown>;
}

/** What `recordSnapshots` builds from: the same lists read from a cache or from the service. */
export interface RecordSources {
  events: readonly { name: string }[];
  contacts: readonly { firstName: string; lastName: string }[];
  accounts: readonly { name: string; website: string }[];
  projects: readonly {
    name: string;
    priority: number;
    members: readonly { id: string }[];
    dependencies: readonly string[];
  }[];
}

export function recordSnapshots(src: RecordSources): RecordSnapshot[] {
  return [
    ...src.events.map((e) => ({ kind: 'event' as const, name: e.name, fields: {} })),
    ...src.contacts.map((c) => ({
      kind: 'contact' as const,
      name: c.firstName,
      fields: { lastName: c.lastName },
    })),
    ...src.accounts.map((a) => ({ kind: 'account' as const, name: a.name, fields: { website: a.website } })),
    ...src.projects.map((p) => {
      const fields: Record<string, unknown> = {
        priority: p.priority,
        dependencies: [...p.dependencies].sort(),
      };
      for (const m of p.members) fields[`member:${m.id}`] = true;
      return { kind: 'project' as const, name: p.name, fields };
    }),
  ];
}

/** One end of a dependency: kind in lower case (`task`, `event`, `project`) and id. */
export interface DependencyEnd {
  kind: string;
  id: string;
}

/** A dependency as one comparable string: type, predecessor and successor. */
export const dependencyKey = (type: number, from: DependencyEnd, to: DependencyEnd): string =>
  `${type} ${from.kind.toLowerCase()}:${from.id} > ${to.kind.toLowerCase()}:${to.id}`;

/** A file on a message as one comparable string: the message's text, the file's name and size. */
export const fileKey = (message: string, file: { name: string; size?: number | null }): string =>
  `${message} / ${file.name} / ${file.size ?? '?'}`;

export interface OutboxSnapshot {
  status: {
    pending: number;
    inFlight: number;
    failed: number;
    /** Acknowledged changes whose answer never folded (needs attention); absent in older snapshots. */
    stuck?: number;
    conflicts: number;
    paused: string | null;
  };
  failed: { kind: string; payload: unknown; errorType: string | null; errorMessage: string | null }[];
  conflicts: { entityId: string; field: string; localValue: unknown; remoteValue: unknown }[];
  /** Every task the cache holds in the project, by id. */
  tasks: TaskSnapshot[];
  /** Events of the campaign's day, CRM contacts and accounts, projects other than the root. */
  records: RecordSnapshot[];
  /** Map of local ids the client handed out to the real ids they became. */
  realIds: Record<string, string>;
}

/** A field with a pending local change: which entry claims it and the value it sets. */
export interface Claim {
  entityId: string;
  field: string;
  entryId: number;
  value: unknown;
}

export type Command =
  /** A write; `stage` first drops a small file of that name and puts its spool id in `arg.files`. */
  | { op: 'call'; channel: string; arg: unknown; expect?: Expectation; stage?: { name: string } }
  /**
   * A pull; `claims` asks for the claimed fields of these entities before and after it. `fresh`:
   * one begun after this command, so it sees every change made before it (a pull under way,
   * which `sync.now` would join, may have read before another client's last change landed).
   */
  | { op: 'sync'; claims?: { entity: string; ids: string[]; fields: string[] }; fresh?: boolean }
  /** Replays until nothing is pending, an entry failed or `timeoutMs` passed; answers the status. */
  | { op: 'drain'; timeoutMs?: number }
  | { op: 'snapshot'; projectId: string; eventDay: string; localIds: string[] }
  | { op: 'close' };

export interface CallAnswer {
  result: IpcResult<unknown>;
  /** Set when the read right after a successful write did not show it. */
  readYourWrites?: string;
}

export interface SyncAnswer {
  lastError: string | null;
  /** The claims asked for, as they stood before and after the pull. */
  claimsBefore?: Claim[];
  claimsAfter?: Claim[];
}

interface DetailValue {
  task: {
    id: string;
    name: string;
    priority: number;
    parentTaskId: string | null;
    status: { id: string };
    customFieldsData?: Record<string, unknown>;
  };
  messages: { message: string | null; attachments?: { name: string; size: number | null }[] }[];
  tags: { id: string }[];
  dependencies: DependencyView[];
}

interface DependencyView {
  type: number;
  predecessor: DependencyEnd;
  successor: DependencyEnd;
}

const viewKey = (d: DependencyView) => dependencyKey(d.type, d.predecessor, d.successor);

/** The child's side: answers one command against its engine. */
export function commandRunner(engine: Engine, dataDir: string): <T>(command: Command) => Promise<T> {
  // Lazy: the dispatch module is only bundled into the child.
  let dispatchOf: Promise<(channel: string, arg: unknown) => Promise<IpcResult<unknown>>> | undefined;
  const dispatch = async (channel: string, arg: unknown) => {
    dispatchOf ??= import('../../src/main/core/dispatch').then(({ createDispatch }) =>
      createDispatch(engine.handlers, (m) => process.stderr.write(`${m}\n`)),
    );
    return (await dispatchOf)(channel, arg);
  };
  const outbox = engine.outbox.outbox;

  async function detail(taskId: string) {
    const r = await dispatch('tasks.detail', { taskId });
    return r.ok ? (r.value as DetailValue) : null;
  }

  async function readYourWrites(
    expect: Expectation,
    created: string | undefined,
  ): Promise<string | undefined> {
    const taskId = ('taskId' in expect ? expect.taskId : undefined) ?? created;
    if (!taskId) return 'no task id to read back';
    const d = await detail(outbox.realIdOf(taskId));
    if (expect.kind === 'gone') return d ? `deleted task ${taskId} still readable` : undefined;
    if (!d) return `task ${taskId} not readable after the write`;
    switch (expect.kind) {
      case 'field': {
        const seen = expect.field === 'statusId' ? d.task.status.id : d.task[expect.field];
        return seen === expect.value
          ? undefined
          : `${expect.field} reads ${String(seen)}, wrote ${expect.value}`;
      }
      case 'message':
        return d.messages.some((m) => m.message === expect.text)
          ? undefined
          : `message ${expect.text} not read`;
      case 'tag': {
        const has = d.tags.some((t) => t.id === expect.tagId);
        return has === expect.present ? undefined : `tag ${expect.tagId} present=${has}`;
      }
      case 'customField': {
        const seen = d.task.customFieldsData?.[expect.fieldId];
        return JSON.stringify(seen) === JSON.stringify(expect.value)
          ? undefined
          : `custom field ${expect.fieldId} reads ${JSON.stringify(seen)}`;
      }
    }
  }

  // The latest claim of each field (the value the client shows), read from the outbox's own
  // table: the journal check needs to know whether the same entry held it across a pull.
  const latestClaim = engine.db.prepare(
    `SELECT entry_id AS entryId, value FROM outbox_field_claims
     WHERE entity = ? AND entity_id = ? AND field = ? ORDER BY entry_id DESC LIMIT 1`,
  );
  function claims(which: { entity: string; ids: string[]; fields: string[] }): Claim[] {
    const out: Claim[] = [];
    for (const id of which.ids)
      for (const field of which.fields) {
        const row = latestClaim.get(which.entity, id, field) as
          { entryId: number; value: string } | undefined;
        if (row)
          out.push({ entityId: id, field, entryId: row.entryId, value: JSON.parse(row.value) as unknown });
      }
    return out;
  }

  /** A read the snapshot needs: its value, or a thrown error naming the channel. */
  async function read<T>(channel: string, arg: unknown): Promise<T> {
    const r = await dispatch(channel, arg);
    if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
    return r.value as T;
  }

  /** Events of the day, CRM lists, and each project other than the root with its members and
   * dependencies (opening a project fetches what was never fetched, as the view would). */
  async function records(projectId: string, eventDay: string): Promise<RecordSnapshot[]> {
    const all = { offset: 0, limit: 50_000 };
    const events = await read<{ name: string }[]>('events.list', { from: eventDay, to: eventDay });
    const contacts = await read<{ rows: RecordSources['contacts'] }>('crm.contacts', all);
    const accounts = await read<{ rows: RecordSources['accounts'] }>('crm.accounts', all);
    const tree = await read<{ nodes: { id: string; isFolder: boolean }[] }>('projects.tree', {});
    const projects: RecordSources['projects'][number][] = [];
    for (const node of tree.nodes) {
      if (node.id === projectId || node.isFolder) continue;
      const d = await read<{ project: { name: string; priority: number }; members: { id: string }[] }>(
        'projects.detail',
        { projectId: node.id },
      );
      const deps = await read<DependencyView[]>('dependencies.ofProject', { projectId: node.id });
      projects.push({ ...d.project, members: d.members, dependencies: deps.map(viewKey) });
    }
    return recordSnapshots({ events, contacts: contacts.rows, accounts: accounts.rows, projects });
  }

  async function snapshot(projectId: string, eventDay: string, localIds: string[]): Promise<OutboxSnapshot> {
    const list = await dispatch('tasks.list', { projectId, filter: { closed: 'all' }, limit: 5000 });
    if (!list.ok) throw new Error(`tasks.list: ${list.error.message}`);
    const rows = (list.value as { rows: { id: string }[] }).rows;
    const tasks: TaskSnapshot[] = [];
    for (const row of rows) {
      const d = await detail(row.id);
      if (!d) continue;
      tasks.push({
        id: d.task.id,
        name: d.task.name,
        parentTaskId: d.task.parentTaskId,
        priority: d.task.priority,
        statusId: d.task.status.id,
        tags: d.tags.map((t) => t.id).sort(),
        messages: d.messages.map((m) => m.message ?? '').sort(),
        customFieldsData: d.task.customFieldsData ?? {},
        files: d.messages
          .flatMap((m) => (m.attachments ?? []).map((f) => fileKey(m.message ?? '', f)))
          .sort(),
        dependencies: d.dependencies.map(viewKey).sort(),
      });
    }
    const view = (e: ReturnType<typeof outbox.entries>[number]) => ({
      kind: e.kind,
      payload: e.payload,
      errorType: e.errorType,
      errorMessage: e.errorMessage,
    });
    return {
      status: outbox.status(),
      failed: outbox.entries('failed').map(view),
      conflicts: outbox.listConflicts().map((c) => ({
        entityId: c.entityId,
        field: c.field,
        localValue: c.localValue,
        remoteValue: c.remoteValue,
      })),
      tasks,
      records: await records(projectId, eventDay),
      realIds: Object.fromEntries(localIds.map((id) => [id, outbox.realIdOf(id)])),
    };
  }

  /** Drops a small file (written beside the cache) and names its spool id in the write's `files`. */
  async function withStaged(arg: unknown, name: string): Promise<unknown> {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(dataDir, 'drops');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, `${name}\n`);
    const staged = await stageDroppedPaths(engine.files, [path]);
    const ids = staged.staged.map((f) => f.id);
    return { ...(arg as Record<string, unknown>), files: ids };
  }

  async function run(command: Command): Promise<unknown> {
    switch (command.op) {
      case 'call': {
        const arg = command.stage ? await withStaged(command.arg, command.stage.name) : command.arg;
        const result = await dispatch(command.channel, arg);
        const answer: CallAnswer = { result };
        // A write that changed nothing locally (entryId null) claims nothing to read back.
        const entryId = result.ok ? (result.value as { entryId?: number | null }).entryId : null;
        if (result.ok && command.expect && entryId !== null) {
          const created = (result.value as { id?: string }).id;
          const problem = await readYourWrites(command.expect, created);
          // A change the service refused before the read is rolled back: its answer replaced it.
          const refused = outbox.entries('failed').some((f) => f.id === entryId);
          if (problem && !refused) answer.readYourWrites = problem;
        }
        return answer;
      }
      case 'sync': {
        if (command.fresh && engine.sync.status().running) await engine.sync.now();
        const before = command.claims && claims(command.claims);
        const status = await engine.sync.now();
        const answer: SyncAnswer = { lastError: status.lastError };
        if (command.claims) {
          answer.claimsBefore = before!;
          answer.claimsAfter = claims(command.claims);
        }
        return answer;
      }
      case 'drain': {
        const until = command.timeoutMs === undefined ? Infinity : Date.now() + command.timeoutMs;
        // A failed entry stops its item's chain until someone acts: return it to the caller.
        while (outbox.status().pending > 0 && outbox.status().failed === 0 && Date.now() < until) {
          // Asked to drain: every retry waiting out its backoff is due now (as on reconnect).
          outbox.reconnected();
          await outbox.idle();
          await new Promise((r) => setTimeout(r, 5));
        }
        return outbox.status();
      }
      case 'snapshot':
        return await snapshot(command.projectId, command.eventDay, command.localIds);
      case 'close':
        await engine.close();
        return null;
    }
  }
  return (command) => run(command) as Promise<never>;
}
