// The tray (menu bar on macOS) icon: New task…, how many changes wait to be sent, Open Workdesk
// and Quit. Its menu is rebuilt when the count changes (a menu's labels are fixed once built).
import type { Menu as ElectronMenu, NativeImage, Tray as ElectronTray } from 'electron';

export interface TrayDeps {
  Tray: new (image: NativeImage) => ElectronTray;
  Menu: { buildFromTemplate: typeof ElectronMenu.buildFromTemplate };
  icon: NativeImage;
  appName: string;
  newTask(): void;
  open(): void;
  quit(): void;
}

/** "All changes sent", "1 change waiting to be sent", "12 changes waiting to be sent". */
export function pendingLabel(count: number): string {
  if (count === 0) return 'All changes sent';
  return `${count} ${count === 1 ? 'change' : 'changes'} waiting to be sent`;
}

export interface WorkdeskTray {
  setPending(count: number): void;
  destroy(): void;
}

export function createTray(deps: TrayDeps): WorkdeskTray {
  const tray = new deps.Tray(deps.icon);
  let shown: number | undefined;
  const build = (count: number): void => {
    if (count === shown) return;
    shown = count;
    tray.setToolTip(count ? `${deps.appName}: ${pendingLabel(count)}` : deps.appName);
    tray.setContextMenu(
      deps.Menu.buildFromTemplate([
        { label: 'New task…', click: () => deps.newTask() },
        { label: pendingLabel(count), enabled: false },
        { type: 'separator' },
        { label: `Open ${deps.appName}`, click: () => deps.open() },
        { label: 'Quit', click: () => deps.quit() },
      ]),
    );
  };
  build(0);
  // A click on the icon (Windows, Linux) opens the window; macOS shows the menu itself.
  tray.on('click', () => deps.open());
  return {
    setPending: build,
    destroy: () => tray.destroy(),
  };
}
