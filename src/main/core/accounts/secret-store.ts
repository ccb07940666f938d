import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

/**
 * Where account tokens live: never in the settings, never sent to the renderer, never logged.
 * Keys are account ids.
 */
export interface SecretStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
  /** 'os': encrypted with the OS keychain (Electron safeStorage); 'file-permissions': see below. */
  readonly protection: 'os' | 'file-permissions';
}

/** Turns a secret into what is written to disk and back. */
export interface SecretCodec {
  readonly protection: SecretStore['protection'];
  encode(plain: string): string;
  decode(stored: string): string;
}

/**
 * The web host's codec: the token is kept as is, in a file readable only by its owner (mode
 * 0600). This is weaker than the desktop app's safeStorage: any process running as the same
 * user, or anyone with the disk, can read it.
 */
export const plainCodec: SecretCodec = {
  protection: 'file-permissions',
  encode: (plain) => plain,
  decode: (stored) => stored,
};

const SecretFile = z.record(z.string(), z.string());

/**
 * Secrets in one JSON file (mode 0600), each value passed through the codec: the shell gives
 * a safeStorage codec so only ciphertext reaches the disk; the web host gives `plainCodec`.
 */
export function createFileSecretStore(file: string, codec: SecretCodec = plainCodec): SecretStore {
  function load(): Record<string, string> {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    const parsed = SecretFile.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`The secret store ${file} is not a map of strings`);
    return parsed.data;
  }
  function save(all: Record<string, string>): void {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(all), { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  }
  return {
    protection: codec.protection,
    get(key) {
      const stored = load()[key];
      return stored === undefined ? undefined : codec.decode(stored);
    },
    set(key, value) {
      save({ ...load(), [key]: codec.encode(value) });
    },
    delete(key) {
      const all = load();
      if (!(key in all)) return;
      delete all[key];
      save(all);
    },
  };
}

export function createMemorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    protection: 'file-permissions',
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}
