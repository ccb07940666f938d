// Ctrl/Cmd+Z undoes the last data edit, Ctrl/Cmd+Shift+Z (and Ctrl+Y off macOS) redoes it,
// except while a text field has the focus: its own undo of the typing wins there.
import { redoEdit, undoEdit } from '../state/undo';
import { isTyping } from './task-shortcuts';

const isMac = (): boolean => navigator.platform.startsWith('Mac');

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

/** Binds the undo keys; returns the unsubscribe. */
export function bindUndoKeys(target: Window = window): () => void {
  const onKey = (event: KeyboardEvent): void => {
    const step = undoKeyOf(event, isMac());
    if (!step || event.defaultPrevented || isTyping(event.target)) return;
    // A dialog's form has its own fields; the history is the app's, not the dialog's.
    if (document.querySelector('dialog[open]')) return;
    event.preventDefault();
    void (step === 'undo' ? undoEdit() : redoEdit());
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
