import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const safeStorage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable: () => safeStorage.available,
  getSelectedStorageBackend: () => safeStorage.backend,
  // A stand-in cipher: reversible, and never equal to its input.
  encryptString: (plain: string) => Buffer.from(`enc:${[...plain].reverse().join('')}`),
  decryptString: (cipher: Buffer) => [...cipher.toString().slice(4)].reverse().join(''),
}));
vi.mock('electron', () => ({ safeStorage }));
const { createSafeStorageSecretStore } = await import('./secret-store');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-safe-'));
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('safeStorage secret store', () => {
  it('writes only ciphertext and reads the token back', () => {
    const file = join(dir, 'secrets.json');
    const store = createSafeStorageSecretStore(file, vi.fn());
    store.set('acc-1', 'my-api-token');
    expect(readFileSync(file, 'utf8')).not.toContain('my-api-token');
    expect(store.get('acc-1')).toBe('my-api-token');
    expect(store.protection).toBe('os');
  });

  it('refuses to start without OS encryption rather than keep tokens in clear', () => {
    safeStorage.available = false;
    expect(() => createSafeStorageSecretStore(join(dir, 's.json'), vi.fn())).toThrow(
      /cannot be stored encrypted/,
    );
  });

  it.runIf(process.platform === 'linux')('warns when Linux has no keyring', () => {
    safeStorage.backend = 'basic_text';
    const warn = vi.fn();
    createSafeStorageSecretStore(join(dir, 's.json'), warn);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/No keyring/));
  });
});
