// The places a shortcut or a command moves the focus to: the search box and the latest notice
// (and back from it). Both the shortcuts (`shortcuts.ts`) and the palette's commands
// (`state/commands.ts`) use them, so neither imports the other.
import { focusIsLost, focusPlace } from './focus-place';

/** Ctrl/Cmd+F: the sidebar's search box (its Enter opens the search results page). */
export function focusSearchBox(): boolean {
  const search = document.getElementById('global-search');
  search?.focus();
  return !!search;
}

const NOTICE = '[data-testid="toast"]';
/** What had the focus before the notice key took it there. */
let beforeNotice: HTMLElement | null = null;

/**
 * Ctrl/Cmd+Shift+N: the latest notice's first button (Open, Show, else Dismiss), so a keyboard
 * user reaches it before it goes (it sits last in the Tab order); false when none is showing.
 */
export function focusLatestNotice(doc: Document = document): boolean {
  const notices = doc.querySelectorAll<HTMLElement>(NOTICE);
  const button = notices[notices.length - 1]?.querySelector<HTMLElement>('button');
  if (!button) return false;
  const active = doc.activeElement;
  if (active instanceof HTMLElement && !active.closest(NOTICE)) beforeNotice = active;
  button.focus();
  return true;
}

/** A notice that had the focus was dismissed: back to where the user was, else into the place. */
export function focusBeforeNotice(doc: Document = document): void {
  const back = beforeNotice;
  beforeNotice = null;
  if (back?.isConnected) back.focus();
  if (focusIsLost(doc) || doc.activeElement?.closest(NOTICE)) void focusPlace(doc);
}
