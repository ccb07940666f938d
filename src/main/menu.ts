import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../shared/ipc/events';

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Sends a command to the renderer as an `app.onDidRequestCommand` event. */
  send(command: MenuCommand): void;
}

/**
 * The native menus, with the usual shortcuts on each platform: new task (Ctrl/Cmd+N), search
 * (Ctrl/Cmd+F), sync now (Ctrl/Cmd+R: the app has no page reload), settings (Cmd+, in the app
 * menu on macOS, Ctrl+, under File elsewhere), quit (Cmd+Q; Ctrl+Q and Alt+F4 elsewhere).
 */
export function buildMenuTemplate({ platform, appName, send }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const command = (label: string, accelerator: string, name: MenuCommand): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => send(name),
  });
  const settings = command(mac ? 'Settings…' : 'Settings', 'CmdOrCtrl+,', 'settings');

  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            settings,
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  const file: MenuItemConstructorOptions = {
    label: mac ? 'File' : '&File',
    submenu: [
      command('New Task', 'CmdOrCtrl+N', 'new-task'),
      { type: 'separator' },
      command('Sync Now', 'CmdOrCtrl+R', 'sync-now'),
      ...(mac
        ? [{ role: 'close' } as const]
        : [
            { type: 'separator' } as const,
            settings,
            { type: 'separator' } as const,
            { role: 'quit', accelerator: 'Ctrl+Q' } as const,
          ]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
      { type: 'separator' },
      command('Search', 'CmdOrCtrl+F', 'search'),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: mac ? 'View' : '&View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const window: MenuItemConstructorOptions = { role: 'windowMenu' };
  return [...appMenu, file, edit, view, window];
}

export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(options)));
}
