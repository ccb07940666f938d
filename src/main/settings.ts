import Store from 'electron-store';
import type { StoredSettings } from '../shared/ipc/settings';
import { parseStoredSettings, validateSettings, type SettingsStore } from './core/accounts/settings-store';

/**
 * The desktop app's settings: electron-store (atomic writes in the user-data folder), validated
 * with the same zod schema as the web host's JSON file. Tokens are never here (secret-store.ts).
 */
export function createElectronSettingsStore(): SettingsStore {
  const store = new Store<Partial<StoredSettings>>({ name: 'settings', clearInvalidConfig: false });
  return {
    read: () => parseStoredSettings(store.store, store.path),
    write(next) {
      store.store = validateSettings(next);
    },
  };
}
