import { z } from 'zod';
import type { DataNotice } from '../../../shared/ipc/app';
import { keptFile } from './kept-file';

/**
 * Where account tokens live: never in the settings, never sent to the renderer, never logged.
 * Keys are account ids.
 */
export interface SecretStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
  /**
   * 'os': encrypted with the OS keychain (Electron safeStorage); 'basic-text': safeStorage on
   * Linux without a keyring, encrypted with a key written in Electron itself (no real
   * protection); 'file-permissions': in clear, readable only by the user (see below).
   */
  readonly protection: 'os' | 'basic-text' | 'file-permissions';
  /** What was found damaged when the file was read, and done about it. */
  notices?(): DataNotice[];
  /**
   * Whether tokens are written to disk. Turned off, the file loses its tokens at once and they
   * are kept in memory only (asked for again after a restart).
   */
  remember?(on: boolean): void;
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
export function createFileSecretStore(
  file: string,
  codec: SecretCodec = plainCodec,
  options: { clock?: () => Date; log?: (message: string) => void } = {},
): SecretStore {
  const kept = keptFile<Record<string, string>>({
    file,
    what: 'stored tokens',
    parse: (raw) => {
      const parsed = SecretFile.safeParse(raw);
      if (!parsed.success) throw new Error(`${file} is not a map of strings`);
      return parsed.data;
    },
    fallback: () => ({}),
    consequence: () => 'an account whose token is no longer there asks for it again.',
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // Tokens kept in memory only while remembering is off.
  let memory: Map<string, string> | null = null;
  return {
    protection: codec.protection,
    get(key) {
      if (memory) return memory.get(key);
      const stored = kept.read()[key];
      if (stored === undefined) return undefined;
      try {
        return codec.decode(stored);
      } catch (err) {
        // A token that no longer decrypts (another keychain, a reinstalled system) is asked for
        // again: the account opens without it and the service's 401 brings the prompt.
        options.log?.(`The stored token of ${key} could not be decrypted: ${String(err)}`);
        return undefined;
      }
    },
    set(key, value) {
      if (memory) memory.set(key, value);
      else kept.write({ ...kept.read(), [key]: codec.encode(value) });
    },
    delete(key) {
      if (memory) {
        memory.delete(key);
        return;
      }
      const all = kept.read();
      if (!(key in all)) return;
      delete all[key];
      kept.write(all);
    },
    notices: () => kept.notices(),
    remember(on) {
      if (!on && !memory) {
        const inMemory = new Map<string, string>();
        for (const key of Object.keys(kept.read())) {
          const value = this.get(key);
          if (value !== undefined) inMemory.set(key, value);
        }
        memory = inMemory;
        kept.write({});
      } else if (on && memory) {
        const all = memory;
        memory = null;
        kept.write(Object.fromEntries([...all].map(([k, v]) => [k, codec.encode(v)])));
      }
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
