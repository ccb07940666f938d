import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// A stand-in for the asynchronous safeStorage API: a reversible cipher, never equal to its input,
// that refuses ciphertext it did not make (another keychain's).
const safeStorage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret',
  isAsyncEncryptionAvailable: async () => safeStorage.available,
  getSelectedStorageBackend: () => safeStorage.backend,
  encryptStringAsync: async (plain: string) => Buffer.from(`enc:${[...plain].reverse().join('')}`),
  decryptStringAsync: async (cipher: Buffer) => {
    const text = cipher.toString();
    if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext');
    return { result: [...text.slice(4)].reverse().join(''), shouldReEncrypt: false };
  },
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
  it('writes only ciphertext and reads the token back, in this run and the next', async () => {
    const file = join(dir, 'secrets.json');
    const store = await createSafeStorageSecretStore(file, vi.fn());
    store.set('acc-1', 'my-api-token');
    await store.flushed();
    expect(readFileSync(file, 'utf8')).not.toContain('my-api-token');
    expect(store.get('acc-1')).toBe('my-api-token');
    expect(store.protection).toBe('os');
    expect((await createSafeStorageSecretStore(file, vi.fn())).get('acc-1')).toBe('my-api-token');
  });

  it('refuses to start without OS encryption rather than keep tokens in clear', async () => {
    safeStorage.available = false;
    await expect(createSafeStorageSecretStore(join(dir, 's.json'), vi.fn())).rejects.toThrow(
      /cannot be stored encrypted/,
    );
  });

  it.runIf(process.platform === 'linux')('says so when Linux has no keyring (basic_text)', async () => {
    safeStorage.backend = 'basic_text';
    const warn = vi.fn();
    const store = await createSafeStorageSecretStore(join(dir, 's.json'), warn);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/No keyring/));
    expect(store.protection).toBe('basic-text');
  });

  it('a token that no longer decrypts reads as missing (asked for again) and its ciphertext is kept', async () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ other: Buffer.from('from another keychain').toString('base64') }));
    const warn = vi.fn();
    const store = await createSafeStorageSecretStore(file, warn);
    expect(store.get('other')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/token of other could not be decrypted/));
    store.set('acc', 'tok');
    await store.flushed();
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8'))).sort()).toEqual(['acc', 'other']);
  });

  it('a damaged secrets file does not stop the start: moved aside, a notice', async () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(file, '{"acc": ');
    const store = await createSafeStorageSecretStore(file, vi.fn());
    expect(store.get('acc')).toBeUndefined();
    expect(store.notices?.()).toEqual([
      expect.objectContaining({ title: 'The stored tokens file was damaged' }),
    ]);
  });

  it('when tokens are not to be remembered, the file holds none of them', async () => {
    const file = join(dir, 'secrets.json');
    const store = await createSafeStorageSecretStore(file, vi.fn());
    store.set('acc', 'tok');
    store.remember?.(false);
    await store.flushed();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
    expect(store.get('acc')).toBe('tok');
  });
});
