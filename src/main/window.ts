import { BrowserWindow } from 'electron';
import type { WindowState } from '../shared/ipc/settings';
import { APP_ORIGIN } from './security';
import { captureState } from './window-state';

export interface MainWindowOptions {
  /** Absolute path of the built preload (out/preload/index.cjs). */
  preload: string;
  /** Bounds from `restoreBounds`. */
  state: WindowState;
  /** electron-vite's dev server in development; otherwise the app's own scheme. */
  devServerUrl?: string | undefined;
  /** Called with the bounds to remember, when the window moves, resizes or closes. */
  saveState(state: WindowState): void;
}

/**
 * The main window with the security settings of Electron's checklist. The renderer is loaded
 * from `app://workdesk/` (or the dev server), never from a remote address.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const { state } = options;
  const window = new BrowserWindow({
    width: state.width,
    height: state.height,
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    minWidth: 400,
    minHeight: 300,
    show: false,
    title: 'Workdesk',
    // The Electron security checklist's window items, written out literally so that both the
    // tests and electronegativity's static checks see each one.
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Middle-click opens new windows; they are denied anyway, this removes the path.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());

  let timer: NodeJS.Timeout | undefined;
  const save = (): void => {
    clearTimeout(timer);
    if (window.isDestroyed()) return;
    options.saveState(captureState(window.getNormalBounds(), window.isMaximized()));
  };
  const saveSoon = (): void => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', saveSoon);
  window.on('move', saveSoon);
  window.on('close', save);

  void window.loadURL(options.devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return window;
}
