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
import { InboxState } from './inbox.svelte';
import { UpdatesState } from './updates.svelte';
import { TimerState } from './timer.svelte';
import { PlaceState } from './place.svelte';
import { toasts } from '../lib/toasts.svelte';
import { watchDueTasks } from './due-notices';
import { DEFAULT_NOTIFICATIONS } from '@shared/ipc/settings';
import { conflictNotice, WHOLE_ITEM, type ChangeLookups } from '../lib/describe-change';
import { formatRelative } from '../lib/format';

export const nav = new Navigation();
/** Where the window reopens, per account, and the current place kept as the user moves. */
export const place = new PlaceState(bridge);
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
export const inbox = new InboxState(bridge);
export const updates = new UpdatesState(bridge);
/** The running timer (kept by the core per account) and its stop confirm. */
export const timer = new TimerState(bridge);
/** A toast for what a pull brought on one of my tasks, when the settings want one. */
updates.announce = (kind, group) => {
  if (!(settings.preferences?.notifications[kind].toast ?? true)) return;
  const what = { comment: 'New comment', assigned: 'Assigned to you', statusChange: 'Status changed' }[kind];
  toasts.show(`${what}: “${group.name}”`, 'info', 8000, {
    label: 'Open',
    run: () => nav.openTask(group.taskId),
  });
};
export const notices = new NoticesState(bridge);

/** Another account is active: read everything again from its cache; its items are not here. */
settings.onSwitch = () => {
  // The place kept is the other account's: the first one seen in this account is kept.
  place.switched();
  const kind = nav.route.kind;
  if (kind !== 'settings' && kind !== 'changes' && kind !== 'home') nav.go({ kind: 'home' });
  void org.load();
  void tree.load();
  void sync.load();
  void myWorkCounts.load();
  inbox.reset();
  void inbox.load();
  void updates.load();
  void timer.load();
};

/** Names for the words of a change or conflict, from the app-wide states. */
export const changeLookups: ChangeLookups = {
  taskName: () => undefined,
  statusName: (id) => org.status(id)?.name,
  userName: (id) => org.user(id)?.name,
  tagName: (id) => org.tags.find((tag) => tag.id === id)?.name,
  projectName: (id) => tree.node(id)?.name,
  customField: (id) => org.customFields.find((field) => field.id === id),
};

/**
 * A conflict the core just recorded (before a send, or by a pull): a toast says what happened to
 * whose change, with Undo (take theirs) when the policy kept mine, or a way to decide when the
 * change waits (the "ask me" policy, or a delete of an item changed since it was read).
 */
outbox.onNewConflict = (conflict) => {
  const asked = conflict.field === WHOLE_ITEM || settings.preferences?.conflictPolicy === 'ask';
  const who = conflict.remoteBy ? org.user(conflict.remoteBy)?.name : undefined;
  const when = conflict.remoteAt ? formatRelative(conflict.remoteAt, sync.serviceClock) : undefined;
  const message = conflictNotice(conflict, changeLookups, { who, when, asked });
  toasts.show(
    message,
    'info',
    12_000,
    asked
      ? { label: 'Decide', run: () => nav.go({ kind: 'changes' }) }
      : { label: 'Undo (take theirs)', run: () => void outbox.resolve(conflict.id, 'theirs') },
  );
};

/** Starts every app-wide state once the core answered; returns the unsubscribe. */
export function startDomains(): () => void {
  const stops = [
    org.start(),
    tree.start(),
    sync.start(),
    myWorkCounts.start(),
    inbox.start(),
    updates.start(),
    watchDueTasks(
      bridge,
      // Until the settings are read, the defaults decide (the daily due toasts are off by default).
      (kind) => (settings.preferences?.notifications ?? DEFAULT_NOTIFICATIONS)[kind].toast,
      // Home lists what the toast counts (assigned to me or awaiting my action); My Work's
      // Assigned tab would miss the second.
      () => nav.go({ kind: 'home' }),
      () => settings.activeId,
    ),
    settings.start(),
    outbox.start(),
    attachments.start(),
    files.start(),
    notices.start(),
    timer.start(),
    // A task or project created offline keeps its place (open detail, history) under its real id.
    bridge.on('outbox.onDidRemapId', ({ tempId, realId }) => nav.remapId(tempId, realId)),
  ];
  return () => stops.forEach((stop) => stop());
}
