// Save as PDF in the desktop app: the window's page as printed (its print style shows only the
// sheet the renderer put in for this), written where the user says.
import type { BrowserWindow, Dialog } from 'electron';
import { writeFile } from 'node:fs/promises';
import { HandlerError } from './core/errors';
import type { HandlerMap } from './core/handlers/types';

export interface PrintDeps {
  window(): Pick<BrowserWindow, 'webContents'> | undefined;
  dialog: Pick<Dialog, 'showSaveDialog'>;
  documentsDir: string;
}

export function printHandlers(deps: PrintDeps): HandlerMap<'print.savePdf'> {
  return {
    'print.savePdf': async ({ name }) => {
      const window = deps.window();
      if (!window) throw new HandlerError('not-found', 'No window to print');
      const safe = name
        .replace(/[/\\:*?"<>|]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      const file = `${safe || 'task'}.pdf`;
      const choice = await deps.dialog.showSaveDialog(window as BrowserWindow, {
        title: 'Save as PDF',
        defaultPath: `${deps.documentsDir}/${file}`,
        filters: [{ name: 'PDF', extensions: ['pdf'] }],
      });
      if (choice.canceled || !choice.filePath) return { savedTo: null };
      const pdf = await window.webContents.printToPDF({ printBackground: false, pageSize: 'A4' });
      await writeFile(choice.filePath, pdf);
      return { savedTo: choice.filePath };
    },
  };
}
