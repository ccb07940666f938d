// The Electron shell's entry: thin by design (DESIGN.md). It wires Electron's pieces (window,
// session, protocol, IPC, menus, notifications, keychain) to the core; everything else lives in
// src/main/core and runs under plain Node, in a utility process of its own (core-process.ts), so
// a heavy pull or import never keeps this process from answering the window.
import {
  app,
  BrowserWindow,
  dialog,
  globalShortcut,
  ipcMain,
  Menu,
  nativeImage,
  screen,
  session as electronSession,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startCoreProcess, type CoreProcess } from './core/process/core-process';
import { loadFirstScreen } from './core/accounts/first-screen';
import { forkUtilityCore } from './core-process';
import { LOCAL_ACCOUNT_ID } from '../shared/ipc/accounts';
import { isTrustedSender, registerIpc } from './ipc';
import { HandlerError } from './core/errors';
import type { IpcResult } from '../shared/ipc/channel';
import { SHELL_CHANNELS, type ShellChannel } from '../shared/ipc/contract';
import type { HandlerMap } from './core/handlers/types';
import { installMenu } from './menu';
import { createSystemNotifier } from './notifications';
import { handleAppProtocol, registerAppScheme } from './protocol';
import { createSafeStorageSecretStore } from './secret-store';
import { hardenSession, hardenWebContents, isAppUrl } from './security';
import { createElectronSettingsStore } from './settings';
import { createMainWindow } from './window';
import { LinkHandler, registerDeepLinks } from './deep-links';
import { desktopFileHandlers } from './files';
import { printHandlers } from './print';
import { createQuickCapture } from './quick-capture';
import { createTray, type WorkdeskTray } from './tray';
import { createDispatch, type Dispatch } from './core/dispatch';
import { QUICK_CAPTURE_ACCELERATOR } from '../shared/ipc/settings';
import { restoreBounds } from './window-state';

const log = (message: string): void => console.error(message);

/**
 * Unpackaged runs (`npm start`) load node_modules, whose better-sqlite3 is built for Node (the
 * tests use it); the Electron build (scripts/rebuild-electron.mjs) sits beside it, and code that
 * opens a database passes this variable to better-sqlite3's `nativeBinding`. The packaged app
 * needs none of this: its copy of the module carries the Electron build (build/after-pack.mjs),
 * and it ignores the variable if one is set where it starts: a native library named from the
 * environment would run with the app's rights and see its data.
 */
function useElectronSqliteBinding(): void {
  if (app.isPackaged) {
    delete process.env['WORKDESK_SQLITE_NATIVE_BINDING'];
    return;
  }
  const file = join(
    app.getAppPath(),
    'build',
    'native',
    `${process.platform}-${process.arch}`,
    'better_sqlite3.node',
  );
  if (existsSync(file)) process.env['WORKDESK_SQLITE_NATIVE_BINDING'] = file;
  else log(`better-sqlite3 for Electron not found at ${file}: run npm run rebuild:electron`);
}

let mainWindow: BrowserWindow | undefined;
let running: CoreProcess | undefined;

let openWindow: (() => void) | undefined;
let tray: WorkdeskTray | undefined;
/** Lets the global shortcut and the tray icon go (on quit). */
let disposeDesktop: (() => void) | undefined;

function focusMainWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    // macOS keeps running with no window: a link, the tray or the shortcut opens one.
    openWindow?.();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** The window's New task dialog, brought forward (quick capture, the tray). */
function captureTask(): void {
  focusMainWindow();
  mainWindow?.webContents.send('app.onDidRequestCommand', { command: 'new-task' });
}

const links = new LinkHandler({
  deliver: (link) => mainWindow?.webContents.send('app.onDidOpenLink', { link }),
  refuse: (message) => dialog.showErrorBox('Workdesk cannot open this link', message),
});

/** The core's dispatch, with the channels only the desktop shell answers. */
function withShellChannels(core: CoreProcess, downloadsDir: string): Dispatch {
  const localPath = async (arg: Parameters<CoreProcess['localPath']>[0]): Promise<string> =>
    valueOf(await core.localPath(arg));
  // Every channel of `SHELL_CHANNELS` (the contract) is answered here: one missing does not
  // compile, and those channels alone are routed here.
  const handlers: HandlerMap<ShellChannel> = {
    ...desktopFileHandlers({
      localPath,
      shell,
      dialog,
      window: () => mainWindow,
      downloadsDir,
    }),
    'links.takePending': () => ({ links: links.take() }),
    ...printHandlers({ window: () => mainWindow, dialog, documentsDir: app.getPath('documents') }),
  };
  const own = createDispatch(handlers, log);
  const mine = new Set<string>(SHELL_CHANNELS);
  return (channel, arg) =>
    typeof channel === 'string' && mine.has(channel) ? own(channel, arg) : core.dispatch(channel, arg);
}

function valueOf<T>(result: IpcResult<T>): T {
  if (!result.ok) throw new HandlerError(result.error.type, result.error.message, result.error.field);
  return result.value;
}

async function start(): Promise<void> {
  registerAppScheme();
  // Before ready: a macOS launch by a link sends open-url early.
  registerDeepLinks(app, links, {
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
    argv: process.argv,
    focus: focusMainWindow,
  });
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { openExternal: (url) => shell.openExternal(url) }),
  );
  await app.whenReady();
  useElectronSqliteBinding();
  hardenSession(electronSession.defaultSession);
  const outDir = join(__dirname, '..');
  handleAppProtocol(join(outDir, 'renderer'));

  const dataDir = app.getPath('userData');
  const settings = createElectronSettingsStore();
  const secrets = await createSafeStorageSecretStore(join(dataDir, 'secrets.json'), log);
  // Checked before the core's process opens the cache: while it starts, the window's first reads
  // are answered here from the record of the last close (core/accounts/first-screen.ts), so the
  // window opens at once instead of once the core is ready.
  const firstScreen = loadFirstScreen({ dataDir, version: app.getVersion(), transport: 'electron', log });
  // The core runs in its own process; the keychain and notifications stay here and are
  // reached by it through the transport's narrow requests.
  const session = await startCoreProcess({
    ...(firstScreen ? { firstScreen } : {}),
    spawn: () => forkUtilityCore(utilityProcess, join(__dirname, 'core.js')),
    start: { dataDir, version: app.getVersion(), transport: 'electron' },
    secrets,
    secretKeys: () => [LOCAL_ACCOUNT_ID, ...settings.read().accounts.map((account) => account.id)],
    log,
    notifier: createSystemNotifier(focusMainWindow, (taskId) =>
      mainWindow?.webContents.send('app.onDidRequestOpenTask', { taskId }),
    ),
  });
  running = session;
  // With a first screen the window opens before the core is ready: a core that cannot start
  // ends the app as it did before the window opened.
  session.opened.catch((err: unknown) => {
    log(`Workdesk could not start: ${err instanceof Error ? err.stack : String(err)}`);
    // The window is open (the first screen): it does not just vanish, the user is told why.
    dialog.showErrorBox(
      'Workdesk could not start',
      `Its core did not open: ${err instanceof Error ? err.message : String(err)}\nThe log has the details.`,
    );
    app.exit(1);
  });

  const isOwnContents = (contents: Electron.WebContents): boolean =>
    BrowserWindow.getAllWindows().some((window) => window.webContents === contents);
  registerIpc(
    ipcMain,
    withShellChannels(session, app.getPath('downloads')),
    (event) => isTrustedSender(event, isOwnContents, (url) => isAppUrl(url)),
    (paths) => session.stageDroppedPaths(paths),
  );
  session.events.onAny((event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(event, payload);
  });
  installMenu({
    platform: process.platform,
    appName: app.getName(),
    send: (command) => mainWindow?.webContents.send('app.onDidRequestCommand', { command }),
  });

  openWindow = (): void => {
    const workAreas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
    mainWindow = createMainWindow({
      preload: join(outDir, 'preload', 'index.cjs'),
      state: restoreBounds(settings.read().window, workAreas),
      devServerUrl: app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'],
      saveState: (window) => settings.write({ ...settings.read(), window }),
    });
  };
  openWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow?.();
  });

  // Quick capture and the tray: from any application, a new task through the window's dialog.
  const capture = createQuickCapture({
    globalShortcut,
    accelerator: QUICK_CAPTURE_ACCELERATOR,
    capture: captureTask,
    log,
  });
  capture.apply(settings.read().preferences.quickCaptureShortcut === true);
  const icon = nativeImage
    .createFromPath(
      app.isPackaged ? join(process.resourcesPath, 'icon.png') : join(app.getAppPath(), 'build', 'icon.png'),
    )
    .resize({ width: 16, height: 16 });
  tray = createTray({
    Tray,
    Menu,
    icon,
    appName: app.getName(),
    newTask: captureTask,
    open: focusMainWindow,
    quit: () => app.quit(),
  });
  session.events.onAny((event, payload) => {
    if (event === 'settings.onDidChange')
      capture.apply((payload as { quickCaptureShortcut?: boolean }).quickCaptureShortcut === true);
    if (event === 'sync.onDidChangeStatus')
      tray?.setPending((payload as { pendingCount: number }).pendingCount);
  });
  disposeDesktop = () => {
    capture.dispose();
    tray?.destroy();
    tray = undefined;
  };
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

let closing = false;
app.on('will-quit', (event) => {
  disposeDesktop?.();
  if (closing || !running) return;
  // Close the core (cache, outbox, local service) before the process ends.
  event.preventDefault();
  closing = true;
  void running.close().finally(() => app.quit());
});

if (!app.requestSingleInstanceLock()) {
  // Another Workdesk is running: it gets focus (second-instance), this one leaves.
  app.quit();
} else {
  start().catch((err: unknown) => {
    log(`Workdesk could not start: ${err instanceof Error ? err.stack : String(err)}`);
    app.exit(1);
  });
}
