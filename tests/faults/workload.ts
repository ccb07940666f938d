// The seeded random workload of one client, and the record of what it asked for. Each step is
// chosen from the client's own view of the run (its live tasks), so the same seed gives the
// same sequence of choices; how the steps interleave with other clients and with faults
// depends on timing, which the replay log records.
import { SEED_IDS } from '../../src/server/seed/index';
import { formatLocalDate } from '../../src/shared/api/common';
import { RECORD_KINDS, type Expectation, type RecordKind } from '../support/engine-commands';

export const STATUSES = [
  SEED_IDS.statuses.new,
  SEED_IDS.statuses.inProgress,
  SEED_IDS.statuses.onHold,
  SEED_IDS.statuses.done,
];
export const TAGS = [SEED_IDS.tags.urgent, SEED_IDS.tags.backend, SEED_IDS.tags.frontend];
export const TEXT_FIELD = SEED_IDS.customFields.text;
/** Written with a value the service refuses: the change must end in the failed list. */
export const NUMBER_FIELD = SEED_IDS.customFields.number;
const REPLY_USERS = [SEED_IDS.users.bob, SEED_IDS.users.cleo];
/** Members of the Workspace, so each may be added to a project in it. */
const MEMBERS = [SEED_IDS.users.admin, SEED_IDS.users.bob, SEED_IDS.users.cleo, SEED_IDS.users.dan];

export { RECORD_KINDS, type RecordKind };

/** A task the client created: known by its title (unique in the run) and the id it was given. */
export interface OwnTask {
  title: string;
  id: string;
  parent: string | null;
  deleted: boolean;
}

/** What one write asked for, in the terms the checks use. */
export type Intent =
  | { type: 'create'; title: string; parent: string | null }
  /** A comment or reply; `files` are the names of files attached to it. */
  | { type: 'message'; task: TaskRef; text: string; files?: string[] }
  | { type: 'field'; task: TaskRef; field: 'name' | 'priority' | 'statusId'; value: string | number }
  | { type: 'tag'; task: TaskRef; tagId: string; present: boolean }
  | { type: 'customField'; task: TaskRef; fieldId: string; value: unknown; refused: boolean }
  | { type: 'delete'; task: TaskRef }
  | { type: 'recordCreate'; kind: RecordKind; name: string }
  | { type: 'recordDelete'; kind: RecordKind; name: string }
  /** A field of a record only its creator edits; `member:<userId>` is a project membership. */
  | { type: 'recordField'; kind: RecordKind; name: string; field: string; value: unknown }
  /**
   * A dependency between two of the client's own items, tasks or events, by name (task titles
   * and event names are unique in a run, and never equal to each other).
   */
  | { type: 'dependency'; from: string; to: string; present: boolean }
  /** A read of a document written on the service (its content is fetched on demand). */
  | { type: 'open'; documentId: string }
  /** Time logged on a task; `note` is unique in a run, so a report made twice shows. */
  | { type: 'timeReport'; task: TaskRef; note: string; minutes: number };

/** A shared task by its real id, or one of the client's own by title. */
export type TaskRef = { shared: string } | { own: string };

export interface Step {
  channel: string;
  arg: unknown;
  intent: Intent;
  /** What the client must read back at once; none for items without a detail read. */
  expect?: Expectation;
  /** A file to drop first: its spool id goes into `arg.files`. */
  stage?: { name: string };
}

/** A record (event, CRM contact or account, project) the client created. */
export interface OwnRecord {
  kind: RecordKind;
  name: string;
  id: string;
  deleted: boolean;
  /** Project members the client added (and has not removed since). */
  members: string[];
}

/** A dependency the client created between two of its tasks or events (by name). */
export interface OwnDependency {
  from: string;
  to: string;
  id: string;
  deleted: boolean;
}

/** The day every campaign event is on (the checks read this window back). */
export const EVENT_DAY = '2026-11-23';

/** Outcome of a write as the client answered it. */
export type Outcome = 'acked' | 'noop' | 'refused' | 'unknown';

export interface WriteRecord {
  client: number;
  step: number;
  channel: string;
  intent: Intent;
  outcome: Outcome;
  /** ms since the run started, when the write was asked and answered. */
  at: number;
  answeredAt: number;
  /** The refusal or failure text when not acked. */
  note?: string;
}

export interface SharedTask {
  id: string;
  name: string;
}

/** A rename of a shared task (names are unique per client: the journal check relies on it). */
export function renameShared(task: SharedTask, title: string): Step {
  return {
    channel: 'tasks.update',
    arg: { taskId: task.id, changes: { title } },
    intent: { type: 'field', task: { shared: task.id }, field: 'name', value: title },
    expect: { kind: 'field', taskId: task.id, field: 'name', value: title },
  };
}

export interface ClientWorkload {
  /** The next step, or `sync` for a pull; undefined when the client has nothing left to do. */
  next(): Step | 'sync' | undefined;
  /** Tells the model how the step ended (ids of creates, deletes). */
  settle(step: Step, outcome: Outcome, createdId?: string): void;
  own: OwnTask[];
  records: OwnRecord[];
  dependencies: OwnDependency[];
}

export function clientWorkload(options: {
  client: number;
  run: string;
  steps: number;
  random: () => number;
  projectId: string;
  shared: SharedTask[];
  /** The user the client acts as (never removed from its own projects: it owns them). */
  userId: string;
  /**
   * Ids of the documents the service may hold (written there during the run; each may not exist
   * yet or be deleted already): what the client opens. Fixed, so a seed makes the same choices.
   */
  documents?: readonly string[];
}): ClientWorkload {
  const { client, run, random, projectId, shared } = options;
  const own: OwnTask[] = [];
  const records: OwnRecord[] = [];
  const dependencies: OwnDependency[] = [];
  /**
   * Links whose create had an unknown outcome (the client died while asked): maybe stored and
   * sent. Not made again, or the service refuses the second as existing (campaign seed 91528).
   */
  const maybeLinked = new Set<string>();
  let step = 0;
  let n = 0;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const live = () => own.filter((t) => !t.deleted);
  const tag = (s: string) => `${run}-c${client}-${s}`;

  function anyTask(): { ref: TaskRef; id: string } {
    const mine = live();
    if (mine.length && random() < 0.6) {
      const t = pick(mine);
      return { ref: { own: t.title }, id: t.id };
    }
    const s = pick(shared);
    return { ref: { shared: s.id }, id: s.id };
  }

  /** Creates, field edits, member changes and deletes of events, CRM records and projects. */
  function recordStep(): Step {
    const kind = pick(RECORD_KINDS);
    const mine = records.filter((r) => r.kind === kind && !r.deleted);
    const roll = random();
    if (mine.length && roll < 0.6) {
      const r = pick(mine);
      const edit = (field: string, value: unknown, channel: string, arg: unknown): Step => ({
        channel,
        arg,
        intent: { type: 'recordField', kind, name: r.name, field, value },
      });
      const remove = (channel: string, arg: unknown): Step => ({
        channel,
        arg,
        intent: { type: 'recordDelete', kind, name: r.name },
      });
      const text = tag(`v${step}`);
      switch (kind) {
        case 'event':
          return remove('events.delete', { eventId: r.id });
        case 'contact':
          return roll < 0.45
            ? edit('lastName', text, 'crm.updateContact', { contactId: r.id, changes: { lastName: text } })
            : remove('crm.deleteContact', { contactId: r.id });
        case 'account':
          return roll < 0.45
            ? edit('website', text, 'crm.updateAccount', { accountId: r.id, changes: { website: text } })
            : remove('crm.deleteAccount', { accountId: r.id });
        case 'project': {
          if (roll < 0.25) {
            const priority = 1 + Math.floor(random() * 10);
            return edit('priority', priority, 'projects.update', { projectId: r.id, changes: { priority } });
          }
          // Membership: add someone, or remove one the client added.
          const others = MEMBERS.filter((u) => u !== options.userId);
          const added = r.members.length && random() < 0.5 ? pick(r.members) : undefined;
          if (added)
            return edit(`member:${added}`, false, 'members.remove', { projectId: r.id, userId: added });
          const userId = pick(others);
          return edit(`member:${userId}`, true, 'members.add', { projectId: r.id, userId, access: 2 });
        }
      }
    }
    const name = tag(`${kind[0]}${step}`);
    const create = (channel: string, arg: unknown): Step => ({
      channel,
      arg,
      intent: { type: 'recordCreate', kind, name },
    });
    switch (kind) {
      case 'event':
        return create('events.create', {
          eventType: 'company-event',
          name,
          startDate: EVENT_DAY,
          endDate: EVENT_DAY,
        });
      case 'contact':
        return create('crm.createContact', { firstName: name });
      case 'account':
        return create('crm.createAccount', { name });
      case 'project':
        return create('projects.create', {
          name,
          projectTemplateId: SEED_IDS.templates.project,
          parentProjectId: projectId,
        });
    }
  }

  /**
   * A dependency between two live items of the client (tasks or events, either end: the service
   * links any two kinds), or the deletion of one it made.
   */
  function dependencyStep(): Step | undefined {
    const liveDeps = dependencies.filter((d) => !d.deleted);
    if (liveDeps.length && random() < 0.35) {
      const d = pick(liveDeps);
      return {
        channel: 'dependencies.delete',
        arg: { dependencyId: d.id },
        intent: { type: 'dependency', from: d.from, to: d.to, present: false },
      };
    }
    const tasks = live().map((t) => ({ kind: 'task', name: t.title, id: t.id }));
    const events = records
      .filter((r) => r.kind === 'event' && !r.deleted)
      .map((r) => ({ kind: 'event', name: r.name, id: r.id }));
    // Each end an event half the time when there are any (a client holds far fewer events than
    // tasks): task-task, task-event, event-task and event-event links all occur.
    const end = (not?: { id: string }) => {
      const list = (events.length && random() < 0.5 ? events : tasks).filter((x) => x !== not);
      return list.length ? pick(list) : undefined;
    };
    const from = end();
    const to = from && end(from);
    if (!from || !to) return undefined;
    if (dependencies.some((d) => !d.deleted && d.from === from.name && d.to === to.name)) return undefined;
    if (maybeLinked.has(`${from.name}\n${to.name}`)) return undefined;
    return {
      channel: 'dependencies.create',
      arg: {
        type: 5,
        predecessor: { kind: from.kind, id: from.id },
        successor: { kind: to.kind, id: to.id },
      },
      intent: { type: 'dependency', from: from.name, to: to.name, present: true },
    };
  }

  function make(): Step | 'sync' {
    if (random() < 0.16) return recordStep();
    if (random() < 0.1) {
      const d = dependencyStep();
      if (d) return d;
    }
    const docs = options.documents ?? [];
    if (random() < 0.04 && docs.length) {
      // Earlier ids more often: the service creates them in order, so they exist for longer.
      const documentId = docs[Math.floor(random() ** 2 * docs.length)]!;
      return { channel: 'documents.get', arg: { documentId }, intent: { type: 'open', documentId } };
    }
    if (random() < 0.06) {
      // Time reports have no idempotency key either: each is logged once, whatever is lost.
      const { ref, id } = anyTask();
      const note = tag(`time${step}`);
      const minutes = 5 * (1 + Math.floor(random() * 24));
      return {
        channel: 'time.log',
        arg: { taskId: id, minutes, date: formatLocalDate(new Date()), message: note },
        intent: { type: 'timeReport', task: ref, note, minutes },
      };
    }
    const roll = random() * 100;
    const mine = live();
    if (roll < 8) return 'sync';
    if (roll < 26 || mine.length === 0) {
      const title = tag(`t${n++}`);
      const parents = mine.filter((t) => t.parent === null);
      const parent = parents.length && random() < 0.4 ? pick(parents) : null;
      return {
        channel: 'tasks.create',
        arg: { projectId, title, ...(parent ? { parentTaskId: parent.id } : {}) },
        intent: { type: 'create', title, parent: parent?.title ?? null },
        expect: { kind: 'field', field: 'name', value: title },
      };
    }
    if (roll < 42) {
      // Overlapping writes: every client edits the same fields of the shared tasks.
      const s = pick(shared);
      if (random() < 0.5) {
        const priority = 1 + Math.floor(random() * 10);
        return {
          channel: 'tasks.update',
          arg: { taskId: s.id, changes: { priority } },
          intent: { type: 'field', task: { shared: s.id }, field: 'priority', value: priority },
          expect: { kind: 'field', taskId: s.id, field: 'priority', value: priority },
        };
      }
      return renameShared(s, tag(`name${step}`));
    }
    if (roll < 56) {
      const { ref, id } = anyTask();
      const text = tag(`m${step}`);
      if (random() < 0.15 && 'own' in ref) {
        // A comment with a dropped file: staged into the spool, uploaded when the entry is sent.
        const file = `${text}.txt`;
        return {
          channel: 'attachments.comment',
          arg: { taskId: id, message: text, files: [] },
          intent: { type: 'message', task: ref, text, files: [file] },
          expect: { kind: 'message', taskId: id, text },
          stage: { name: file },
        };
      }
      if (random() < 0.7)
        return {
          channel: 'tasks.comment',
          arg: { taskId: id, message: text },
          intent: { type: 'message', task: ref, text },
          expect: { kind: 'message', taskId: id, text },
        };
      return {
        channel: 'tasks.reply',
        arg: { taskId: id, actionRequiredUserId: pick(REPLY_USERS), message: text },
        intent: { type: 'message', task: ref, text },
        expect: { kind: 'message', taskId: id, text },
      };
    }
    const t = pick(mine);
    const ref: TaskRef = { own: t.title };
    if (roll < 64) {
      const priority = 1 + Math.floor(random() * 10);
      return {
        channel: 'tasks.update',
        arg: { taskId: t.id, changes: { priority } },
        intent: { type: 'field', task: ref, field: 'priority', value: priority },
        expect: { kind: 'field', taskId: t.id, field: 'priority', value: priority },
      };
    }
    if (roll < 72) {
      const statusId = pick(STATUSES);
      const message = random() < 0.5 ? tag(`s${step}`) : undefined;
      return {
        channel: 'tasks.setStatus',
        arg: { taskId: t.id, statusId, ...(message ? { message } : {}) },
        intent: { type: 'field', task: ref, field: 'statusId', value: statusId },
        expect: { kind: 'field', taskId: t.id, field: 'statusId', value: statusId },
      };
    }
    if (roll < 82) {
      const tagId = pick(TAGS);
      const present = random() < 0.6;
      return {
        channel: present ? 'tasks.addTag' : 'tasks.removeTag',
        arg: { taskId: t.id, tagId },
        intent: { type: 'tag', task: ref, tagId, present },
        expect: { kind: 'tag', taskId: t.id, tagId, present },
      };
    }
    if (roll < 92) {
      const refused = random() < 0.2;
      const fieldId = refused ? NUMBER_FIELD : TEXT_FIELD;
      const value = refused ? `not a number ${step}` : tag(`cf${step}`);
      return {
        channel: 'tasks.setCustomFields',
        arg: { taskId: t.id, values: [{ id: fieldId, value }] },
        intent: { type: 'customField', task: ref, fieldId, value, refused },
        expect: { kind: 'customField', taskId: t.id, fieldId, value },
      };
    }
    return {
      channel: 'tasks.delete',
      arg: { taskId: t.id },
      intent: { type: 'delete', task: ref },
      expect: { kind: 'gone', taskId: t.id },
    };
  }

  return {
    own,
    records,
    dependencies,
    next() {
      if (step >= options.steps) return undefined;
      step++;
      return make();
    },
    settle(s, outcome, createdId) {
      // An unknown outcome may or may not have been written locally; the model follows what
      // the client would show, so it keeps a create only when its id is known, and counts a
      // delete or removal as done.
      const done = outcome === 'acked' || outcome === 'unknown';
      const intent = s.intent;
      switch (intent.type) {
        case 'create':
          if (outcome === 'acked' && createdId)
            own.push({ title: intent.title, id: createdId, parent: intent.parent, deleted: false });
          break;
        case 'recordCreate':
          if (outcome === 'acked' && createdId)
            records.push({
              kind: intent.kind,
              name: intent.name,
              id: createdId,
              deleted: false,
              members: [],
            });
          break;
        case 'recordDelete':
          if (!done) break;
          for (const r of records) if (r.kind === intent.kind && r.name === intent.name) r.deleted = true;
          // The service drops an event's dependencies with it.
          for (const d of dependencies) if (d.from === intent.name || d.to === intent.name) d.deleted = true;
          break;
        case 'recordField': {
          const r = records.find((x) => x.kind === intent.kind && x.name === intent.name);
          const user = intent.field.startsWith('member:') ? intent.field.slice(7) : undefined;
          if (!r || !user) break;
          // A member is added for the model only once surely added; removed when maybe removed.
          if (intent.value === true && outcome === 'acked' && !r.members.includes(user)) r.members.push(user);
          if (intent.value === false && done) r.members = r.members.filter((u) => u !== user);
          break;
        }
        case 'dependency':
          if (intent.present && outcome === 'acked' && createdId)
            dependencies.push({ from: intent.from, to: intent.to, id: createdId, deleted: false });
          if (intent.present && outcome === 'unknown') maybeLinked.add(`${intent.from}\n${intent.to}`);
          if (!intent.present && done)
            for (const d of dependencies) if (d.from === intent.from && d.to === intent.to) d.deleted = true;
          break;
        case 'delete': {
          if (!done) break;
          const title = 'own' in intent.task ? intent.task.own : undefined;
          for (const t of own) if (t.title === title || t.parent === title) t.deleted = true;
          for (const d of dependencies)
            if (own.some((t) => t.deleted && (t.title === d.from || t.title === d.to))) d.deleted = true;
          break;
        }
        default:
          break;
      }
    },
  };
}
