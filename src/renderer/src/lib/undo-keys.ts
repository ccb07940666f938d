// Ctrl/Cmd+Z undoes the last data edit, Ctrl/Cmd+Shift+Z (and Ctrl+Y off macOS) redoes it,
// except while a text field has the focus: its own undo of the typing wins there.
import { redoEdit, undoEdit } from '../state/undo';
import { isTyping } from './task-shortcuts';
import { undoKeyOf } from './undo';

const isMac = (): boolean => navigator.platform.startsWith('Mac');

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
