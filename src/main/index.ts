// The Electron shell's entry: thin by design (DESIGN.md). Everything else lives in the core.
import { app, BrowserWindow, ipcMain } from 'electron';
import { createCore } from './core/core';
import { registerIpc } from './ipc';
import { createMainWindow } from './window';
import { DEFAULT_WINDOW } from './window-state';
import { join } from 'node:path';

async function start(): Promise<void> {
  await app.whenReady();
  const core = await createCore({ version: app.getVersion(), transport: 'electron' });
  registerIpc(ipcMain, core.dispatch, (event) =>
    BrowserWindow.getAllWindows().some((w) => w.webContents === event.sender),
  );
  core.events.onAny((event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(event, payload);
  });
  createMainWindow({
    preload: join(__dirname, '../preload/index.cjs'),
    state: DEFAULT_WINDOW,
    saveState: () => {},
  });
  app.on('window-all-closed', () => {
    void core.close().then(() => app.quit());
  });
}

void start();
