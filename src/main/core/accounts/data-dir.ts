import { join } from 'node:path';

/**
 * The per-user data folder of the web host, where the desktop app's would be:
 * `$XDG_DATA_HOME/workdesk` (default `~/.local/share/workdesk`) on Linux,
 * `~/Library/Application Support/Workdesk` on macOS, `%APPDATA%\Workdesk` on Windows.
 * `WORKDESK_DATA_DIR` overrides it (tests).
 */
export function defaultDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const override = env['WORKDESK_DATA_DIR'];
  if (override) return override;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Workdesk');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Workdesk');
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'workdesk');
}
