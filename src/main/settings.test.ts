import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../shared/ipc/settings';

const fake = vi.hoisted(() => ({ store: {} as Record<string, unknown>, options: [] as unknown[] }));
vi.mock('electron-store', () => ({
  default: class {
    readonly path = '/user-data/settings.json';
    constructor(options: unknown) {
      fake.options.push(options);
    }
    get store() {
      return fake.store;
    }
    set store(value: Record<string, unknown>) {
      fake.store = structuredClone(value);
    }
  },
}));
const { createElectronSettingsStore } = await import('./settings');

describe('electron-store settings', () => {
  it('reads defaults from an empty store and keeps a valid write', () => {
    fake.store = {};
    const settings = createElectronSettingsStore();
    expect(fake.options).toEqual([{ name: 'settings', clearInvalidConfig: false }]);
    expect(settings.read()).toEqual(DEFAULT_SETTINGS);
    settings.write({ ...DEFAULT_SETTINGS, activeAccountId: 'local' });
    expect(fake.store['activeAccountId']).toBe('local');
  });

  it('refuses an invalid write naming the field, and keeps the store as it was', () => {
    fake.store = structuredClone(DEFAULT_SETTINGS);
    const settings = createElectronSettingsStore();
    const bad = {
      ...DEFAULT_SETTINGS,
      accounts: [{ id: 'x', kind: 'remote' }],
    } as unknown as typeof DEFAULT_SETTINGS;
    expect(() => settings.write(bad)).toThrow(/accounts\.0\./);
    expect(fake.store).toEqual(DEFAULT_SETTINGS);
  });

  it('reports a corrupt store with its path', () => {
    fake.store = { ...DEFAULT_SETTINGS, preferences: { theme: 'neon', syncIntervalSeconds: 60 } };
    expect(() => createElectronSettingsStore().read()).toThrow(
      /Settings in \/user-data\/settings.json are invalid: preferences\.theme/,
    );
  });
});
