import { LIMITS } from '../../../shared/api/common';
import type { AttachmentRef } from '../../../shared/api/attachments';
import type { UploadsStatus } from '../../../shared/ipc/attachments';
import type { ServiceClient } from '../api/client';
import type { CacheDb } from '../cache/db';
import type { FileRef, FileSender } from './sender';
import { Spool, type SpoolMeta } from './spool';
import { Uploads } from './uploads';

export interface AttachmentFilesOptions {
  /** The account's spool folder. */
  dir: string;
  /** Per-file size cap (bytes); default the service's default cap. */
  maxFileBytes?: number;
  /** The cache database, where the outbox records which entries were acknowledged. */
  db: CacheDb;
  onProgress?: (status: UploadsStatus) => void;
  /** PUTs at once for one request's files. */
  concurrency?: number;
  newId?: () => string;
  log?: (message: string) => void;
  /**
   * Told of each uploaded file before its spool copy is removed (the download cache keeps a copy,
   * so the file opens here without a download).
   */
  keep?: (meta: SpoolMeta & { fileId: string }, path: string) => Promise<void>;
  /** Runs the spool clean-up after the acknowledging transaction (tests pass their own). */
  defer?: (fn: () => void) => void;
}

/** Spool ids a stored payload names. */
export function spoolIdsIn(payload: unknown): string[] {
  return [...new Set(JSON.stringify(payload ?? null).match(/spool-[A-Za-z0-9-]+/g) ?? [])];
}

/**
 * One account's attachments: the spool, the uploads with their progress, and what the outbox
 * kinds ask of them (`sender`). Spool copies are removed only once the entry that references
 * them is recorded as acknowledged; at start-up every copy no open entry names is removed.
 */
export class AttachmentFiles {
  readonly spool: Spool;
  readonly uploads: Uploads;
  readonly sender: FileSender;
  readonly #stateOf;
  readonly #defer: (fn: () => void) => void;
  readonly #log: (message: string) => void;
  readonly #keep: NonNullable<AttachmentFilesOptions['keep']>;
  /** Entries acknowledged whose spool copies wait for the transaction to commit. */
  readonly #settling = new Map<number, readonly string[]>();
  #removals: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: AttachmentFilesOptions) {
    this.spool = new Spool({
      dir: options.dir,
      maxFileBytes: options.maxFileBytes ?? LIMITS.defaultUploadBytes,
      ...(options.newId ? { newId: options.newId } : {}),
    });
    this.uploads = new Uploads({
      spool: this.spool,
      ...(options.onProgress ? { onChange: options.onProgress } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    this.#stateOf = options.db.prepare('SELECT state FROM outbox_entries WHERE id = ?').pluck();
    this.#defer = options.defer ?? ((fn) => setImmediate(fn));
    this.#log = options.log ?? (() => {});
    this.#keep = options.keep ?? (async () => {});
    const { spool, uploads } = this;
    this.sender = {
      upload: (
        client: ServiceClient,
        ids: readonly string[],
        taskId: string | null,
      ): Promise<AttachmentRef[]> => uploads.uploadAll(client, ids, taskId),
      fileIds: async (ids) =>
        (await Promise.all(ids.map((id) => spool.get(id)))).flatMap((m) => (m ? [m.fileId] : [])),
      knownFileIds: (ids) => {
        const metas = ids.map((id) => spool.known(id));
        if (metas.some((m) => m === undefined)) return undefined;
        return metas.flatMap((m) => (m ? [m.fileId] : []));
      },
      track: (files: readonly FileRef[], taskId) => {
        for (const f of files) uploads.track({ id: f.spoolId, name: f.name, size: f.size }, taskId);
      },
      settled: (entryId, ids) => {
        uploads.attached(ids);
        // The fold runs inside the acknowledging transaction; the copies go after it committed.
        this.#settling.set(entryId, ids);
        this.#defer(() => this.#flush());
      },
      dropped: (ids) => uploads.forget(ids),
    };
  }

  /** Removes the spool copies of entries now recorded as acknowledged. */
  #flush(): void {
    if (this.#closed) return;
    for (const [entryId, ids] of this.#settling) {
      const state = this.#stateOf.get(entryId);
      if (state === 'in_flight' || state === 'pending') continue;
      this.#settling.delete(entryId);
      if (state !== 'done') continue;
      this.#removals = Promise.all([
        this.#removals,
        ...ids.map((id) =>
          this.#keepCopy(id)
            .then(() => this.spool.remove(id))
            .catch((err: unknown) => this.#log(`attachments: could not remove ${id}: ${String(err)}`)),
        ),
      ]);
    }
  }

  /** Hands an uploaded file's copy to `keep` (a failure there still lets the spool copy go). */
  async #keepCopy(id: string): Promise<void> {
    const meta = await this.spool.get(id);
    if (!meta?.fileId) return;
    try {
      await this.#keep({ ...meta, fileId: meta.fileId }, this.spool.pathOf(id));
    } catch (err) {
      this.#log(`attachments: could not keep a copy of ${meta.name}: ${String(err)}`);
    }
  }

  /** Finishes the clean-ups under way; call before the database closes. */
  async close(): Promise<void> {
    this.#flush();
    this.#closed = true;
    await this.#removals;
  }

  /** Start-up: removes spooled files that no open entry names (staged ones died with the page). */
  async sweep(openEntries: readonly { payload: unknown }[]): Promise<number> {
    const keep = new Set(openEntries.flatMap((e) => spoolIdsIn(e.payload)));
    return this.spool.sweep(keep);
  }
}
