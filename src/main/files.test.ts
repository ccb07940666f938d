import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { DownloadCache } from './core/attachments/downloads';
import { desktopFileHandlers, type DesktopFileDeps } from './files';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setUp(overrides: Partial<DesktopFileDeps> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'desktop-files-'));
  dirs.push(dir);
  const downloads = new DownloadCache({ dir: join(dir, 'cache'), maxBytes: 1e6 });
  const file = { fileId: 'F1', name: 'plan.pdf', size: 4, mime: 'application/pdf', source: 'cache' as const };
  const path = downloads.pathOf(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, 'PDF!');
  const window = { id: 1 } as unknown as BrowserWindow;
  const deps = {
    localPath: vi.fn(async () => downloads.pathOf(file)),
    shell: { openPath: vi.fn(async () => '') },
    dialog: { showSaveDialog: vi.fn(async () => ({ canceled: false, filePath: join(dir, 'saved.pdf') })) },
    window: () => window,
    downloadsDir: '/home/me/Downloads',
    ...overrides,
  };
  return { dir, path, window, deps, handlers: desktopFileHandlers(deps) };
}

describe('received files in the desktop app', () => {
  it('opens the local copy in the system’s default program', async () => {
    const { deps, handlers, path } = setUp();
    await expect(handlers['attachments.openExternal']({ fileId: 'F1', name: 'plan.pdf' })).resolves.toEqual({
      opened: true,
    });
    expect(deps.localPath).toHaveBeenCalledWith({ fileId: 'F1', name: 'plan.pdf' });
    expect(deps.shell.openPath).toHaveBeenCalledExactlyOnceWith(path);
    expect(path.endsWith('plan.pdf')).toBe(true);
  });

  it('says why the system could not open it', async () => {
    const { handlers } = setUp({ shell: { openPath: vi.fn(async () => 'No application knows .pdf') } });
    await expect(
      handlers['attachments.openExternal']({ fileId: 'F1', name: 'plan.pdf' }),
    ).rejects.toMatchObject({
      type: 'rejected',
      message: 'plan.pdf could not be opened: No application knows .pdf',
    });
  });

  it('Save as… asks where (from Downloads, with its name) and copies the bytes there', async () => {
    const { deps, handlers, dir, window } = setUp();
    await expect(handlers['attachments.saveAs']({ fileId: 'F1', name: 'plan.pdf' })).resolves.toEqual({
      savedTo: join(dir, 'saved.pdf'),
    });
    expect(deps.dialog.showSaveDialog).toHaveBeenCalledWith(window, {
      title: 'Save plan.pdf',
      defaultPath: '/home/me/Downloads/plan.pdf',
    });
    expect(readFileSync(join(dir, 'saved.pdf'), 'utf8')).toBe('PDF!');
  });

  it('Save as… cancelled saves nothing', async () => {
    const { handlers } = setUp({
      dialog: { showSaveDialog: vi.fn(async () => ({ canceled: true, filePath: '' })) },
    });
    await expect(handlers['attachments.saveAs']({ fileId: 'F1', name: 'plan.pdf' })).resolves.toEqual({
      savedTo: null,
    });
  });
});
