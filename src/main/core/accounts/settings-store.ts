import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_SETTINGS, StoredSettings } from '../../../shared/ipc/settings';
import { describeZodError } from '../../../shared/errors';

/**
 * The one settings interface of the core. The desktop shell backs it with electron-store
 * (src/main/settings.ts), the web host with a JSON file; both validate with `StoredSettings`.
 */
export interface SettingsStore {
  read(): StoredSettings;
  /** Validates before writing: an invalid value throws naming the field and writes nothing. */
  write(next: StoredSettings): void;
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

/** Settings kept in a JSON file, written atomically (temp file + rename). */
export function createJsonSettingsStore(file: string): SettingsStore {
  return {
    read() {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_SETTINGS);
        throw err;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw new Error(`Settings in ${file} are not valid JSON`);
      }
      return parseStoredSettings(raw, file);
    },
    write(next) {
      const valid = validateSettings(next);
      mkdirSync(dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(valid, null, 2), { mode: 0o600 });
      renameSync(temp, file);
    },
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
