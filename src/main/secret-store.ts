import { safeStorage } from 'electron';
import { z } from 'zod';
import { keptFile } from './core/accounts/kept-file';
import type { SecretStore } from './core/accounts/secret-store';

const SecretFile = z.record(z.string(), z.string());

export interface SafeStorageSecretStore extends SecretStore {
  /** Resolves once every change so far is on disk (encryption is asynchronous). */
  flushed(): Promise<void>;
}

/**
 * Tokens encrypted with the OS keychain through the asynchronous `safeStorage` API (Keychain on
 * macOS, DPAPI on Windows, kwallet/libsecret on Linux). Only ciphertext reaches the file. The
 * tokens are decrypted once, at start, and kept in memory; each change writes the file again
 * (encrypted) in the background, one write at a time. A token that does not decrypt (another
 * keychain, a reinstalled system) reads as missing, so its account asks for it again (the 401
 * flow), and its ciphertext is kept in case the keychain comes back. On Linux without a keyring
 * safeStorage falls back to `basic_text`, a key written in Electron itself: the store says so
 * (`protection: 'basic-text'`), and Settings offers not to remember tokens at all. Usable after
 * `ready`.
 */
export async function createSafeStorageSecretStore(
  file: string,
  warn: (message: string) => void,
): Promise<SafeStorageSecretStore> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) {
    throw new Error('The OS keychain is not available, so account tokens cannot be stored encrypted');
  }
  const basicText = process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
  if (basicText) {
    warn('No keyring (kwallet or libsecret) was found: tokens are encrypted with a fixed key only');
  }
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
  });
  const plain = new Map<string, string>();
  /** Ciphertext that did not decrypt this run, written back as it was. */
  const opaque = new Map<string, string>();
  let reEncrypt = false;
  for (const [key, stored] of Object.entries(kept.read())) {
    try {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
      plain.set(key, result);
      reEncrypt ||= shouldReEncrypt;
    } catch (err) {
      warn(`The stored token of ${key} could not be decrypted; it will be asked for again (${String(err)})`);
      opaque.set(key, stored);
    }
  }

  let writes: Promise<void> = Promise.resolve();
  let remembering = true;
  function persist(): void {
    const snapshot = remembering ? [...plain] : [];
    writes = writes
      .then(async () => {
        const out: Record<string, string> = remembering ? Object.fromEntries(opaque) : {};
        for (const [key, value] of snapshot) {
          out[key] = (await safeStorage.encryptStringAsync(value)).toString('base64');
        }
        kept.write(out);
      })
      .catch((err: unknown) => warn(`Could not save the stored tokens: ${String(err)}`));
  }
  if (reEncrypt) persist();

  return {
    protection: basicText ? 'basic-text' : 'os',
    get: (key) => plain.get(key),
    set(key, value) {
      plain.set(key, value);
      opaque.delete(key);
      persist();
    },
    delete(key) {
      if (!plain.delete(key) && !opaque.delete(key)) return;
      persist();
    },
    notices: () => kept.notices(),
    remember(on) {
      if (on === remembering) return;
      remembering = on;
      persist();
    },
    flushed: () => writes,
  };
}
