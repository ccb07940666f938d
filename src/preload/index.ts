// The preload exposes exactly `window.workdesk = {invoke, on}` for the contract's channels and
// events (an allowlist), and nothing else of Node or Electron.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { isChannelName } from '../shared/ipc/contract';
import { isEventName } from '../shared/ipc/events';
import type { IpcResult } from '../shared/ipc/channel';

const api = {
  invoke(channel: string, arg: unknown): Promise<IpcResult<unknown>> {
    if (!isChannelName(channel)) {
      return Promise.resolve({
        ok: false,
        error: { type: 'unknown-channel', message: `Unknown channel: ${channel}` },
      });
    }
    return ipcRenderer.invoke(channel, arg) as Promise<IpcResult<unknown>>;
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (!isEventName(event)) throw new Error(`Unknown event: ${event}`);
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => ipcRenderer.removeListener(event, wrapped);
  },
  /** A dropped or picked file's path, so the main side reads the file itself. */
  pathForFile(file: File): string {
    return webUtils.getPathForFile(file);
  },
};

contextBridge.exposeInMainWorld('workdesk', api);
