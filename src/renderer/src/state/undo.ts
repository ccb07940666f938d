// The app's undo history: every accepted write of the one write path (`runWrite`) is recorded
// here with how to take it back (`lib/undo.ts`); Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z (`lib/undo-keys.ts`)
// and the Undo button of an edit's toast walk it. An undo's own writes go through a second
// runner that records nothing, so undoing does not clear what can be redone.
import type { ChannelName } from '@shared/ipc/contract';
import { bridge } from '../lib/bridge';
import { createRunWrite, type WriteRecorder } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';
import { UndoHistory, undoableGroup, undoableOf, type HistoryResult, type Undoable } from '../lib/undo';

/** Asks the user a yes/no question; `UndoConfirm.svelte` answers it with a dialog when mounted. */
export const undoQuestion: { ask: (message: string, confirmLabel: string) => Promise<boolean> } = {
  ask: async () => false,
};

export const undoHistory = new UndoHistory({
  run: createRunWrite(bridge, toasts),
  confirm: (message, confirmLabel) => undoQuestion.ask(message, confirmLabel),
});

/** Labels of writes recorded without one of their own. */
const DEFAULT_LABELS: Partial<Record<ChannelName, string>> = {
  'tasks.update': 'Task changed',
  'tasks.setStatus': 'Status changed',
  'tasks.addTag': 'Tag added',
  'tasks.removeTag': 'Tag removed',
  'tasks.setCustomFields': 'Custom field changed',
  'tasks.delete': 'Task deleted',
  'tasks.create': 'Task created',
  'projects.update': 'Project changed',
  'crm.updateContact': 'Contact changed',
  'crm.updateAccount': 'Account changed',
  'events.edit': 'Event changed',
  'events.create': 'Event created',
  'events.delete': 'Event deleted',
  'crm.createContact': 'Contact created',
  'crm.createAccount': 'Account created',
  'crm.deleteContact': 'Contact deleted',
  'crm.deleteAccount': 'Account deleted',
  'projects.create': 'Project created',
  'projects.createFolder': 'Folder created',
  'projects.setCustomFields': 'Custom field changed',
  'members.add': 'Member added',
  'members.setAccess': 'Access changed',
  'members.remove': 'Member removed',
};

/** While a bulk edit runs (`asOneEdit`), its writes are gathered here instead of recorded alone. */
let gathering: Undoable[] | undefined;

export const recordWrite: WriteRecorder = (write, options) => {
  const label = options.undoLabel ?? DEFAULT_LABELS[write.channel];
  if (!label) return;
  const item = undoableOf(write, label);
  if (!item) return;
  if (gathering) {
    gathering.push(item);
    return;
  }
  undoHistory.push(item);
  if (options.undoToast) offerUndo(item);
};

/**
 * Runs several writes as one edit (a bulk change): one entry in the history, one toast with
 * Undo saying `label(count)` where count is the writes that changed something.
 */
export async function asOneEdit(
  label: (count: number) => string,
  edit: () => Promise<unknown>,
): Promise<void> {
  const outer = gathering;
  const mine: Undoable[] = [];
  gathering = mine;
  try {
    await edit();
  } finally {
    gathering = outer;
  }
  const group = undoableGroup(label(mine.length), mine);
  if (!group) return;
  if (outer) outer.push(group);
  else {
    undoHistory.push(group);
    offerUndo(group);
  }
}

/** The toast offering each edit's Undo, taken down once the edit is undone another way (Ctrl+Z). */
const offered = new WeakMap<Undoable, number>();

/** The edit's toast with an Undo button, on screen no longer than its undo window. */
function offerUndo(item: Undoable): void {
  const ms = item.until === undefined ? 6000 : Math.max(1000, item.until - Date.now());
  offered.set(
    item,
    toasts.show(item.label, 'success', ms, { label: 'Undo', run: () => void undoEdit(item) }),
  );
}

/** Undoes the latest edit, or the given one (a toast's Undo), and says what happened. */
export async function undoEdit(item?: Undoable): Promise<void> {
  const result = await undoHistory.undo(item);
  if (result.done === 'undo') {
    const toast = result.item && offered.get(result.item);
    if (toast !== undefined) toasts.dismiss(toast);
  }
  tell(result);
}

export async function redoEdit(): Promise<void> {
  tell(await undoHistory.redo());
}

function tell(result: HistoryResult): void {
  if (result.done === 'nothing')
    toasts.show(result.direction === 'undo' ? 'Nothing to undo' : 'Nothing to redo');
  else if (result.done === 'failed') {
    if (result.reason !== undefined)
      toasts.show(`Could not ${result.direction} “${result.label}”: ${result.reason}`, 'error');
  } else {
    const note = result.note ? ` (${result.note})` : '';
    // A note the user must read (a message that stays) stays up longer.
    const ms = result.note && result.note !== 'nothing was sent' ? 6000 : 3000;
    toasts.show(`${result.done === 'undo' ? 'Undone' : 'Redone'}: ${result.label}${note}`, 'info', ms);
  }
}
