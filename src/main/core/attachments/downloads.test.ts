import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadCache, safeFileName, type Downloader } from './downloads';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'downloads-unit-'));
  dirs.push(dir);
  return dir;
}

/** A download that sends `first` and then nothing, until its signal is aborted. */
const stalling =
  (first: Uint8Array): Downloader =>
  async (_id, signal) => ({
    size: 1000,
    mime: 'application/pdf',
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(first);
        signal.addEventListener('abort', () => controller.error(new Error('aborted')));
      },
    }),
  });

describe('the download cache', () => {
  it('gives up a download that stops sending, and keeps nothing of it', async () => {
    const dir = folder();
    const cache = new DownloadCache({ dir, maxBytes: 1e6, idleMs: 50 });
    await expect(
      cache.fetch('F1', { name: 'a.pdf', mime: 'application/pdf' }, stalling(new Uint8Array(10))),
    ).rejects.toThrow('no data for 0.05 s');
    expect(await cache.list()).toEqual([]);
    expect(readdirSync(dir).filter((n) => n !== 'index.json')).toEqual([]);
  });

  it('stops a download under way when it closes', async () => {
    const cache = new DownloadCache({ dir: folder(), maxBytes: 1e6 });
    const running = cache.fetch(
      'F2',
      { name: 'b.pdf', mime: 'application/pdf' },
      stalling(new Uint8Array(10)),
    );
    await new Promise((r) => setTimeout(r, 10));
    await cache.close();
    await expect(running).rejects.toThrow('cancelled');
  });

  it('names files safely on every system, keeping the extension', () => {
    expect(safeFileName('report.final.pdf')).toBe('report.final.pdf');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a:b*c?.txt')).toBe('a_b_c_.txt');
    expect(safeFileName('CON.txt')).toBe('file-CON.txt');
    expect(safeFileName('...')).toBe('file-download');
    expect(safeFileName(`${'x'.repeat(300)}.docx`).endsWith('….docx')).toBe(true);
  });
});
