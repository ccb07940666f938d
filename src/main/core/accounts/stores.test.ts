import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/ipc/settings';
import { createJsonSettingsStore } from './settings-store';
import { createFileSecretStore, type SecretCodec } from './secret-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-stores-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('JSON settings store', () => {
  it('reads the defaults when there is no file, and keeps what was written', () => {
    const file = join(dir, 'settings.json');
    const store = createJsonSettingsStore(file);
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
    store.write({
      ...DEFAULT_SETTINGS,
      preferences: { syncIntervalSeconds: 120, theme: 'dark', conflictPolicy: 'ask' },
    });
    expect(createJsonSettingsStore(file).read().preferences).toEqual({
      syncIntervalSeconds: 120,
      theme: 'dark',
      conflictPolicy: 'ask',
    });
  });

  it('refuses to write an invalid value, naming the field, and leaves the file alone', () => {
    const file = join(dir, 'settings.json');
    const store = createJsonSettingsStore(file);
    store.write(DEFAULT_SETTINGS);
    const before = readFileSync(file, 'utf8');
    const bad = {
      ...DEFAULT_SETTINGS,
      preferences: { syncIntervalSeconds: 1, theme: 'dark' as const, conflictPolicy: 'mine' as const },
    };
    expect(() => store.write(bad)).toThrow(/preferences\.syncIntervalSeconds/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('reports a corrupt file with its path and the field', () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ ...DEFAULT_SETTINGS, activeAccountId: 7 }));
    expect(() => createJsonSettingsStore(file).read()).toThrow(/settings\.json are invalid: activeAccountId/);
    writeFileSync(file, '{nope');
    expect(() => createJsonSettingsStore(file).read()).toThrow(/not valid JSON/);
  });
});

describe('file secret store', () => {
  it('keeps secrets in a file only its owner can read', () => {
    const file = join(dir, 'secrets.json');
    const store = createFileSecretStore(file);
    store.set('a', 'token-a');
    store.set('b', 'token-b');
    store.delete('a');
    expect(createFileSecretStore(file).get('a')).toBeUndefined();
    expect(createFileSecretStore(file).get('b')).toBe('token-b');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(store.protection).toBe('file-permissions');
  });

  it('writes only what the codec produces, so an encrypting codec keeps the token off the disk', () => {
    const file = join(dir, 'secrets.json');
    const reversing: SecretCodec = {
      protection: 'os',
      encode: (plain) => Buffer.from([...plain].reverse().join('')).toString('base64'),
      decode: (stored) => [...Buffer.from(stored, 'base64').toString()].reverse().join(''),
    };
    const store = createFileSecretStore(file, reversing);
    store.set('acc', 'super-secret-token');
    expect(readFileSync(file, 'utf8')).not.toContain('super-secret-token');
    expect(store.get('acc')).toBe('super-secret-token');
    expect(store.protection).toBe('os');
  });
});
