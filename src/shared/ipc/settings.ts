import { z } from 'zod';
import { channel } from './channel';
import { Account } from './accounts';
import { TIMER_ROUNDINGS } from '../timer';
import { lazySchema } from '../lazy-schema';

export const Theme = lazySchema(() => z.enum(['system', 'light', 'dark']));

/**
 * What a queued change meets when someone else changed the same field on the service since it
 * was made: `mine` sends it and records theirs in the conflict journal (the user can take it
 * back); `ask` holds it until the user decides.
 */
export const ConflictPolicy = lazySchema(() => z.enum(['mine', 'ask']));
export type ConflictPolicy = z.infer<typeof ConflictPolicy>;

/** Where a kind of notice is shown: as an in-app toast, as a system notification. */
export const NoticeChannels = lazySchema(() =>
  z.object({ toast: z.boolean(), system: z.boolean() }).strict(),
);
export type NoticeChannels = z.infer<typeof NoticeChannels>;

/** The kinds of notice, each switched on or off per channel. */
export const NoticeKind = lazySchema(() =>
  z.enum(['actionRequired', 'comment', 'assigned', 'statusChange', 'dueTomorrow', 'dueToday']),
);
export type NoticeKind = z.infer<typeof NoticeKind>;

export const NotificationPrefs = lazySchema(() =>
  z
    .object({
      /** A task needs your action. */
      actionRequired: NoticeChannels,
      /** A comment or reply on a task of yours. */
      comment: NoticeChannels,
      /** A task assigned to you. */
      assigned: NoticeChannels,
      /** The status of a task you follow changed. */
      statusChange: NoticeChannels,
      /** Tasks of yours due tomorrow (once a day). */
      dueTomorrow: NoticeChannels,
      /** Tasks of yours due today (once a day). */
      dueToday: NoticeChannels,
    })
    .strict(),
);
export type NotificationPrefs = z.infer<typeof NotificationPrefs>;

const BOTH = { toast: true, system: true };
export const DEFAULT_NOTIFICATIONS: NotificationPrefs = {
  actionRequired: BOTH,
  comment: BOTH,
  assigned: BOTH,
  statusChange: { toast: true, system: false },
  // The daily due notices are system notifications by default: an in-app toast at every start
  // of the day would sit over the view the user opened the app for.
  dueTomorrow: { toast: false, system: true },
  dueToday: { toast: false, system: true },
};

/** The preferences' fields, built by the two schemas that use them (when first used). */
const preferenceFields = () => ({
  syncIntervalSeconds: z.number().int().min(15).max(3600),
  theme: Theme,
  notifications: NotificationPrefs,
  conflictPolicy: ConflictPolicy,
  /**
   * Whether account tokens are kept on disk (absent: yes). Off, they live in memory only and
   * are asked for again at the next start: for a machine whose keychain does not protect them.
   */
  rememberTokens: z.boolean().optional(),
  /** The cap of received files kept for offline reading (MiB); absent: DEFAULT_DOWNLOAD_CACHE_MIB. */
  downloadCacheMiB: z.number().int().min(10).max(100_000).optional(),
  /** The global quick-capture shortcut (desktop app only); absent or false: off. */
  quickCaptureShortcut: z.boolean().optional(),
  /**
   * How a stopped timer's time is rounded, in minutes: 0 off (the nearest minute), else up to
   * the next 1, 5 or 15 minutes; absent: off.
   */
  timerRounding: z.literal(TIMER_ROUNDINGS, { error: 'must be 0 (off), 1, 5 or 15 minutes' }).optional(),
});

/** What the user can change in the settings view. */
export const Preferences = lazySchema(() =>
  z
    .object({
      ...preferenceFields(),
      // Absent from settings saved before notices had settings: all on, as they were.
      notifications: NotificationPrefs.default(DEFAULT_NOTIFICATIONS),
      // Absent from settings saved before the policy existed: keep mine, as it was.
      conflictPolicy: ConflictPolicy.default('mine'),
    })
    .strict(),
);
/** A change of some preferences: a field left out stays as it is (no default fills it in). */
export const PreferencesPatch = lazySchema(() => z.object(preferenceFields()).partial().strict());
export type Preferences = z.infer<typeof Preferences>;

export const DEFAULT_DOWNLOAD_CACHE_MIB = 500;
/** The quick-capture shortcut, when it is on. */
export const QUICK_CAPTURE_ACCELERATOR = 'CommandOrControl+Alt+Space';
/** How account tokens are kept on this computer (see `SecretStore.protection`). */
export const TokenStorage = lazySchema(() =>
  z.object({
    protection: z.enum(['os', 'basic-text', 'file-permissions']),
    remember: z.boolean(),
  }),
);
export type TokenStorage = z.infer<typeof TokenStorage>;

/** Where the main window was, so it reopens there. */
export const WindowState = lazySchema(() =>
  z
    .object({
      x: z.number().int().optional(),
      y: z.number().int().optional(),
      width: z.number().int().min(400).max(20000),
      height: z.number().int().min(300).max(20000),
      maximized: z.boolean(),
    })
    .strict(),
);
export type WindowState = z.infer<typeof WindowState>;

/** The whole settings file (`settings.json`, in the desktop app's user-data folder or the web host's data folder). */
export const StoredSettings = lazySchema(() =>
  z
    .object({
      version: z.literal(1),
      accounts: z.array(Account),
      activeAccountId: z.string().nullable(),
      window: WindowState.nullable(),
      preferences: Preferences,
    })
    .strict(),
);
export type StoredSettings = z.infer<typeof StoredSettings>;

export const DEFAULT_SETTINGS: StoredSettings = {
  version: 1,
  accounts: [],
  activeAccountId: null,
  window: null,
  preferences: {
    syncIntervalSeconds: 60,
    theme: 'system',
    notifications: DEFAULT_NOTIFICATIONS,
    conflictPolicy: 'mine',
  },
};

export const settingsChannels = {
  'settings.get': channel(
    () => z.object({}).strict(),
    () => Preferences,
  ),
  /** Changes only the fields sent. */
  'settings.update': channel(
    () => PreferencesPatch,
    () => Preferences,
  ),
  'settings.tokenStorage': channel(
    () => z.object({}).strict(),
    () => TokenStorage,
  ),
};

export const settingsEvents = {
  'settings.onDidChange': Preferences,
};
