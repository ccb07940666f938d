// The Electron shell's entry: thin by design (DESIGN.md). Everything else lives in the core.
import { app, BrowserWindow } from 'electron';
import { createCore } from './core/core';
import { registerIpc } from './ipc';
import { createMainWindow } from './window';

async function start(): Promise<void> {
  await app.whenReady();
  const core = await createCore({ version: app.getVersion(), transport: 'electron' });
  registerIpc(core, (sender) => BrowserWindow.getAllWindows().some((w) => w.webContents === sender));
  core.events.onAny((event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(event, payload);
  });
  createMainWindow();
  app.on('window-all-closed', () => {
    void core.close().then(() => app.quit());
  });
}

void start();
