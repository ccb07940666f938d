// The preload exposes exactly `window.workdesk = {invoke, on, stageFiles}` for the contract's
// channels and events (an allowlist), and nothing else of Node or Electron.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { isChannelName } from '../shared/ipc/contract';
import { isEventName } from '../shared/ipc/events';
import { STAGE_DROPPED_FILES, type RefusedFile, type StageResult } from '../shared/ipc/attachments';
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
  /**
   * Copies files the user dropped or picked into the spool. Takes `File` objects only and
   * resolves their paths here (`webUtils.getPathForFile`): the page never sees a path and can
   * never name one. A File the page made itself (no file on disk behind it) has no path and is
   * refused. The main side answers spool ids.
   */
  async stageFiles(files: readonly File[]): Promise<IpcResult<StageResult>> {
    const paths: string[] = [];
    const refused: RefusedFile[] = [];
    for (const file of Array.isArray(files) ? files : []) {
      const path = file instanceof File ? webUtils.getPathForFile(file) : '';
      if (path) paths.push(path);
      else
        refused.push({
          name: file instanceof File ? file.name : String(file),
          reason: 'is not a file on this computer',
        });
    }
    if (!paths.length) return { ok: true, value: { staged: [], refused } };
    const result = (await ipcRenderer.invoke(STAGE_DROPPED_FILES, { paths })) as IpcResult<StageResult>;
    if (!result.ok) return result;
    return {
      ok: true,
      value: { staged: result.value.staged, refused: [...refused, ...result.value.refused] },
    };
  },
};

contextBridge.exposeInMainWorld('workdesk', api);
