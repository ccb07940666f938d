import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { DownloadProgress } from '../../../shared/ipc/attachments';
import { AbortedError, NetworkError } from '../api/errors';
import { shortenName } from './names';

/** What the cache keeps of a file besides its bytes. */
const CachedFile = z.object({
  fileId: z.string(),
  name: z.string(),
  size: z.number().int().min(0),
  mime: z.string(),
  /** When it was last opened, saved or read (ms): the least recent goes first. */
  usedAt: z.number(),
});
export type CachedFile = z.infer<typeof CachedFile>;
const Index = z.object({ version: z.literal(1), files: z.array(CachedFile) });

/** What the service gave for a download: its bytes as a stream, with length and type if sent. */
export interface DownloadSource {
  body: ReadableStream<Uint8Array>;
  size: number | null;
  mime: string | null;
}

/** Fetches a file's bytes; null when the service does not offer downloads (or lost the file). */
export type Downloader = (fileId: string, signal: AbortSignal) => Promise<DownloadSource | null>;

export class DownloadNotOffered extends Error {
  constructor(readonly fileId: string) {
    super('Downloads are not offered by this service');
  }
}

export interface DownloadCacheOptions {
  /** The account's download folder (created on first use). */
  dir: string;
  /** The cap of the files kept, in bytes. */
  maxBytes: number;
  clock?: () => number;
  /** Told as a download goes (at most every `progressBytes`) and when it ends. */
  onProgress?: (progress: DownloadProgress) => void;
  progressBytes?: number;
  /** A download that receives nothing for this long is given up (default 60 s). */
  idleMs?: number;
  log?: (message: string) => void;
}

/**
 * A file name that is safe as the last part of a path on every system (no separators, no
 * control or reserved characters, no dot-only name), its extension kept: the system picks the
 * program that opens a file by it.
 */
export function safeFileName(name: string): string {
  const cleaned = shortenName(name, 120)
    .replace(/[<>:"/\\|?*]/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  // Windows reserves these names whatever their extension.
  if (!cleaned || /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(cleaned))
    return `file-${cleaned || 'download'}`;
  return cleaned;
}

/**
 * One account's received files: downloaded on demand, each under its own folder with its own
 * name (so the system opens it with the right program), kept for offline reading, and dropped
 * least recently used first when the total passes the cap. The one file just opened stays even
 * when it alone passes the cap. A file this machine uploaded is adopted from the spool, so it
 * opens at once without a download.
 */
export class DownloadCache {
  readonly dir: string;
  #maxBytes: number;
  readonly #clock: () => number;
  readonly #onProgress: (progress: DownloadProgress) => void;
  readonly #progressBytes: number;
  readonly #idleMs: number;
  readonly #log: (message: string) => void;
  #files = new Map<string, CachedFile>();
  #loaded: Promise<void> | undefined;
  /** Downloads under way, one per file however many ask. */
  readonly #running = new Map<string, Promise<CachedFile>>();
  readonly #closing = new AbortController();
  #writes: Promise<unknown> = Promise.resolve();

  constructor(options: DownloadCacheOptions) {
    this.dir = options.dir;
    this.#maxBytes = options.maxBytes;
    this.#clock = options.clock ?? Date.now;
    this.#onProgress = options.onProgress ?? (() => {});
    this.#progressBytes = options.progressBytes ?? 256 * 1024;
    this.#idleMs = options.idleMs ?? 60_000;
    this.#log = options.log ?? (() => {});
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  /** A new cap; files past it are dropped at once, least recently used first. */
  async setMaxBytes(maxBytes: number): Promise<void> {
    this.#maxBytes = maxBytes;
    await this.#load();
    await this.#evict(null);
  }

  /** The folder of one file: named by a hash of its id, never by the id itself. */
  #folder(fileId: string): string {
    return join(this.dir, createHash('sha256').update(fileId).digest('hex').slice(0, 32));
  }

  /** Where a cached file's bytes are. */
  pathOf(file: Pick<CachedFile, 'fileId' | 'name'>): string {
    return join(this.#folder(file.fileId), safeFileName(file.name));
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      let text: string | undefined;
      try {
        text = await readFile(join(this.dir, 'index.json'), 'utf8');
      } catch {
        // No index yet: an empty cache.
      }
      if (text !== undefined) {
        try {
          const index = Index.parse(JSON.parse(text));
          for (const f of index.files) this.#files.set(f.fileId, f);
        } catch (err) {
          this.#log(`downloads: index unreadable, starting empty: ${String(err)}`);
        }
      }
      // Bytes whose file is missing, and folders the index does not name (a crash mid-download),
      // go; the index then says only what is there.
      const known = new Map([...this.#files.values()].map((f) => [this.#folder(f.fileId), f]));
      let folders: string[] = [];
      try {
        folders = await readdir(this.dir);
      } catch {
        // No folder yet.
      }
      for (const name of folders) {
        if (name === 'index.json') continue;
        if (!known.has(join(this.dir, name)))
          await rm(join(this.dir, name), { recursive: true, force: true });
      }
      for (const f of [...this.#files.values()]) {
        const size = await stat(this.pathOf(f)).then(
          (s) => s.size,
          () => -1,
        );
        if (size !== f.size) {
          this.#files.delete(f.fileId);
          await rm(this.#folder(f.fileId), { recursive: true, force: true });
        }
      }
    })();
    return this.#loaded;
  }

  /** Writes the index (one write at a time, through a temporary file: a crash keeps the old one). */
  #save(): Promise<void> {
    const body = JSON.stringify({ version: 1, files: [...this.#files.values()] });
    const next = this.#writes.then(async () => {
      await mkdir(this.dir, { recursive: true });
      const temp = join(this.dir, 'index.json.tmp');
      await writeFile(temp, body);
      await rename(temp, join(this.dir, 'index.json'));
    });
    this.#writes = next.catch((err: unknown) => this.#log(`downloads: index not saved: ${String(err)}`));
    return next;
  }

  /** Drops the least recently used files until the total fits the cap, keeping `keep`. */
  async #evict(keep: string | null): Promise<void> {
    let used = this.usedBytes();
    if (used <= this.#maxBytes) return;
    const oldest = [...this.#files.values()].sort((a, b) => a.usedAt - b.usedAt);
    for (const f of oldest) {
      if (used <= this.#maxBytes) break;
      if (f.fileId === keep || this.#running.has(f.fileId)) continue;
      this.#files.delete(f.fileId);
      used -= f.size;
      await rm(this.#folder(f.fileId), { recursive: true, force: true });
    }
    await this.#save();
  }

  usedBytes(): number {
    let total = 0;
    for (const f of this.#files.values()) total += f.size;
    return total;
  }

  /** The cached file, marked as just used; null when it is not here. */
  async get(fileId: string): Promise<CachedFile | null> {
    await this.#load();
    const file = this.#files.get(fileId);
    if (!file) return null;
    const used = { ...file, usedAt: this.#clock() };
    this.#files.set(fileId, used);
    await this.#save();
    return used;
  }

  /** Every cached file (for the settings' figure and the tests). */
  async list(): Promise<CachedFile[]> {
    await this.#load();
    return [...this.#files.values()];
  }

  /** Whether each of `fileIds` is here, without marking it used. */
  async has(fileIds: readonly string[]): Promise<string[]> {
    await this.#load();
    return fileIds.filter((id) => this.#files.has(id));
  }

  /**
   * The file, from the cache when it is here, else downloaded with `download` (one download per
   * file however many ask at once). Throws DownloadNotOffered when the service has no download.
   */
  async fetch(
    fileId: string,
    meta: { name: string; mime: string },
    download: Downloader,
  ): Promise<CachedFile> {
    const cached = await this.get(fileId);
    if (cached) return cached;
    let running = this.#running.get(fileId);
    if (!running) {
      running = this.#download(fileId, meta, download).finally(() => this.#running.delete(fileId));
      this.#running.set(fileId, running);
    }
    return running;
  }

  async #download(
    fileId: string,
    meta: { name: string; mime: string },
    download: Downloader,
  ): Promise<CachedFile> {
    // The request's own timeout covers the wait for the headers; a body that stops coming is
    // given up after `idleMs` without a byte.
    const idle = new AbortController();
    const signal = AbortSignal.any([this.#closing.signal, idle.signal]);
    let timer = setTimeout(() => idle.abort(), this.#idleMs);
    const alive = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), this.#idleMs);
    };
    try {
      return await this.#receive(fileId, meta, download, signal, alive, () => idle.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
  }

  async #receive(
    fileId: string,
    meta: { name: string; mime: string },
    download: Downloader,
    signal: AbortSignal,
    alive: () => void,
    stalled: () => boolean,
  ): Promise<CachedFile> {
    const source = await download(fileId, signal);
    if (!source) throw new DownloadNotOffered(fileId);
    const folder = this.#folder(fileId);
    await mkdir(folder, { recursive: true });
    const part = join(folder, '.part');
    const out = createWriteStream(part);
    // The file's own failure (the disk full, the folder gone), or one its open or a write still
    // under way reports after the stream was destroyed: taken here, never an uncaught 'error'
    // event that would end the core's process.
    let writeError: Error | undefined;
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => undefined);
    out.on('error', (err) => (writeError ??= err));
    const total = source.size;
    let received = 0;
    let told = 0;
    this.#onProgress({ fileId, received, total, done: false, error: null });
    try {
      const reader = source.body.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (stalled())
            throw new NetworkError('GET', `/attachments/${fileId}`, `no data for ${this.#idleMs / 1000} s`);
          if (signal.aborted) throw new AbortedError('GET', `/attachments/${fileId}`, 'cancelled');
          throw new NetworkError('GET', `/attachments/${fileId}`, `download cut off: ${String(err)}`);
        }
        if (chunk.done) break;
        alive();
        received += chunk.value.length;
        if (!out.write(chunk.value))
          await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
        if (received - told >= this.#progressBytes) {
          told = received;
          this.#onProgress({ fileId, received, total, done: false, error: null });
        }
      }
      if (!writeError)
        await Promise.race([
          new Promise<void>((resolve, reject) =>
            out.end((err?: Error | null) => (err ? reject(err) : resolve())),
          ),
          failed,
        ]);
      if (writeError) throw writeError;
      if (total !== null && received !== total)
        throw new NetworkError(
          'GET',
          `/attachments/${fileId}`,
          `download cut off at ${received} of ${total} bytes`,
        );
    } catch (err) {
      out.destroy();
      await rm(folder, { recursive: true, force: true });
      this.#onProgress({
        fileId,
        received,
        total,
        done: true,
        error: err instanceof Error ? err.message : String(err),
      });
      throw err;
    }
    const file: CachedFile = {
      fileId,
      name: meta.name,
      size: received,
      mime: source.mime?.split(';')[0]?.trim() || meta.mime,
      usedAt: this.#clock(),
    };
    await rename(part, this.pathOf(file));
    this.#files.set(fileId, file);
    await this.#evict(fileId);
    await this.#save();
    this.#onProgress({ fileId, received, total: received, done: true, error: null });
    return file;
  }

  /**
   * Takes in a file this machine uploaded (its spool copy, about to be removed), so it opens at
   * once from here. Copied, not moved: the spool removes its own copy when it is done.
   */
  async adopt(
    fileId: string,
    meta: { name: string; size: number; mime: string },
    source: string,
  ): Promise<void> {
    await this.#load();
    if (this.#files.has(fileId) || this.#running.has(fileId)) return;
    const file: CachedFile = {
      fileId,
      name: meta.name,
      size: meta.size,
      mime: meta.mime,
      usedAt: this.#clock(),
    };
    const folder = this.#folder(fileId);
    try {
      await mkdir(folder, { recursive: true });
      await copyFile(source, join(folder, '.part'));
      await rename(join(folder, '.part'), this.pathOf(file));
    } catch (err) {
      await rm(folder, { recursive: true, force: true });
      this.#log(`downloads: could not keep the uploaded ${meta.name}: ${String(err)}`);
      return;
    }
    this.#files.set(fileId, file);
    await this.#evict(fileId);
    await this.#save();
  }

  /** `length` bytes of a cached file from `offset` (the web host's page reads a file in parts). */
  async read(fileId: string, offset: number, length: number): Promise<Buffer> {
    await this.#load();
    const file = this.#files.get(fileId);
    if (!file) throw new Error(`not cached: ${fileId}`);
    const handle = await open(this.pathOf(file), 'r');
    try {
      const size = Math.max(0, Math.min(length, file.size - offset));
      const buffer = Buffer.alloc(size);
      const { bytesRead } = await handle.read(buffer, 0, size, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** Removes every cached file. */
  async clear(): Promise<void> {
    await this.#load();
    for (const fileId of [...this.#files.keys()]) {
      if (this.#running.has(fileId)) continue;
      this.#files.delete(fileId);
      await rm(this.#folder(fileId), { recursive: true, force: true });
    }
    await this.#save();
  }

  /** Stops downloads under way and waits for the index to be written. */
  async close(): Promise<void> {
    this.#closing.abort();
    await Promise.allSettled([...this.#running.values()]);
    await this.#writes;
  }
}
