import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate } from './menu';

vi.mock('electron', () => ({ Menu: {} }));

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? flatten(item.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}

describe.each(['darwin', 'win32', 'linux'] as const)('menus on %s', (platform) => {
  const send = vi.fn();
  const items = flatten(buildMenuTemplate({ platform, appName: 'Workdesk', send }));
  const byAccelerator = (accelerator: string) => items.find((item) => item.accelerator === accelerator);

  it.each([
    ['CmdOrCtrl+N', 'new-task'],
    ['CmdOrCtrl+F', 'search'],
    ['CmdOrCtrl+R', 'sync-now'],
    ['CmdOrCtrl+,', 'settings'],
  ])('%s sends %s to the renderer', (accelerator, command) => {
    const item = byAccelerator(accelerator);
    expect(item).toBeDefined();
    (item?.click as () => void)();
    expect(send).toHaveBeenLastCalledWith(command);
  });

  it('has quit, the edit roles and no page reload or dev tools', () => {
    const roles = items.map((item) => item.role).filter(Boolean);
    expect(roles).toContain('quit');
    expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('toggleDevTools');
    const accelerators = items.map((item) => item.accelerator).filter(Boolean);
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it(
    platform === 'darwin'
      ? 'puts settings and quit in the app menu'
      : 'puts settings and quit (Ctrl+Q) under File',
    () => {
      const top = buildMenuTemplate({ platform, appName: 'Workdesk', send });
      const first = top[0]?.submenu as MenuItemConstructorOptions[];
      expect(top[0]?.label).toBe(platform === 'darwin' ? 'Workdesk' : '&File');
      expect(first.some((item) => item.role === 'quit')).toBe(true);
      expect(first.some((item) => item.accelerator === 'CmdOrCtrl+,')).toBe(true);
    },
  );
});
