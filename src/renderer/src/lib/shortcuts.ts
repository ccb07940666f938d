// App-wide keyboard shortcuts: Ctrl (Windows/Linux) or Cmd (macOS) chords, and the plain keys
// that act on the selected task (`task-shortcuts.ts`).
import { dialogs } from '../state/dialogs.svelte';
import { nav, sync, timer } from '../state/app';
import { overlays } from '../state/palette.svelte';
import type { Bridge } from './bridge';
import { focusPlace } from './focus-place';
import { focusLatestNotice, focusSearchBox } from './focus-targets';
import { TASK_KEYS, isTyping, runTaskAction, selectedTask, selectedTaskName } from './task-shortcuts';
import { createGoToReader } from './go-to-keys';
import { appCommands } from '../state/commands';

export function isPrimaryModifier(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey'>): boolean {
  return navigator.platform.startsWith('Mac') ? event.metaKey : event.ctrlKey;
}

/** Binds the global shortcuts; returns the unsubscribe. */
export function bindShortcuts(target: Window = window): () => void {
  const goTo = createGoToReader();
  const onKey = (event: KeyboardEvent): void => {
    if (!event.ctrlKey && !event.metaKey && !event.altKey) {
      if (onGoToKey(event, goTo)) return;
      onPlainKey(event);
      return;
    }
    goTo.reset();
    if (!isPrimaryModifier(event) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === 'n' && !event.shiftKey) {
      event.preventDefault();
      dialogs.openNewTask();
    } else if (key === 'n') {
      if (focusLatestNotice()) event.preventDefault();
    } else if (key === ',') {
      event.preventDefault();
      nav.go({ kind: 'settings' });
    } else if (key === 'k') {
      event.preventDefault();
      overlays.openPalette();
    } else if (key === 'f') {
      if (focusSearchBox()) event.preventDefault();
    }
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}

/**
 * G then I, M, C, T or U (go-to places); never while typing in a field or with a dialog open.
 * True when the key was the sequence's (then it does nothing else: G then C is not C's comment).
 */
function onGoToKey(event: KeyboardEvent, goTo: ReturnType<typeof createGoToReader>): boolean {
  // Shift alone, e.g. on the way to "?", neither starts nor ends a sequence.
  if (event.key === 'Shift') return false;
  if (
    event.shiftKey ||
    event.defaultPrevented ||
    isTyping(event.target) ||
    document.querySelector('dialog[open]')
  ) {
    goTo.reset();
    return false;
  }
  const step = goTo.press(event.key, event.timeStamp);
  if (step.kind === 'none') return false;
  event.preventDefault();
  if (step.kind === 'go')
    appCommands()
      .find((command) => command.id === step.commandId)
      ?.run();
  return true;
}

/** S, A, P, C, O, T on the selected task, unless a field has the keys or a dialog is open. */
function onPlainKey(event: KeyboardEvent): void {
  const action = event.shiftKey ? undefined : TASK_KEYS[event.key.toLowerCase()];
  if (!action || event.defaultPrevented || isTyping(event.target)) return;
  if (document.querySelector('dialog[open]')) return;
  const selected = selectedTask(document, nav.route);
  if (!selected) return;
  event.preventDefault();
  if (action === 'timer')
    void timer.toggle({ taskId: selected.taskId, taskName: selectedTaskName(document, selected) });
  else void runTaskAction(action, selected, nav);
}

/**
 * Follows the native menus' commands and a clicked system notification's task (desktop app);
 * returns the unsubscribe.
 */
export function bindMenuCommands(bridge: Bridge): () => void {
  const offCommands = bridge.on('app.onDidRequestCommand', ({ command }) => {
    if (command === 'new-task') dialogs.openNewTask();
    else if (command === 'settings') nav.go({ kind: 'settings' });
    else if (command === 'sync-now') void sync.syncNow();
    else if (command === 'search') overlays.openPalette();
  });
  // As the action-required toast's Open: the task opens and the focus goes into it.
  const offOpenTask = bridge.on('app.onDidRequestOpenTask', ({ taskId }) => {
    nav.openTask(taskId);
    void focusPlace();
  });
  return () => {
    offCommands();
    offOpenTask();
  };
}
