import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions, NativeImage } from 'electron';
import { createTray, pendingLabel, type TrayDeps } from './tray';

function fakeTray() {
  const made: FakeTray[] = [];
  class FakeTray {
    readonly listeners = new Map<string, () => void>();
    readonly setToolTip = vi.fn();
    readonly setContextMenu = vi.fn();
    readonly destroy = vi.fn();
    constructor(readonly image: unknown) {
      made.push(this);
    }
    on(name: string, listener: () => void) {
      this.listeners.set(name, listener);
    }
  }
  const templates: MenuItemConstructorOptions[][] = [];
  const Menu = {
    buildFromTemplate: vi.fn((template: MenuItemConstructorOptions[]) => {
      templates.push(template);
      return { template } as never;
    }),
  };
  const deps = {
    Tray: FakeTray as unknown as TrayDeps['Tray'],
    Menu,
    icon: { icon: true } as unknown as NativeImage,
    appName: 'Workdesk',
    newTask: vi.fn(),
    open: vi.fn(),
    quit: vi.fn(),
  };
  return { made, templates, deps };
}

describe('the tray icon', () => {
  it('offers New task…, the pending-changes count, Open Workdesk and Quit', () => {
    const { made, templates, deps } = fakeTray();
    createTray(deps);
    expect(made).toHaveLength(1);
    expect(made[0]!.image).toBe(deps.icon);
    const menu = templates.at(-1)!;
    expect(menu.map((item) => item.label ?? item.type)).toEqual([
      'New task…',
      'All changes sent',
      'separator',
      'Open Workdesk',
      'Quit',
    ]);
    expect(menu[1]!.enabled).toBe(false);
    (menu[0]!.click as () => void)();
    expect(deps.newTask).toHaveBeenCalledOnce();
    (menu[3]!.click as () => void)();
    expect(deps.open).toHaveBeenCalledOnce();
    (menu[4]!.click as () => void)();
    expect(deps.quit).toHaveBeenCalledOnce();
    // A click on the icon itself opens the window (Windows, Linux).
    made[0]!.listeners.get('click')?.();
    expect(deps.open).toHaveBeenCalledTimes(2);
  });

  it('shows the count of changes waiting, rebuilding the menu only when it changes', () => {
    const { made, templates, deps } = fakeTray();
    const tray = createTray(deps);
    tray.setPending(3);
    tray.setPending(3);
    expect(templates).toHaveLength(2);
    expect(templates.at(-1)![1]!.label).toBe('3 changes waiting to be sent');
    expect(made[0]!.setToolTip).toHaveBeenLastCalledWith('Workdesk: 3 changes waiting to be sent');
    tray.setPending(0);
    expect(templates.at(-1)![1]!.label).toBe('All changes sent');
    expect(made[0]!.setToolTip).toHaveBeenLastCalledWith('Workdesk');
    tray.destroy();
    expect(made[0]!.destroy).toHaveBeenCalledOnce();
  });

  it('words the count', () => {
    expect([0, 1, 2].map(pendingLabel)).toEqual([
      'All changes sent',
      '1 change waiting to be sent',
      '2 changes waiting to be sent',
    ]);
  });
});
