import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATIONS, DEFAULT_SETTINGS } from '../../../shared/ipc/settings';
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
    const preferences = {
      ...DEFAULT_SETTINGS.preferences,
      syncIntervalSeconds: 120,
      theme: 'dark' as const,
      conflictPolicy: 'ask' as const,
    };
    store.write({ ...DEFAULT_SETTINGS, preferences });
    expect(createJsonSettingsStore(file).read().preferences).toEqual(preferences);
  });

  it('reads settings saved before notices had settings with every notice on', () => {
    const file = join(dir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({ ...DEFAULT_SETTINGS, preferences: { syncIntervalSeconds: 90, theme: 'light' } }),
    );
    expect(createJsonSettingsStore(file).read().preferences).toEqual({
      syncIntervalSeconds: 90,
      theme: 'light',
      notifications: DEFAULT_NOTIFICATIONS,
      conflictPolicy: 'mine',
    });
  });

  it('refuses to write an invalid value, naming the field, and leaves the file alone', () => {
    const file = join(dir, 'settings.json');
    const store = createJsonSettingsStore(file);
    store.write(DEFAULT_SETTINGS);
    const before = readFileSync(file, 'utf8');
    const bad = {
      ...DEFAULT_SETTINGS,
      preferences: { ...DEFAULT_SETTINGS.preferences, syncIntervalSeconds: 1, theme: 'dark' as const },
    };
    expect(() => store.write(bad)).toThrow(/preferences\.syncIntervalSeconds/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([
    [
      'a field of the wrong type',
      JSON.stringify({ ...DEFAULT_SETTINGS, activeAccountId: 7 }),
      /invalid: activeAccountId/,
    ],
    ['text that is not JSON', '{nope', /not valid JSON/],
  ])('a file with %s is moved aside, the last good copy used, the user told', (_what, text, reason) => {
    const file = join(dir, 'settings.json');
    const at = new Date('2026-11-26T08:00:00.000Z');
    const good = { ...DEFAULT_SETTINGS, activeAccountId: 'local' };
    createJsonSettingsStore(file).write(good);
    writeFileSync(file, text);
    const store = createJsonSettingsStore(file, { clock: () => at });
    expect(store.read()).toEqual(good);
    const movedTo = `${file}.corrupt-2026-11-26T08-00-00-000Z`;
    expect(readFileSync(movedTo, 'utf8')).toBe(text);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(good);
    expect(store.notices?.()).toEqual([
      expect.objectContaining({
        title: 'The settings file was damaged',
        message: expect.stringMatching(reason),
        file: movedTo,
      }),
    ]);
  });

  it('keeps a copy of the file read at start, written again only when it differs', () => {
    const file = join(dir, 'settings.json');
    createJsonSettingsStore(file).write({ ...DEFAULT_SETTINGS, activeAccountId: 'local' });
    const copy = `${file}.last-good`;
    // A start with the same file: the copy is left as it is (its time stays the one set here).
    const past = new Date('2026-01-01T00:00:00.000Z');
    utimesSync(copy, past, past);
    createJsonSettingsStore(file).read();
    expect(statSync(copy).mtime.getTime()).toBe(past.getTime());
    // The file changed outside the app (a hand edit): the next start copies it.
    const edited = JSON.stringify({ ...DEFAULT_SETTINGS, activeAccountId: 'remote-1' });
    writeFileSync(file, edited);
    createJsonSettingsStore(file).read();
    expect(readFileSync(copy, 'utf8')).toBe(edited);
  });

  it('falls back to the defaults when there is no good copy', () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, '\0\0\0');
    const store = createJsonSettingsStore(file);
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
    expect(store.notices?.()[0]?.message).toMatch(/the defaults put in its place; accounts added before/);
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

  it('a token that no longer decrypts reads as missing (asked for again), never a failure', () => {
    const file = join(dir, 'secrets.json');
    const log: string[] = [];
    const failing: SecretCodec = {
      protection: 'os',
      encode: (plain) => `x${plain}`,
      decode: () => {
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      },
    };
    const store = createFileSecretStore(file, failing, { log: (m) => log.push(m) });
    store.set('acc', 'tok');
    expect(store.get('acc')).toBeUndefined();
    expect(log).toEqual([expect.stringMatching(/token of acc could not be decrypted/)]);
  });

  it('a damaged secrets file is moved aside, the last good copy used, the user told', () => {
    const file = join(dir, 'secrets.json');
    createFileSecretStore(file).set('acc', 'tok');
    writeFileSync(file, '{"acc": 7}');
    const store = createFileSecretStore(file);
    expect(store.get('acc')).toBe('tok');
    expect(store.notices?.()).toEqual([
      expect.objectContaining({ title: 'The stored tokens file was damaged' }),
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('not remembering tokens takes them off the disk and keeps them in memory, and back', () => {
    const file = join(dir, 'secrets.json');
    const store = createFileSecretStore(file);
    store.set('acc', 'tok');
    store.remember?.(false);
    expect(readFileSync(file, 'utf8')).not.toContain('tok');
    expect(store.get('acc')).toBe('tok');
    store.set('other', 'tok-2');
    expect(readFileSync(file, 'utf8')).not.toContain('tok-2');
    store.remember?.(true);
    expect(createFileSecretStore(file).get('other')).toBe('tok-2');
  });
});
