// The desktop app's own ways with a received file: open it in the system's default program and
// save it where the user says. The core makes the file local (download cache or spool); these
// hand the local copy to the OS. The web host has neither channel: its page saves with the
// browser's download.
import type { Dialog, Shell, BrowserWindow } from 'electron';
import { copyFile } from 'node:fs/promises';
import type { LocalFile } from '../shared/ipc/attachments';
import type { ChannelArg } from '../shared/ipc/contract';
import { HandlerError } from './core/errors';
import type { HandlerMap } from './core/handlers/types';
import type { DownloadCache } from './core/attachments/downloads';

export interface DesktopFileDeps {
  /** Makes the file local through the active core (`attachments.fetch`). */
  fetch(arg: ChannelArg<'attachments.fetch'>): Promise<LocalFile>;
  /** The active account's download cache (where a local file's bytes are). */
  downloads(): DownloadCache | undefined;
  shell: Pick<Shell, 'openPath'>;
  dialog: Pick<Dialog, 'showSaveDialog'>;
  window(): BrowserWindow | undefined;
  /** The user's Downloads folder, where Save as… starts. */
  downloadsDir: string;
}

export function desktopFileHandlers(
  deps: DesktopFileDeps,
): HandlerMap<'attachments.openExternal' | 'attachments.saveAs'> {
  async function localPath(arg: ChannelArg<'attachments.fetch'>): Promise<string> {
    const file = await deps.fetch(arg);
    const downloads = deps.downloads();
    if (!downloads) throw new HandlerError('offline', 'No workspace is open');
    return downloads.pathOf(file);
  }
  return {
    'attachments.openExternal': async (arg) => {
      const path = await localPath(arg);
      // openPath answers an error message, or '' when the program was started.
      const failure = await deps.shell.openPath(path);
      if (failure) throw new HandlerError('rejected', `${arg.name} could not be opened: ${failure}`);
      return { opened: true };
    },
    'attachments.saveAs': async (arg) => {
      const path = await localPath(arg);
      const options = {
        title: `Save ${arg.name}`,
        defaultPath: `${deps.downloadsDir}/${arg.name.replace(/[/\\]/g, '_')}`,
      };
      const window = deps.window();
      const choice = window
        ? await deps.dialog.showSaveDialog(window, options)
        : await deps.dialog.showSaveDialog(options);
      if (choice.canceled || !choice.filePath) return { savedTo: null };
      await copyFile(path, choice.filePath);
      return { savedTo: choice.filePath };
    },
  };
}
