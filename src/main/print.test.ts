import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { printHandlers } from './print';

describe('Save as PDF (desktop app)', () => {
  it('asks where, prints the page to PDF and writes it there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'print-'));
    try {
      const printToPDF = vi.fn(async () => Buffer.from('%PDF-1.7 test'));
      const window = { webContents: { printToPDF } };
      const dialog = {
        showSaveDialog: vi.fn(async () => ({ canceled: false, filePath: join(dir, 'out.pdf') })),
      };
      const handlers = printHandlers({
        window: () => window as never,
        dialog,
        documentsDir: '/home/me/Documents',
      });
      await expect(handlers['print.savePdf']({ name: '361 Launch: "final" plan' })).resolves.toEqual({
        savedTo: join(dir, 'out.pdf'),
      });
      expect(dialog.showSaveDialog).toHaveBeenCalledWith(window, {
        title: 'Save as PDF',
        defaultPath: '/home/me/Documents/361 Launch final plan.pdf',
        filters: [{ name: 'PDF', extensions: ['pdf'] }],
      });
      expect(printToPDF).toHaveBeenCalledWith({ printBackground: false, pageSize: 'A4' });
      expect(readFileSync(join(dir, 'out.pdf'), 'utf8')).toBe('%PDF-1.7 test');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints nothing when the dialog is cancelled', async () => {
    const printToPDF = vi.fn();
    const handlers = printHandlers({
      window: () => ({ webContents: { printToPDF } }) as never,
      dialog: { showSaveDialog: vi.fn(async () => ({ canceled: true, filePath: '' })) },
      documentsDir: '/d',
    });
    await expect(handlers['print.savePdf']({ name: 'x' })).resolves.toEqual({ savedTo: null });
    expect(printToPDF).not.toHaveBeenCalled();
  });
});
