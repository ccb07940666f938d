// Links to tasks and projects: opened from the system (the desktop app hands them over as
// `app.onDidOpenLink`), pasted anywhere outside a field, and copied from a task ("Copy link").
// The core checks a link and finds what it names (`links.resolve`); a bad or unknown link is
// told in a notice and opens nothing.
import { appLink, serviceTaskLink } from '@shared/links';
import type { Bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';
import { nav } from './app';

/** Opens what a link names; answers whether it did. */
export async function openLink(bridge: Bridge, link: string): Promise<boolean> {
  try {
    const target = await bridge.invoke('links.resolve', { link });
    if (target.kind === 'task') nav.openTask(target.id, { full: true });
    else nav.go({ kind: 'project', projectId: target.id, layout: 'list' });
    return true;
  } catch (err) {
    toasts.error('Could not open the link', err);
    return false;
  }
}

/** Text that is plainly a link to a task or project (what a paste outside a field opens). */
export function looksLikeLink(text: string): boolean {
  return /^\s*<?(workdesk:\/\/|https?:\/\/(www\.)?goodday\.work\/t\/|(www\.)?goodday\.work\/t\/)/i.test(text);
}

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Listens for links from the system and for pasted links; returns the unsubscribe. */
export function bindLinks(bridge: Bridge): () => void {
  const off = bridge.on('app.onDidOpenLink', ({ link }) => void openLink(bridge, link));
  const onPaste = (event: ClipboardEvent): void => {
    if (typing(event.target) || document.querySelector('dialog[open]')) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (!looksLikeLink(text)) return;
    event.preventDefault();
    void openLink(bridge, text);
  };
  document.addEventListener('paste', onPaste);
  // A link that launched the desktop app came before this listened: the shell held it.
  if (bridge.kind === 'electron') {
    void bridge.invoke('links.takePending', {}).then(
      ({ links }) => links.forEach((link) => void openLink(bridge, link)),
      () => undefined,
    );
  }
  return () => {
    off();
    document.removeEventListener('paste', onPaste);
  };
}

/** A task's two links, one a line: the app's, then the service's web link. */
export function taskLinks(taskId: string): string {
  return `${appLink('task', taskId)}\n${serviceTaskLink(taskId)}`;
}

export async function copyTaskLink(taskId: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(taskLinks(taskId));
    toasts.show('Copied the task’s Workdesk link and web link', 'success');
  } catch (err) {
    toasts.error('Could not copy the link', err);
  }
}
