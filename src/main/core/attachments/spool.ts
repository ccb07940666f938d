import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { RefusedFile, SpooledFile } from '../../../shared/ipc/attachments';
import { mimeFor, shortenName } from './names';

/** What the spool keeps of a file besides its bytes. */
const SpoolMeta = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int().min(0),
  mime: z.string(),
  createdAt: z.number(),
  /** The service's file id once the bytes were PUT; valid from then on. */
  fileId: z.string().nullable(),
});
export type SpoolMeta = z.infer<typeof SpoolMeta>;

export class SpoolRefusal extends Error {
  constructor(
    readonly fileName: string,
    readonly reason: string,
  ) {
    super(`${fileName}: ${reason}`);
  }
}

export interface SpoolOptions {
  /** The account's spool folder (created on first use). */
  dir: string;
  /** Per-file size cap in bytes. */
  maxFileBytes: number;
  newId?: () => string;
  clock?: () => number;
}

const ID_PATTERN = /^spool-[A-Za-z0-9-]+$/;

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}

/**
 * One account's spool folder: every dropped file is copied here at once (`<id>` holds the bytes,
 * `<id>.json` the name, size, mime and, once uploaded, the service's file id), so what the user
 * dropped survives the original being moved, the app quitting and the network being away. A
 * file is removed when cancelled or once the request that references it was acknowledged.
 */
export class Spool {
  readonly dir: string;
  readonly maxFileBytes: number;
  readonly #newId: () => string;
  readonly #clock: () => number;
  /**
   * Records read or written here (null: removed or missing), so `known` answers without I/O: the
   * lists sync stores ask synchronously which file ids a change referenced.
   */
  readonly #metas = new Map<string, SpoolMeta | null>();
  /** Streams being received from the web host: id -> bytes so far. */
  readonly #incoming = new Map<string, { name: string; size: number; mime: string; received: number }>();

  constructor(options: SpoolOptions) {
    this.dir = options.dir;
    this.maxFileBytes = options.maxFileBytes;
    this.#newId = options.newId ?? randomUUID;
    this.#clock = options.clock ?? Date.now;
  }

  #newSpoolId(): string {
    return `spool-${this.#newId().replace(/[^A-Za-z0-9-]/g, '')}`;
  }

  #bytesPath(id: string): string {
    if (!ID_PATTERN.test(id)) throw new Error(`Not a spool id: ${id}`);
    return join(this.dir, id);
  }

  #metaPath(id: string): string {
    return `${this.#bytesPath(id)}.json`;
  }

  #checkSize(name: string, size: number): void {
    if (size > this.maxFileBytes) {
      throw new SpoolRefusal(
        name,
        `is ${formatBytes(size)}, larger than the ${formatBytes(this.maxFileBytes)} limit per file`,
      );
    }
  }

  async #writeMeta(meta: SpoolMeta): Promise<void> {
    const path = this.#metaPath(meta.id);
    await writeFile(`${path}.tmp`, JSON.stringify(meta));
    await rename(`${path}.tmp`, path);
    this.#metas.set(meta.id, meta);
  }

  /**
   * Copies a file from the user's disk. A folder, an unreadable file or one over the cap is
   * refused with a `SpoolRefusal` naming it; nothing is left behind.
   */
  async addFromPath(path: string, givenMime?: string): Promise<SpoolMeta> {
    const name = shortenName(path);
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new SpoolRefusal(name, 'cannot be read');
    }
    if (info.isDirectory()) throw new SpoolRefusal(name, 'is a folder; drop the files inside it instead');
    if (!info.isFile()) throw new SpoolRefusal(name, 'is not a regular file');
    this.#checkSize(name, info.size);
    await mkdir(this.dir, { recursive: true });
    const id = this.#newSpoolId();
    try {
      await copyFile(path, this.#bytesPath(id));
      const copied = await stat(this.#bytesPath(id));
      this.#checkSize(name, copied.size);
      const meta: SpoolMeta = {
        id,
        name,
        size: copied.size,
        mime: mimeFor(name, givenMime),
        createdAt: this.#clock(),
        fileId: null,
      };
      await this.#writeMeta(meta);
      return meta;
    } catch (err) {
      await this.remove(id);
      if (err instanceof SpoolRefusal) throw err;
      throw new SpoolRefusal(name, 'cannot be read');
    }
  }

  /** Files of one drop: each copied or refused on its own; one bad file loses none of the rest. */
  async addPaths(paths: readonly string[]): Promise<{ staged: SpoolMeta[]; refused: RefusedFile[] }> {
    const staged: SpoolMeta[] = [];
    const refused: RefusedFile[] = [];
    for (const path of paths) {
      try {
        staged.push(await this.addFromPath(path));
      } catch (err) {
        if (!(err instanceof SpoolRefusal)) throw err;
        refused.push({ name: err.fileName, reason: err.reason });
      }
    }
    return { staged, refused };
  }

  /** Web host: a file whose bytes arrive in chunks. */
  async beginStream(rawName: string, size: number, givenMime?: string): Promise<string> {
    const name = shortenName(rawName);
    this.#checkSize(name, size);
    await mkdir(this.dir, { recursive: true });
    const id = this.#newSpoolId();
    await writeFile(this.#bytesPath(id), new Uint8Array(0));
    this.#incoming.set(id, { name, size, mime: mimeFor(name, givenMime), received: 0 });
    return id;
  }

  /** Appends a chunk; chunks come in order (`offset` is the bytes received so far). */
  async appendChunk(id: string, offset: number, bytes: Uint8Array): Promise<number> {
    const incoming = this.#incoming.get(id);
    if (!incoming) throw new SpoolRefusal(id, 'no upload of that id is being received');
    if (offset !== incoming.received) {
      throw new SpoolRefusal(incoming.name, `chunk at ${offset}, expected ${incoming.received}`);
    }
    if (incoming.received + bytes.length > incoming.size) {
      await this.abortStream(id);
      throw new SpoolRefusal(incoming.name, 'sent more bytes than its size');
    }
    const handle = await open(this.#bytesPath(id), 'a');
    try {
      await handle.write(bytes);
    } finally {
      await handle.close();
    }
    incoming.received += bytes.length;
    return incoming.received;
  }

  async endStream(id: string): Promise<SpoolMeta> {
    const incoming = this.#incoming.get(id);
    if (!incoming) throw new SpoolRefusal(id, 'no upload of that id is being received');
    if (incoming.received !== incoming.size) {
      await this.abortStream(id);
      throw new SpoolRefusal(incoming.name, `${incoming.received} of ${incoming.size} bytes arrived`);
    }
    this.#incoming.delete(id);
    const meta: SpoolMeta = {
      id,
      name: incoming.name,
      size: incoming.size,
      mime: incoming.mime,
      createdAt: this.#clock(),
      fileId: null,
    };
    await this.#writeMeta(meta);
    return meta;
  }

  async abortStream(id: string): Promise<void> {
    this.#incoming.delete(id);
    await this.remove(id);
  }

  /** The file's record, or null when it was removed (cancelled) or never finished. */
  async get(id: string): Promise<SpoolMeta | null> {
    let meta: SpoolMeta | null;
    try {
      meta = SpoolMeta.parse(JSON.parse(await readFile(this.#metaPath(id), 'utf8')));
    } catch {
      meta = null;
    }
    this.#metas.set(id, meta);
    return meta;
  }

  /** Where a spooled file's bytes are (to copy them; the name is the spool id, with no extension). */
  pathOf(id: string): string {
    return this.#bytesPath(id);
  }

  /** The record as last read or written here (undefined: not read since start-up). */
  known(id: string): SpoolMeta | null | undefined {
    return this.#metas.get(id);
  }

  async setFileId(id: string, fileId: string): Promise<void> {
    const meta = await this.get(id);
    if (meta) await this.#writeMeta({ ...meta, fileId });
  }

  /** The bytes as a web stream, counting what was read (the upload's progress). */
  read(id: string, onBytes: (n: number) => void): ReadableStream<Uint8Array> {
    const stream = createReadStream(this.#bytesPath(id), { highWaterMark: 256 * 1024 });
    stream.on('data', (chunk) => onBytes(chunk.length));
    return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  }

  async remove(id: string): Promise<void> {
    this.#incoming.delete(id);
    this.#metas.set(id, null);
    await rm(this.#metaPath(id), { force: true });
    await rm(`${this.#metaPath(id)}.tmp`, { force: true });
    await rm(this.#bytesPath(id), { force: true });
  }

  /**
   * Removes every spooled file but those in `keep` (at start-up: what open entries name), and
   * reads the records of those kept, so `known` answers for them.
   */
  async sweep(keep: ReadonlySet<string>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    const ids = new Set(names.map((n) => n.replace(/\.json(\.tmp)?$/, '')).filter((n) => ID_PATTERN.test(n)));
    for (const id of keep) await this.get(id);
    let removed = 0;
    for (const id of ids) {
      if (keep.has(id) || this.#incoming.has(id)) continue;
      await this.remove(id);
      removed++;
    }
    return removed;
  }
}

export function spooledView(meta: SpoolMeta): SpooledFile {
  return { id: meta.id, name: meta.name, size: meta.size, mime: meta.mime };
}
