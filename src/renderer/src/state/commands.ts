// Every command of the app, declared once: the palette lists and runs them, the shortcuts help
// shows their keys. A command with `keys` is also bound by the shortcut registry (or the
// native menus); the label here is what the palette and the help overlay show.
import { dialogs } from './dialogs.svelte';
import { nav, sync, theme } from './app';
import { overlays } from './palette.svelte';
import { toDayString } from '../lib/format';
import { goToEntries } from '../views/routes';
import { TASK_SHORTCUTS } from '../lib/task-shortcuts';
import { goToKeysOf } from '../lib/go-to-keys';
import { focusLatestNotice, focusSearchBox } from '../lib/focus-targets';
import { tick } from 'svelte';

export interface Command {
  id: string;
  label: string;
  /** Keys as the user presses them, e.g. "Ctrl+N"; shown beside the label. */
  keys?: string | undefined;
  run: () => void;
}

/** "Ctrl" on Windows/Linux, "Cmd" on macOS, as the shortcut registry reads it. */
export function primaryKey(): string {
  return typeof navigator !== 'undefined' && navigator.platform.startsWith('Mac') ? 'Cmd' : 'Ctrl';
}

function thisMonth(): string {
  return toDayString(new Date()).slice(0, 7);
}

export function appCommands(): Command[] {
  const mod = primaryKey();
  return withGoToKeys([
    { id: 'new-task', label: 'New task', keys: `${mod}+N`, run: () => dialogs.openNewTask() },
    { id: 'new-project', label: 'New project', run: () => dialogs.requestCreate('project') },
    { id: 'new-folder', label: 'New folder', run: () => dialogs.requestCreate('folder') },
    {
      id: 'new-event',
      label: 'New calendar event',
      run: () => {
        nav.go({ kind: 'calendar', view: 'month', month: thisMonth() });
        dialogs.requestCreate('event');
      },
    },
    {
      id: 'new-contact',
      label: 'New CRM contact',
      run: () => {
        nav.go({ kind: 'crm', tab: 'contacts' });
        dialogs.requestCreate('contact');
      },
    },
    {
      id: 'new-account',
      label: 'New CRM account',
      run: () => {
        nav.go({ kind: 'crm', tab: 'accounts' });
        dialogs.requestCreate('account');
      },
    },
    ...goToCommands(mod),
    { id: 'back', label: 'Back', keys: 'Alt+Left', run: () => nav.back() },
    { id: 'forward', label: 'Forward', keys: 'Alt+Right', run: () => nav.forward() },
    { id: 'sync-now', label: 'Sync now', run: () => void sync.syncNow() },
    { id: 'theme-light', label: 'Theme: light', run: () => theme.set('light') },
    { id: 'theme-dark', label: 'Theme: dark', run: () => theme.set('dark') },
    { id: 'theme-system', label: 'Theme: follow the system', run: () => theme.set('system') },
    { id: 'palette', label: 'Search and commands', keys: `${mod}+K`, run: () => overlays.openPalette() },
    {
      id: 'search-box',
      label: 'Search box (results page)',
      keys: `${mod}+F`,
      // After the palette that ran it has closed and handed the focus back.
      run: () => void tick().then(focusSearchBox),
    },
    {
      id: 'latest-notice',
      label: 'Latest notice (its buttons)',
      keys: `${mod}+Shift+N`,
      run: () => void tick().then(() => focusLatestNotice()),
    },
    { id: 'shortcuts', label: 'Keyboard shortcuts', keys: '?', run: () => overlays.openHelp() },
  ]);
}

/** The places' "Go to" commands, from the list of places (`views/routes.ts`). */
function goToCommands(mod: string): Command[] {
  return goToEntries().map(({ id, label, to, keys }) => ({
    id,
    label,
    keys: keys?.(mod),
    run: () => nav.go(to()),
  }));
}

/** The go-to sequences ("G then C") as the keys of the commands they run. */
function withGoToKeys(commands: Command[]): Command[] {
  return commands.map((command) => {
    const keys = goToKeysOf(command.id);
    return keys === undefined ? command : { ...command, keys };
  });
}

/** Keys that act on what has focus, listed by the help overlay beside the app commands. */
export const CONTEXT_SHORTCUTS: readonly { area: string; keys: string; label: string }[] = [
  { area: 'Lists', keys: '↑ ↓ / Page Up, Page Down / Home, End', label: 'Move between rows' },
  { area: 'Lists', keys: 'Enter', label: 'Open the task beside the list' },
  { area: 'Lists', keys: 'Space', label: 'Select the row (bulk changes)' },
  { area: 'Lists', keys: 'Escape', label: 'Close the detail panel' },
  ...TASK_SHORTCUTS.map((shortcut) => ({ area: 'Selected task', ...shortcut })),
  { area: 'Board', keys: 'Shift+← →', label: 'Move the card to the previous or next status' },
  { area: 'Tree', keys: '← →', label: 'Collapse or expand a folder' },
  { area: 'Palette', keys: '↑ ↓, Enter', label: 'Choose a result or command' },
  { area: 'Calendar', keys: '← → ↑ ↓', label: 'Move by a day or a week in the month' },
  { area: 'Calendar', keys: 'Home, End', label: 'The week’s Monday or Sunday' },
  { area: 'Calendar', keys: 'Page Up, Page Down', label: 'Previous or next month' },
  { area: 'Calendar', keys: 'Enter', label: 'Open the day’s first event (a new event on an empty day)' },
  { area: 'Calendar', keys: 'N', label: 'New event on the focused day' },
  { area: 'My Time', keys: '← → ↑ ↓', label: 'Move between the week’s cells' },
  { area: 'My Time', keys: 'Enter', label: 'Log the duration typed in an empty day (1h 30m, 90m, 1.5h)' },
  { area: 'My Time', keys: 'Page Up, Page Down', label: 'Previous or next week' },
];
