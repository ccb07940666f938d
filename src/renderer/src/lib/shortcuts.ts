// App-wide keyboard shortcuts. Ctrl on Windows/Linux, Cmd on macOS.
import { dialogs } from '../state/dialogs.svelte';
import { nav, sync } from '../state/app';
import { overlays } from '../state/palette.svelte';
import type { Bridge } from './bridge';

export function isPrimaryModifier(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey'>): boolean {
  return navigator.platform.startsWith('Mac') ? event.metaKey : event.ctrlKey;
}

/** Binds the global shortcuts; returns the unsubscribe. */
export function bindShortcuts(target: Window = window): () => void {
  const onKey = (event: KeyboardEvent): void => {
    if (!isPrimaryModifier(event) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === 'n' && !event.shiftKey) {
      event.preventDefault();
      dialogs.openNewTask();
    } else if (key === ',') {
      event.preventDefault();
      nav.go({ kind: 'settings' });
    } else if (key === 'k') {
      event.preventDefault();
      overlays.openPalette();
    } else if (key === 'f') {
      const search = document.getElementById('global-search');
      if (search) {
        event.preventDefault();
        search.focus();
      }
    }
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}

/** Follows the native menus' commands (desktop app); returns the unsubscribe. */
export function bindMenuCommands(bridge: Bridge): () => void {
  return bridge.on('app.onDidRequestCommand', ({ command }) => {
    if (command === 'new-task') dialogs.openNewTask();
    else if (command === 'settings') nav.go({ kind: 'settings' });
    else if (command === 'sync-now') void sync.syncNow();
    else if (command === 'search') overlays.openPalette();
  });
}
