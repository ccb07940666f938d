import { safeStorage } from 'electron';
import { createFileSecretStore, type SecretCodec, type SecretStore } from './core/accounts/secret-store';

/**
 * Tokens encrypted with the OS keychain through `safeStorage` (Keychain on macOS, DPAPI on
 * Windows, kwallet/libsecret on Linux). Only ciphertext reaches the file. Usable after `ready`.
 */
export function createSafeStorageSecretStore(file: string, warn: (message: string) => void): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) {
    throw new Error('The OS keychain is not available, so account tokens cannot be stored encrypted');
  }
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    warn('No keyring (kwallet or libsecret) was found: tokens are encrypted with a fixed key only');
  }
  const codec: SecretCodec = {
    protection: 'os',
    encode: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
  return createFileSecretStore(file, codec);
}
