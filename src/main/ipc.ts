import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { channelNames } from '../shared/ipc/contract';
import { STAGE_DROPPED_FILES, StageDroppedFilesInput, type StageResult } from '../shared/ipc/attachments';
import { describeZodError } from '../shared/errors';
import type { IpcResult } from '../shared/ipc/channel';
import type { Dispatch } from './core/dispatch';

/**
 * Whether an invoke comes from the app's own page: the main frame of one of its windows, at
 * the app's origin. A frame the page embedded, or a page navigated elsewhere, is refused.
 */
export function isTrustedSender(
  event: IpcMainInvokeEvent,
  isOwnContents: (contents: IpcMainInvokeEvent['sender']) => boolean,
  isAppUrl: (url: string) => boolean,
): boolean {
  const frame = event.senderFrame;
  if (!frame || !isOwnContents(event.sender)) return false;
  if (frame !== event.sender.mainFrame) return false;
  return isAppUrl(frame.url);
}

/**
 * Registers every contract channel on `ipcMain.handle` (Electron itself throws when a channel
 * gets a second handler, so a double registration fails at start-up). The sender is checked
 * before anything else; the argument is validated by the dispatch against the channel's
 * schema before any handler runs. Channels outside the contract have no handler at all.
 */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatch,
  isTrusted: (event: IpcMainInvokeEvent) => boolean,
  stageDroppedPaths?: (paths: readonly string[]) => Promise<IpcResult<StageResult>>,
): () => void {
  const refused: IpcResult<never> = {
    ok: false,
    error: { type: 'unauthorized', message: 'IPC from a frame that is not the app was refused' },
  };
  for (const name of channelNames) {
    ipcMain.handle(name, (event: IpcMainInvokeEvent, arg: unknown): Promise<IpcResult<unknown>> => {
      if (!isTrusted(event)) return Promise.resolve(refused);
      return dispatch(name, arg);
    });
  }
  // The preload's private channel for dropped and picked files (see STAGE_DROPPED_FILES): the
  // only way a path reaches the core, and only paths the preload resolved from File objects.
  if (stageDroppedPaths) {
    ipcMain.handle(STAGE_DROPPED_FILES, async (event: IpcMainInvokeEvent, arg: unknown) => {
      if (!isTrusted(event)) return refused;
      const parsed = StageDroppedFilesInput.safeParse(arg);
      if (!parsed.success) {
        return { ok: false, error: { type: 'invalid-argument', ...describeZodError(parsed.error, 'paths') } };
      }
      return stageDroppedPaths(parsed.data.paths);
    });
  }
  return () => {
    for (const name of channelNames) ipcMain.removeHandler(name);
    if (stageDroppedPaths) ipcMain.removeHandler(STAGE_DROPPED_FILES);
  };
}
