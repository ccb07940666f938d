// Undo and redo of data edits, as pure logic: which edit a write was and how to take it back,
// and the history Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z walk. The store (`state/undo.ts`) binds it to
// the app's write path, toasts and keys.
//
// How an edit is taken back: by another write built from what the first one replaced, which the
// core answers with the write (`replaced`: the values the cache held before). The core decides
// whether that sends anything: while the first change still waits in the outbox, the two cancel
// and both are withdrawn; once it was sent, the inverse is an ordinary change whose base is the
// value we sent, so a colleague's newer change meets the check before a send (a conflict in the
// journal, never a silent overwrite). A delete (task, event, CRM record) waits a few seconds in
// the outbox: its undo discards the waiting entry. A create is undone by discarding it while it
// waits, else by a delete the user confirms. Kinds that are not field claims (memberships) are
// discarded while they are the last waiting change of their item, else taken back by the
// inverse write. The undo's own answer builds the redo, the same way.
import type { ChannelInput, ChannelName, ChannelOutput } from '@shared/ipc/contract';
import { TASK_DELETE_HOLD_MS } from '@shared/ipc/tasks-write';
import type { WriteOutcome } from './run-write';

/** A write the core accepted: what a view asked and what the core answered. */
export interface DoneWrite<C extends ChannelName = ChannelName> {
  channel: C;
  input: ChannelInput<C>;
  value: ChannelOutput<C>;
}

/** What the history needs of the app: writes that are not recorded, and a yes/no question. */
export interface UndoPorts {
  /** Runs a write without recording it (an undo's or a redo's own write). */
  run<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<WriteOutcome<ChannelOutput<C>>>;
  /**
   * Asks the user (a create already sent is undone by a delete: "Delete the task you created?"),
   * with the words of the button that says yes ("Delete task").
   */
  confirm(message: string, confirmLabel: string): Promise<boolean>;
}

/** The result of taking an edit back (or doing it again). */
export type Reversal =
  | {
      ok: true;
      /** The edit that reverses this one again (redo after undo); null when none. */ reverse: Undoable | null;
      /** What the user should know of how it was taken back ("its message stays on the task"). */
      note?: string | undefined;
    }
  | { ok: false; /** Why, in words; undefined when the user declined. */ reason?: string | undefined };

/** One edit that can be taken back. */
export interface Undoable {
  /** What the edit did, in words ("Marked Done", "Moved to Website"). */
  readonly label: string;
  /** When set (ms since the epoch), the edit can no longer be taken back after this instant. */
  readonly until?: number | undefined;
  reverse(ports: UndoPorts): Promise<Reversal>;
}

type Write<C extends ChannelName> = Omit<DoneWrite<C>, 'value'> & { value: ChannelOutput<C> };

/** Longest title an undo's words quote whole; a longer one is cut at a word with "…". */
export const QUOTED_TITLE_MAX = 40;

/** A task's title as an undo's words quote it: 'Write the brief', long ones shortened. */
export function quoted(title: string, max = QUOTED_TITLE_MAX): string {
  const text = title.trim().replace(/\s+/g, ' ');
  if (text.length <= max) return `'${text}'`;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `'${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…'`;
}

function is<C extends ChannelName>(write: DoneWrite, channel: C): write is Write<C> {
  return write.channel === channel;
}

/** The write answered that it changed nothing (a tag the task had, a value it held). */
function changedNothing(value: { entryId: number | null; withdrawn?: boolean | undefined }): boolean {
  return value.entryId === null && !value.withdrawn;
}

/**
 * The updates of one item whose undo is the same update with the values it replaced (the core
 * answers them), and the input field that names the item.
 */
const ITEM_UPDATES = {
  'projects.update': 'projectId',
  'crm.updateContact': 'contactId',
  'crm.updateAccount': 'accountId',
} as const;
type ItemUpdate = keyof typeof ITEM_UPDATES;

function isItemUpdate(write: DoneWrite): write is Write<ItemUpdate> {
  return write.channel in ITEM_UPDATES;
}

function itemUpdateBack(write: Write<ItemUpdate>, label: string): Undoable | null {
  const { replaced } = write.value;
  if (!replaced || changedNothing(write.value)) return null;
  const idKey = ITEM_UPDATES[write.channel];
  const id = (write.input as Record<string, unknown>)[idKey];
  const back = { [idKey]: id, changes: replaced } as ChannelInput<ItemUpdate>;
  return writeBack(label, write.channel, back, label);
}

/** Runs `channel` and, when accepted, answers the edit that takes that write back. */
function writeBack<C extends ChannelName>(
  label: string,
  channel: C,
  input: ChannelInput<C>,
  reverseLabel: string,
  options: { until?: number; noteIfSent?: string } = {},
): Undoable {
  return {
    label,
    ...(options.until !== undefined ? { until: options.until } : {}),
    async reverse(ports) {
      const outcome = await ports.run(channel, input);
      if (!outcome.ok) return { ok: false, reason: reasonOf(outcome.error) };
      const done = { channel, input, value: outcome.value } as DoneWrite;
      const withdrawn = (outcome.value as { withdrawn?: boolean }).withdrawn === true;
      const note = withdrawn ? 'nothing was sent' : options.noteIfSent;
      return { ok: true, reverse: undoableOf(done, reverseLabel), ...(note ? { note } : {}) };
    },
  };
}

function reasonOf(error: unknown): string | undefined {
  return error instanceof Error ? error.message : undefined;
}

/**
 * The edit a write made, as something that can be taken back, or null when it cannot (a write
 * that changed nothing, or one no undo is built for: comments, replies, files are messages
 * others may have read already). `label` says what the edit did. Task edits, and the field edits
 * of a project, a CRM contact and a CRM account, each put back what the core answered replaced;
 * creates, deletes, memberships and event edits have their own ways below.
 */
export function undoableOf(write: DoneWrite, label: string, now: () => number = Date.now): Undoable | null {
  if (is(write, 'tasks.update')) {
    const { replaced } = write.value;
    if (!replaced || changedNothing(write.value)) return null;
    const back = { taskId: write.input.taskId, changes: replaced as ChannelInput<'tasks.update'>['changes'] };
    return writeBack(label, 'tasks.update', back, label);
  }
  if (is(write, 'tasks.setStatus')) return statusUndoable(write, label);
  if (is(write, 'tasks.setCustomFields')) {
    const { replaced } = write.value;
    if (!replaced || changedNothing(write.value)) return null;
    const values = Object.entries(replaced).map(([id, value]) => ({ id, value }));
    return writeBack(label, 'tasks.setCustomFields', { taskId: write.input.taskId, values }, label);
  }
  if (is(write, 'tasks.addTag') || is(write, 'tasks.removeTag')) {
    if (changedNothing(write.value)) return null;
    const back = write.channel === 'tasks.addTag' ? 'tasks.removeTag' : 'tasks.addTag';
    return writeBack(label, back, { ...write.input, undo: true }, label);
  }
  if (isItemUpdate(write)) return itemUpdateBack(write, label);
  if (is(write, 'projects.setCustomFields')) {
    const { replaced } = write.value;
    if (!replaced || changedNothing(write.value)) return null;
    const values = Object.entries(replaced).map(([id, value]) => ({ id, value }));
    return writeBack(label, 'projects.setCustomFields', { projectId: write.input.projectId, values }, label);
  }
  if (is(write, 'members.add') || is(write, 'members.setAccess') || is(write, 'members.remove'))
    return memberUndoable(write, label);
  if (is(write, 'events.edit')) return eventEditUndoable(write, label);
  if (is(write, 'tasks.delete')) return deleteUndoable(write, label, now);
  if (is(write, 'crm.deleteContact') || is(write, 'crm.deleteAccount'))
    return deleteUndoable(write, label, now);
  if (is(write, 'events.delete')) return eventDeleteUndoable(write, label);
  if (isCreate(write)) return createUndoable(write, label);
  return null;
}

/**
 * A status change is set back, marked as an undo: while the change waits, one that carried a
 * message is withdrawn with it (nothing was posted), and its redo makes the change again with
 * its message. Once sent, the message stays (the service can neither edit nor delete a
 * message), so the redo sets the status again without posting it a second time.
 */
function statusUndoable(write: Write<'tasks.setStatus'>, label: string): Undoable | null {
  const was = write.value.replaced?.['statusId'];
  if (typeof was !== 'string') return null;
  const { taskId, statusId, message } = write.input;
  return {
    label,
    async reverse(ports) {
      const back = { taskId, statusId: was, undo: true };
      const outcome = await ports.run('tasks.setStatus', back);
      if (!outcome.ok) return { ok: false, reason: reasonOf(outcome.error) };
      if (outcome.value.withdrawn === true) {
        const again = { taskId, statusId, ...(message ? { message } : {}) };
        return {
          ok: true,
          note: 'nothing was sent',
          reverse: writeBack(label, 'tasks.setStatus', again, label),
        };
      }
      const done = { channel: 'tasks.setStatus', input: back, value: outcome.value } as DoneWrite;
      return {
        ok: true,
        reverse: undoableOf(done, label),
        ...(message ? { note: 'its message stays on the task' } : {}),
      };
    },
  };
}

/**
 * The waiting entry `entryId`, when it is the last change of its item still waiting: discarding
 * it then rolls back only this write. Answers 'sending' while it is under way, undefined when it
 * is gone (sent) or a later change of the same item waits behind it.
 */
async function waitingEntry(ports: UndoPorts, entryId: number): Promise<'waiting' | 'sending' | undefined> {
  const pending = await ports.run('outbox.pending', {});
  if (!pending.ok) return undefined;
  const entry = pending.value.find((e) => e.id === entryId);
  if (!entry) return undefined;
  if (entry.state !== 'pending') return entry.state === 'in_flight' ? 'sending' : undefined;
  const later = pending.value.some((e) => e.id > entryId && e.entityKey === entry.entityKey);
  return later ? undefined : 'waiting';
}

const BEING_SENT = 'It is being sent right now; try again in a moment.';

/**
 * A membership change (add, access, remove): while it waits, its undo discards it (nothing is
 * sent); once sent, it queues the membership the user had before (`replaced.access`, null: none).
 * The service adds a member with access 1-3 only: one who was read-only comes back in two steps.
 * Each write the undo (or the redo) queues names the access it expects the member to have on
 * the service (`expectAccess`): when someone changed the membership since, the core refuses it
 * as a conflict shown in Changes instead of sending it over their change.
 */
function memberUndoable(
  write: Write<'members.add'> | Write<'members.setAccess'> | Write<'members.remove'>,
  label: string,
): Undoable | null {
  const { entryId, replaced } = write.value;
  if (entryId === null || !replaced || !('access' in replaced)) return null;
  const was = replaced['access'];
  if (was !== null && typeof was !== 'number') return null;
  const { projectId, userId } = write.input;
  const set = write.channel === 'members.remove' ? null : (write.input.access as AccessLevel);
  const again = writeBack(
    label,
    write.channel,
    { ...write.input, expectAccess: was as AccessLevel | null },
    label,
  );
  return {
    label,
    async reverse(ports) {
      const state = await waitingEntry(ports, entryId);
      if (state === 'sending') return { ok: false, reason: BEING_SENT };
      if (state === 'waiting' && (await ports.run('outbox.discard', { id: entryId })).ok)
        return { ok: true, note: 'nothing was sent', reverse: again };
      let outcome: WriteOutcome<unknown>;
      if (was === null) outcome = await ports.run('members.remove', { projectId, userId, expectAccess: set });
      else if (write.channel !== 'members.remove')
        outcome = await ports.run('members.setAccess', {
          projectId,
          userId,
          access: was as AccessLevel,
          expectAccess: set,
        });
      else {
        const access = was >= 1 ? (was as 1 | 2 | 3) : 1;
        outcome = await ports.run('members.add', { projectId, userId, access, expectAccess: null });
        if (outcome.ok && was < 1)
          outcome = await ports.run('members.setAccess', {
            projectId,
            userId,
            access: was as AccessLevel,
            expectAccess: access,
          });
      }
      if (!outcome.ok) return { ok: false, reason: reasonOf(outcome.error) };
      return { ok: true, reverse: again };
    },
  };
}
type AccessLevel = ChannelInput<'members.setAccess'>['access'];

/**
 * Deletes wait `TASK_DELETE_HOLD_MS` in the outbox before they are sent: within that window the
 * undo discards the waiting entry (the task comes back as it was); after it, the service no
 * longer has the task and nothing can bring it back.
 */
export const DELETE_UNDO_MARGIN_MS = 500;

type HeldDelete = 'tasks.delete' | 'crm.deleteContact' | 'crm.deleteAccount';

function deleteUndoable<C extends HeldDelete>(
  write: Write<C>,
  label: string,
  now: () => number,
): Undoable | null {
  const entryId = write.value.entryId;
  if (entryId === null) return null;
  const until = now() + TASK_DELETE_HOLD_MS - DELETE_UNDO_MARGIN_MS;
  return {
    label,
    until,
    async reverse(ports) {
      const outcome = await ports.run('outbox.discard', { id: entryId });
      if (!outcome.ok)
        return { ok: false, reason: 'It was already deleted on the service and cannot come back.' };
      return {
        ok: true,
        reverse: {
          label,
          async reverse(again) {
            const redo = await again.run(write.channel, write.input);
            if (!redo.ok) return { ok: false, reason: reasonOf(redo.error) };
            return {
              ok: true,
              reverse: deleteUndoable({ ...write, value: redo.value } as Write<C>, label, now),
            };
          },
        },
      };
    },
  };
}

/**
 * An event's edit is a create of the new event and a delete of the old (the service has no
 * update). While the create still waits, its undo discards it, and the delete queued behind it
 * goes with it: the old event is back as it was. Once sent, the undo is the edit the other way:
 * the old event made again from what the edit answered it replaced, the new one deleted (the
 * old event comes back under a new id; dependencies it had stay lost, as the edit warned).
 */
function eventEditUndoable(write: Write<'events.edit'>, label: string): Undoable | null {
  const { entryId, id, replaced } = write.value;
  if (entryId === null || !replaced) return null;
  return {
    label,
    async reverse(ports) {
      const pending = await ports.run('outbox.pending', {});
      const waiting = pending.ok && pending.value.some((e) => e.id === entryId && e.state === 'pending');
      if (waiting) {
        const discarded = await ports.run('outbox.discard', { id: entryId });
        if (discarded.ok)
          return {
            ok: true,
            note: 'nothing was sent',
            reverse: writeBack(label, 'events.edit', write.input, label),
          };
      }
      if (pending.ok && pending.value.some((e) => e.id === entryId))
        return { ok: false, reason: 'It is being sent right now; try again in a moment.' };
      const back = { eventId: id, input: replaced as ChannelInput<'events.edit'>['input'] };
      const outcome = await ports.run('events.edit', back);
      if (!outcome.ok) return { ok: false, reason: reasonOf(outcome.error) };
      return {
        ok: true,
        reverse: undoableOf({ channel: 'events.edit', input: back, value: outcome.value }, label),
      };
    },
  };
}

/**
 * Creates an undo can take back: the channel that deletes what it made and the input naming it
 * (null: the service has no delete of it, a project or a folder), and the item's word.
 */
const CREATES = {
  'tasks.create': {
    noun: 'task',
    remove: (id: string) => ({ channel: 'tasks.delete', input: { taskId: id } }),
  },
  'events.create': {
    noun: 'event',
    remove: (id: string) => ({ channel: 'events.delete', input: { eventId: id } }),
  },
  'crm.createContact': {
    noun: 'contact',
    remove: (id: string) => ({ channel: 'crm.deleteContact', input: { contactId: id } }),
  },
  'crm.createAccount': {
    noun: 'account',
    remove: (id: string) => ({ channel: 'crm.deleteAccount', input: { accountId: id } }),
  },
  'projects.create': { noun: 'project', remove: null },
  'projects.createFolder': { noun: 'folder', remove: null },
} as const;
type Create = keyof typeof CREATES;

function isCreate(write: DoneWrite): write is Write<Create> {
  return write.channel in CREATES;
}

/**
 * A create still waiting is withdrawn with everything queued on its item: nothing reaches the
 * service. Once sent, the undo is a delete the user confirms (the deleted item cannot come back),
 * or, where the service deletes no such item (a project), it cannot be taken back and says so.
 * The redo of either makes the item again from what the user typed: a new item (a new number
 * once sent), which the toast says when the first one had reached the service.
 */
function createUndoable(write: Write<Create>, label: string): Undoable | null {
  const { entryId, id } = write.value;
  if (entryId === null) return null;
  const { noun, remove } = CREATES[write.channel];
  return {
    label,
    async reverse(ports) {
      const pending = await ports.run('outbox.pending', {});
      const waiting = pending.ok && pending.value.some((e) => e.id === entryId && e.state === 'pending');
      if (waiting) {
        const discarded = await ports.run('outbox.discard', { id: entryId });
        if (discarded.ok) return { ok: true, reverse: writeBack(label, write.channel, write.input, label) };
      }
      const being = pending.ok && pending.value.some((e) => e.id === entryId);
      if (being) return { ok: false, reason: BEING_SENT };
      if (!remove)
        return { ok: false, reason: `It was sent already, and this service cannot delete a ${noun}.` };
      const yes = await ports.confirm(
        `Delete the ${noun} you created? It was sent already, so it cannot come back.`,
        `Delete ${noun}`,
      );
      if (!yes) return { ok: false };
      const { channel, input } = remove(id) as { channel: ChannelName; input: ChannelInput<ChannelName> };
      const deleted = await ports.run(channel, input);
      if (!deleted.ok) return { ok: false, reason: reasonOf(deleted.error) };
      const again = writeBack(label, write.channel, write.input, label, {
        noteIfSent: `it was made again as a new ${noun}`,
      });
      return { ok: true, reverse: again, note: `the ${noun} was deleted on the service` };
    },
  };
}

/**
 * An event delete waits a few seconds in the outbox: within them its undo discards the waiting
 * entry and the event is back as it was, links included. After that the service no longer has
 * it, and the undo makes it again from what the delete answered it replaced (under a new id;
 * the links to other items the delete took stay lost, and the toast says so).
 */
function eventDeleteUndoable(write: Write<'events.delete'>, label: string): Undoable | null {
  const { entryId, replaced } = write.value;
  if (entryId === null) return null;
  return {
    label,
    async reverse(ports) {
      const state = await waitingEntry(ports, entryId);
      if (state === 'sending') return { ok: false, reason: BEING_SENT };
      if (state === 'waiting' && (await ports.run('outbox.discard', { id: entryId })).ok)
        return {
          ok: true,
          note: 'nothing was sent',
          reverse: writeBack(label, 'events.delete', write.input, label),
        };
      if (!replaced)
        return { ok: false, reason: 'It was already deleted on the service and cannot come back.' };
      const input = replaced as ChannelInput<'events.create'>;
      const made = await ports.run('events.create', input);
      if (!made.ok) return { ok: false, reason: reasonOf(made.error) };
      const { id } = made.value;
      return {
        ok: true,
        note: 'it was made again as a new event; links to other items are not restored',
        reverse: writeBack(label, 'events.delete', { eventId: id }, label),
      };
    },
  };
}

/** Several edits made as one (a bulk edit): taken back together, last first. */
export function undoableGroup(label: string, items: readonly Undoable[]): Undoable | null {
  if (items.length === 0) return null;
  if (items.length === 1) return { ...items[0]!, label, reverse: (p) => items[0]!.reverse(p) };
  const untils = items.map((i) => i.until).filter((u): u is number => u !== undefined);
  return {
    label,
    ...(untils.length ? { until: Math.min(...untils) } : {}),
    async reverse(ports) {
      const reversed: Undoable[] = [];
      let failed: string | undefined;
      let failures = 0;
      const notes = new Set<string>();
      for (const item of [...items].reverse()) {
        const result = await item.reverse(ports);
        if (result.ok) {
          if (result.reverse) reversed.push(result.reverse);
          if (result.note) notes.add(result.note);
        } else {
          failures++;
          failed ??= result.reason;
        }
      }
      if (failures === items.length) return { ok: false, reason: failed };
      // Reversed last first, so the reverse group (undone last first too) redoes in the first order.
      // Some withdrawn and some reverted: say what was not withdrawn (a message that stays).
      if (notes.size > 1) notes.delete('nothing was sent');
      const note = [...notes].join('; ');
      return { ok: true, reverse: undoableGroup(label, reversed), ...(note ? { note } : {}) };
    },
  };
}

/** What an undo or a redo did, for its toast. */
export type HistoryResult =
  | {
      done: 'undo' | 'redo';
      label: string;
      /** The edit taken back or done again. */ item?: Undoable;
      note?: string | undefined;
    }
  | { done: 'nothing'; direction: 'undo' | 'redo' }
  | { done: 'failed'; direction: 'undo' | 'redo'; label: string; reason?: string | undefined };

/**
 * The edits that can be undone (newest last) and those undone that can be redone. A new edit
 * clears the redo list, as in every editor. Steps run one at a time, in the order asked.
 */
export class UndoHistory {
  readonly #done: Undoable[] = [];
  #undone: Undoable[] = [];
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ports: UndoPorts,
    private readonly now: () => number = Date.now,
    private readonly limit = 100,
  ) {}

  get canUndo(): boolean {
    return this.#live().length > 0;
  }

  get canRedo(): boolean {
    return this.#undone.length > 0;
  }

  /** Records an edit just made. */
  push(item: Undoable): void {
    this.#done.push(item);
    if (this.#done.length > this.limit) this.#done.splice(0, this.#done.length - this.limit);
    this.#undone = [];
  }

  /** Whether an edit can still be taken back (it is in the history and its window is open). */
  canTake(item: Undoable): boolean {
    return this.#done.includes(item) && (item.until === undefined || item.until > this.now());
  }

  /** Undoes the latest edit, or `item` (a toast's Undo) wherever it is in the history. */
  undo(item?: Undoable): Promise<HistoryResult> {
    return this.#step(() => {
      // A toast's edit whose window closed is answered "too late" rather than nothing.
      const target = item ?? this.#live().at(-1);
      if (!target || !this.#done.includes(target)) return undefined;
      this.#done.splice(this.#done.indexOf(target), 1);
      return target;
    }, 'undo');
  }

  redo(): Promise<HistoryResult> {
    return this.#step(() => this.#undone.pop(), 'redo');
  }

  #step(take: () => Undoable | undefined, direction: 'undo' | 'redo'): Promise<HistoryResult> {
    const run = this.#chain.then(async (): Promise<HistoryResult> => {
      const target = take();
      if (!target) return { done: 'nothing', direction };
      if (target.until !== undefined && target.until <= this.now()) {
        return {
          done: 'failed',
          direction,
          label: target.label,
          reason: 'It is too late: it was sent to the service and cannot come back.',
        };
      }
      const result = await target.reverse(this.ports);
      if (!result.ok) return { done: 'failed', direction, label: target.label, reason: result.reason };
      if (result.reverse) {
        if (direction === 'undo') this.#undone.push(result.reverse);
        else this.#done.push(result.reverse);
      }
      return {
        done: direction,
        label: target.label,
        item: target,
        ...(result.note ? { note: result.note } : {}),
      };
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Edits still in their window, oldest first (an expired delete is dropped on the way). */
  #live(): Undoable[] {
    const now = this.now();
    for (let i = this.#done.length - 1; i >= 0; i--) {
      const until = this.#done[i]!.until;
      if (until !== undefined && until <= now) this.#done.splice(i, 1);
    }
    return this.#done;
  }
}

/** Which history step a key press asks for, if any (pure: unit-tested). */
export function undoKeyOf(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  mac: boolean,
): 'undo' | 'redo' | undefined {
  const primary = mac ? event.metaKey : event.ctrlKey;
  if (!primary || event.altKey) return undefined;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !mac && !event.shiftKey) return 'redo';
  return undefined;
}
