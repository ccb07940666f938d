import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { channelNames } from '../shared/ipc/contract';
import type { Core } from './core/core';

/**
 * Registers every contract channel on ipcMain. Arguments are validated by the core's dispatch;
 * here we only check that the call comes from one of the app's own windows.
 */
export function registerIpc(core: Core, isOwnWindow: (sender: WebContents) => boolean): () => void {
  for (const name of channelNames) {
    ipcMain.handle(name, (event: IpcMainInvokeEvent, arg: unknown) => {
      if (!isOwnWindow(event.sender)) {
        return { ok: false, error: { type: 'unauthorized', message: 'IPC from a foreign frame refused' } };
      }
      return core.dispatch(name, arg);
    });
  }
  return () => {
    for (const name of channelNames) ipcMain.removeHandler(name);
  };
}
