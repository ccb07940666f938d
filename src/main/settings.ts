import { app } from 'electron';
import { join } from 'node:path';
import { createJsonSettingsStore, type SettingsStore } from './core/accounts/settings-store';

/**
 * The desktop app's settings: `settings.json` in the user-data folder (the file electron-store
 * kept before, same content), written atomically with a last good copy beside it and validated
 * with the same zod schema as the web host's. Tokens are never here (secret-store.ts).
 */
export function createElectronSettingsStore(): SettingsStore {
  return createJsonSettingsStore(join(app.getPath('userData'), 'settings.json'));
}
