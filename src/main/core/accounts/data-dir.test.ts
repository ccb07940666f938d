import { describe, expect, it } from 'vitest';
import { defaultDataDir } from './data-dir';

describe('defaultDataDir', () => {
  it('follows each platform\u2019s convention', () => {
    expect(defaultDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.local/share/workdesk');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/data' }, '/home/ann')).toBe('/data/workdesk');
    expect(defaultDataDir('darwin', {}, '/Users/ann')).toBe(
      '/Users/ann/Library/Application Support/Workdesk',
    );
    expect(defaultDataDir('win32', { APPDATA: 'C:/Users/ann/AppData/Roaming' }, 'C:/Users/ann')).toMatch(
      /AppData.Roaming.Workdesk$/,
    );
  });

  it('lets WORKDESK_DATA_DIR win', () => {
    expect(defaultDataDir('linux', { WORKDESK_DATA_DIR: '/tmp/wd' }, '/home/ann')).toBe('/tmp/wd');
  });
});
