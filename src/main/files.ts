// The desktop app's own ways with a received file: open it in the system's default program and
// save it where the user says. The core makes the file local (download cache or spool); these
// hand the local copy to the OS. The web host has neither channel: its page saves with the
// browser's download.
import type { Dialog, Shell, BrowserWindow } from 'electron';
import { copyFile } from 'node:fs/promises';
import type { ChannelArg } from '../shared/ipc/contract';
import { HandlerError } from './core/errors';
import type { HandlerMap } from './core/handlers/types';

export interface DesktopFileDeps {
  /**
   * Makes the file local through the active core (`attachments.fetch`) and answers where its
   * bytes are on disk; the core (in its own process) answers an error when no workspace is open.
   */
  localPath(arg: ChannelArg<'attachments.fetch'>): Promise<string>;
  shell: Pick<Shell, 'openPath'>;
  dialog: Pick<Dialog, 'showSaveDialog'>;
  window(): BrowserWindow | undefined;
  /** The user's Downloads folder, where Save as… starts. */
  downloadsDir: string;
}

export function desktopFileHandlers(
  deps: DesktopFileDeps,
): HandlerMap<'attachments.openExternal' | 'attachments.saveAs'> {
  const localPath = (arg: ChannelArg<'attachments.fetch'>): Promise<string> => deps.localPath(arg);
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
