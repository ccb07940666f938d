// The seeded random workload of one client, and the record of what it asked for. Each step is
// chosen from the client's own view of the run (its live tasks), so the same seed gives the
// same sequence of choices; how the steps interleave with other clients and with faults
// depends on timing, which the replay log records.
import { SEED_IDS } from '../../src/server/seed/index';
import type { Expectation } from '../support/engine-commands';

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
  | { type: 'message'; task: TaskRef; text: string }
  | { type: 'field'; task: TaskRef; field: 'name' | 'priority' | 'statusId'; value: string | number }
  | { type: 'tag'; task: TaskRef; tagId: string; present: boolean }
  | { type: 'customField'; task: TaskRef; fieldId: string; value: unknown; refused: boolean }
  | { type: 'delete'; task: TaskRef }
  | { type: 'eventCreate'; name: string }
  | { type: 'eventDelete'; name: string };

/** A shared task by its real id, or one of the client's own by title. */
export type TaskRef = { shared: string } | { own: string };

export interface Step {
  channel: string;
  arg: unknown;
  intent: Intent;
  /** What the client must read back at once; none for items without a detail read. */
  expect?: Expectation;
}

/** A calendar event the client created. */
export interface OwnEvent {
  name: string;
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

export interface ClientWorkload {
  /** The next step, or `sync` for a pull; undefined when the client has nothing left to do. */
  next(): Step | 'sync' | undefined;
  /** Tells the model how the step ended (ids of creates, deletes). */
  settle(step: Step, outcome: Outcome, createdId?: string): void;
  own: OwnTask[];
  events: OwnEvent[];
}

export function clientWorkload(options: {
  client: number;
  run: string;
  steps: number;
  random: () => number;
  projectId: string;
  shared: SharedTask[];
}): ClientWorkload {
  const { client, run, random, projectId, shared } = options;
  const own: OwnTask[] = [];
  const events: OwnEvent[] = [];
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

  function eventStep(): Step {
    const mine = events.filter((e) => !e.deleted);
    if (mine.length && random() < 0.3) {
      const e = pick(mine);
      return {
        channel: 'events.delete',
        arg: { eventId: e.id },
        intent: { type: 'eventDelete', name: e.name },
      };
    }
    const name = tag(`e${step}`);
    return {
      channel: 'events.create',
      arg: { eventType: 'company-event', name, startDate: EVENT_DAY, endDate: EVENT_DAY },
      intent: { type: 'eventCreate', name },
    };
  }

  function make(): Step | 'sync' {
    if (random() < 0.06) return eventStep();
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
      const title = tag(`name${step}`);
      return {
        channel: 'tasks.update',
        arg: { taskId: s.id, changes: { title } },
        intent: { type: 'field', task: { shared: s.id }, field: 'name', value: title },
        expect: { kind: 'field', taskId: s.id, field: 'name', value: title },
      };
    }
    if (roll < 56) {
      const { ref, id } = anyTask();
      const text = tag(`m${step}`);
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
    events,
    next() {
      if (step >= options.steps) return undefined;
      step++;
      return make();
    },
    settle(s, outcome, createdId) {
      // An unknown outcome may or may not have been written locally; the model follows what
      // the client would show, so it keeps a create only when its id is known.
      if (s.intent.type === 'create' && outcome === 'acked' && createdId) {
        own.push({ title: s.intent.title, id: createdId, parent: s.intent.parent, deleted: false });
      }
      if (s.intent.type === 'eventCreate' && outcome === 'acked' && createdId)
        events.push({ name: s.intent.name, id: createdId, deleted: false });
      if (s.intent.type === 'eventDelete' && (outcome === 'acked' || outcome === 'unknown')) {
        const name = s.intent.name;
        for (const e of events) if (e.name === name) e.deleted = true;
      }
      if (s.intent.type === 'delete' && (outcome === 'acked' || outcome === 'unknown')) {
        const title = 'own' in s.intent.task ? s.intent.task.own : undefined;
        for (const t of own) if (t.title === title || t.parent === title) t.deleted = true;
      }
    },
  };
}
