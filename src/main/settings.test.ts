import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../shared/ipc/settings';

const fake = vi.hoisted(() => ({ userData: '' }));
vi.mock('electron', () => ({
  app: { getPath: (name: string) => (name === 'userData' ? fake.userData : '') },
}));
const { createElectronSettingsStore } = await import('./settings');

beforeEach(() => {
  fake.userData = mkdtempSync(join(tmpdir(), 'workdesk-settings-'));
});
afterEach(() => rmSync(fake.userData, { recursive: true, force: true }));

describe('desktop settings', () => {
  it('reads defaults with no file and keeps a valid write in settings.json of the user-data folder', () => {
    const settings = createElectronSettingsStore();
    expect(settings.read()).toEqual(DEFAULT_SETTINGS);
    settings.write({ ...DEFAULT_SETTINGS, activeAccountId: 'local' });
    const file = join(fake.userData, 'settings.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ activeAccountId: 'local' });
  });

  it('reads the file electron-store wrote before (the same name and content)', () => {
    writeFileSync(
      join(fake.userData, 'settings.json'),
      JSON.stringify({ ...DEFAULT_SETTINGS, activeAccountId: 'x' }),
    );
    expect(createElectronSettingsStore().read().activeAccountId).toBe('x');
  });

  it('refuses an invalid write naming the field, and keeps the file as it was', () => {
    const settings = createElectronSettingsStore();
    settings.write(DEFAULT_SETTINGS);
    const bad = {
      ...DEFAULT_SETTINGS,
      accounts: [{ id: 'x', kind: 'remote' }],
    } as unknown as typeof DEFAULT_SETTINGS;
    expect(() => settings.write(bad)).toThrow(/accounts\.0\./);
    expect(settings.read()).toEqual(DEFAULT_SETTINGS);
  });

  it('a damaged file does not stop the start: moved aside, the last good copy used, a notice', () => {
    const settings = createElectronSettingsStore();
    settings.write({ ...DEFAULT_SETTINGS, activeAccountId: 'local' });
    writeFileSync(join(fake.userData, 'settings.json'), '{"preferences": {"theme": "neon"');
    const again = createElectronSettingsStore();
    expect(again.read().activeAccountId).toBe('local');
    expect(again.notices?.()).toEqual([expect.objectContaining({ title: 'The settings file was damaged' })]);
  });
});
