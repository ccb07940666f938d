import type { DataNotice } from '../../../shared/ipc/app';
import { DEFAULT_SETTINGS, StoredSettings } from '../../../shared/ipc/settings';
import { describeZodError } from '../../../shared/errors';
import { keptFile } from './kept-file';

/**
 * The one settings interface of the core. The desktop shell and the web host both back it with
 * a JSON file (src/main/settings.ts keeps it in the user-data folder); both validate with
 * `StoredSettings`.
 */
export interface SettingsStore {
  read(): StoredSettings;
  /** Validates before writing: an invalid value throws naming the field and writes nothing. */
  write(next: StoredSettings): void;
  /** What was found damaged when the file was read, and done about it. */
  notices?(): DataNotice[];
}

/** Parses what was read from disk; a bad file is an error naming the file and the field. */
export function parseStoredSettings(raw: unknown, source: string): StoredSettings {
  if (raw === undefined || (typeof raw === 'object' && raw !== null && Object.keys(raw).length === 0)) {
    return structuredClone(DEFAULT_SETTINGS);
  }
  const parsed = StoredSettings.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Settings in ${source} are invalid: ${describeZodError(parsed.error, 'settings').message}`,
    );
  }
  return parsed.data;
}

export function validateSettings(next: unknown): StoredSettings {
  const parsed = StoredSettings.safeParse(next);
  if (!parsed.success)
    throw new Error(`Invalid settings: ${describeZodError(parsed.error, 'settings').message}`);
  return parsed.data;
}

/**
 * Settings kept in a JSON file, written atomically (temp file + rename), with the last good copy
 * beside it: a damaged file is moved aside and that copy (else the defaults) used, with a notice,
 * so the app always starts. The desktop app and the web host both keep theirs so.
 */
export function createJsonSettingsStore(file: string, options: { clock?: () => Date } = {}): SettingsStore {
  const kept = keptFile<StoredSettings>({
    file,
    what: 'settings',
    parse: (raw) => parseStoredSettings(raw, file),
    fallback: () => structuredClone(DEFAULT_SETTINGS),
    consequence: (restored) =>
      restored
        ? 'changes made since it was written may have to be made again.'
        : 'accounts added before must be added again (their caches and unsent changes are still on disk).',
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    read: () => kept.read(),
    write(next) {
      kept.write(validateSettings(next));
    },
    notices: () => kept.notices(),
  };
}

/** An in-memory store for tests and for hosts that keep nothing. */
export function createMemorySettingsStore(initial: StoredSettings = DEFAULT_SETTINGS): SettingsStore {
  let current = structuredClone(initial);
  return {
    read: () => structuredClone(current),
    write(next) {
      current = structuredClone(validateSettings(next));
    },
  };
}
