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

export const nav = new Navigation();
export const theme = new Theme();
export const session = new SessionState(bridge);
export const org = new OrgState(bridge);
export const tree = new TreeState(bridge);
export const sync = new SyncState(bridge);
export const myWorkCounts = new MyWorkCounts(bridge);
export const settings = new SettingsState(bridge, theme);
export const outbox = new OutboxState(bridge);

/** Starts every app-wide state once the core answered; returns the unsubscribe. */
export function startDomains(): () => void {
  const stops = [
    org.start(),
    tree.start(),
    sync.start(),
    myWorkCounts.start(),
    settings.start(),
    outbox.start(),
  ];
  return () => stops.forEach((stop) => stop());
}
