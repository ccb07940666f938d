import { z } from 'zod';
import { channel } from './channel';
import { Account } from './accounts';

export const Theme = z.enum(['system', 'light', 'dark']);

/**
 * What a queued change meets when someone else changed the same field on the service since it
 * was made: `mine` sends it and records theirs in the conflict journal (the user can take it
 * back); `ask` holds it until the user decides.
 */
export const ConflictPolicy = z.enum(['mine', 'ask']);
export type ConflictPolicy = z.infer<typeof ConflictPolicy>;

/** What the user can change in the settings view. */
export const Preferences = z
  .object({
    syncIntervalSeconds: z.number().int().min(15).max(3600),
    theme: Theme,
    conflictPolicy: ConflictPolicy.default('mine'),
    /**
     * Whether account tokens are kept on disk (absent: yes). Off, they live in memory only and
     * are asked for again at the next start: for a machine whose keychain does not protect them.
     */
    rememberTokens: z.boolean().optional(),
  })
  .strict();
export type Preferences = z.infer<typeof Preferences>;

/** How account tokens are kept on this computer (see `SecretStore.protection`). */
export const TokenStorage = z.object({
  protection: z.enum(['os', 'basic-text', 'file-permissions']),
  remember: z.boolean(),
});
export type TokenStorage = z.infer<typeof TokenStorage>;

/** Where the main window was, so it reopens there. */
export const WindowState = z
  .object({
    x: z.number().int().optional(),
    y: z.number().int().optional(),
    width: z.number().int().min(400).max(20000),
    height: z.number().int().min(300).max(20000),
    maximized: z.boolean(),
  })
  .strict();
export type WindowState = z.infer<typeof WindowState>;

/** The whole settings file (electron-store in the desktop app, a JSON file in the web host). */
export const StoredSettings = z
  .object({
    version: z.literal(1),
    accounts: z.array(Account),
    activeAccountId: z.string().nullable(),
    window: WindowState.nullable(),
    preferences: Preferences,
  })
  .strict();
export type StoredSettings = z.infer<typeof StoredSettings>;

export const DEFAULT_SETTINGS: StoredSettings = {
  version: 1,
  accounts: [],
  activeAccountId: null,
  window: null,
  preferences: { syncIntervalSeconds: 60, theme: 'system', conflictPolicy: 'mine' },
};

export const settingsChannels = {
  'settings.get': channel(z.object({}).strict(), Preferences),
  /** Changes only the fields sent. */
  'settings.update': channel(Preferences.partial().strict(), Preferences),
  'settings.tokenStorage': channel(z.object({}).strict(), TokenStorage),
};

export const settingsEvents = {
  'settings.onDidChange': Preferences,
};
