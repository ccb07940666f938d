// The renderer's states, one per domain, created once and shared by the views. Each is fed by
// bridge events, so every view showing a piece of the cache updates when the cache changes.
import { bridge } from '../lib/bridge';
import { Navigation } from '../lib/navigation.svelte';
import { Theme } from '../lib/theme.svelte';
import { SessionState } from './session.svelte';
import { OrgState } from './org.svelte';
import { TreeState } from './tree.svelte';
import { SyncState } from './sync.svelte';
import { MyWorkCounts } from './my-work-counts.svelte';
import { SettingsState } from './settings.svelte';
import { OutboxState } from './outbox.svelte';
import { NoticesState } from './notices.svelte';
import { AttachmentsState } from './attachments.svelte';
import { FilesState } from './files.svelte';

export const nav = new Navigation();
export const theme = new Theme();
export const session = new SessionState(bridge);
export const org = new OrgState(bridge);
export const tree = new TreeState(bridge);
export const sync = new SyncState(bridge);
export const myWorkCounts = new MyWorkCounts(bridge);
export const settings = new SettingsState(bridge, theme);
export const outbox = new OutboxState(bridge);
export const attachments = new AttachmentsState(bridge);
export const files = new FilesState(bridge);
export const notices = new NoticesState(bridge);

/** Another account is active: read everything again from its cache; its items are not here. */
settings.onSwitch = () => {
  const kind = nav.route.kind;
  if (kind !== 'settings' && kind !== 'changes' && kind !== 'home') nav.go({ kind: 'home' });
  void org.load();
  void tree.load();
  void sync.load();
  void myWorkCounts.load();
};

/** Starts every app-wide state once the core answered; returns the unsubscribe. */
export function startDomains(): () => void {
  const stops = [
    org.start(),
    tree.start(),
    sync.start(),
    myWorkCounts.start(),
    settings.start(),
    outbox.start(),
    attachments.start(),
    files.start(),
    notices.start(),
    // A task or project created offline keeps its place (open detail, history) under its real id.
    bridge.on('outbox.onDidRemapId', ({ tempId, realId }) => nav.remapId(tempId, realId)),
  ];
  return () => stops.forEach((stop) => stop());
}
