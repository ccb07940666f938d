import pLimit from 'p-limit';
import { LIMITS } from '../../../shared/api/common';
import type { AttachmentRef, UploadUrl } from '../../../shared/api/attachments';
import type { UploadPhase, UploadProgress, UploadsStatus } from '../../../shared/ipc/attachments';
import type { ServiceClient } from '../api/client';
import { AbortedError, isTransient, RejectedError } from '../api/errors';
import { chunks } from './names';
import type { Spool, SpoolMeta } from './spool';
import { attachmentEndpoints } from '../../../shared/api/attachments';

export interface UploadsOptions {
  spool: Spool;
  /** Told every change of progress (throttled by the caller if it wishes). */
  onChange?: (status: UploadsStatus) => void;
  /** PUTs under way at once for one request's files. */
  concurrency?: number;
  /** Addresses asked for again when the one given is expired or used, per file and attempt. */
  renewals?: number;
  log?: (message: string) => void;
}

interface Tracked extends UploadProgress {
  controller: AbortController | null;
  /** The referencing request may be on its way: the file can no longer be cancelled. */
  referencing: boolean;
}

/** A cancelled file: its PUT was aborted, or it left the spool before it was sent. */
class Cancelled extends Error {}

/**
 * An expired or already-used upload address: the service answers 404 (or 403/410 on other
 * stores). Such an address is replaced by a new one; the bytes were not stored.
 */
function isDeadAddress(err: unknown): boolean {
  return err instanceof RejectedError && [403, 404, 410].includes(err.status);
}

/**
 * The three-step upload of spooled files (spec "Attachments"), run by an outbox entry at send
 * time: (1) one upload-URL request for up to 20 files, (2) one PUT per file with Content-Type
 * set to the returned mime, streamed from the spool with progress, a new address asked for when
 * one turns out expired or used, (3) the caller puts the answered references in its request.
 * A file's service id is written to the spool as soon as its PUT succeeded, so a retry (or a
 * restart) uploads only what is missing. Progress is kept per file for the composer and the
 * status bar.
 */
export class Uploads {
  readonly #spool: Spool;
  readonly #onChange: (status: UploadsStatus) => void;
  readonly #concurrency: number;
  readonly #renewals: number;
  readonly #log: (message: string) => void;
  readonly #files = new Map<string, Tracked>();

  constructor(options: UploadsOptions) {
    this.#spool = options.spool;
    this.#onChange = options.onChange ?? (() => {});
    this.#concurrency = Math.max(1, options.concurrency ?? 4);
    this.#renewals = Math.max(0, options.renewals ?? 3);
    this.#log = options.log ?? (() => {});
  }

  /** Shows a file as waiting for its request to be sent (on submit, and on restart at send). */
  track(meta: Pick<SpoolMeta, 'id' | 'name' | 'size'>, taskId: string | null): void {
    const known = this.#files.get(meta.id);
    if (known) {
      known.taskId = taskId ?? known.taskId;
      return;
    }
    this.#files.set(meta.id, {
      id: meta.id,
      name: meta.name,
      size: meta.size,
      sent: 0,
      phase: 'waiting',
      taskId,
      error: null,
      controller: null,
      referencing: false,
    });
    this.#changed();
  }

  status(): UploadsStatus {
    const files = [...this.#files.values()].map(
      ({ controller: _c, referencing: _r, ...view }): UploadProgress => view,
    );
    const open = files.filter((f) => f.phase !== 'attached' && f.phase !== 'cancelled');
    return {
      files,
      sent: open.reduce((n, f) => n + f.sent, 0),
      total: open.reduce((n, f) => n + f.size, 0),
    };
  }

  /** True when the file's reference may have been sent: cancelling it is refused. */
  isReferencing(id: string): boolean {
    return this.#files.get(id)?.referencing ?? false;
  }

  /** True when this process is uploading or holding the file for a request being sent. */
  isActive(id: string): boolean {
    const f = this.#files.get(id);
    return f !== undefined && (f.phase === 'uploading' || f.phase === 'uploaded' || f.referencing);
  }

  /**
   * Stops a file not yet referenced: its PUT is aborted and it leaves the spool. Answers false
   * (and changes nothing) once its request may have referenced it.
   */
  async cancel(id: string): Promise<boolean> {
    const f = this.#files.get(id);
    if (f?.referencing) return false;
    if (f) {
      f.phase = 'cancelled';
      f.controller?.abort();
      f.controller = null;
    }
    await this.#spool.remove(id);
    this.#changed();
    return true;
  }

  /**
   * Steps 1 and 2 for the files of one request; answers the references for step 3 (files
   * cancelled meanwhile are left out). Throws the first failure after every PUT settled, so the
   * ones that worked are kept for the retry.
   */
  async uploadAll(
    client: ServiceClient,
    ids: readonly string[],
    taskId: string | null,
  ): Promise<AttachmentRef[]> {
    const metas = (await Promise.all(ids.map((id) => this.#spool.get(id)))).filter(
      (m): m is SpoolMeta => m !== null,
    );
    for (const m of metas) this.track(m, taskId);
    const missing = metas.filter((m) => m.fileId === null && this.#phase(m.id) !== 'cancelled');
    for (const m of metas) if (m.fileId !== null) this.#set(m.id, { phase: 'uploaded', sent: m.size });
    const errors: unknown[] = [];
    if (missing.length) {
      const limit = pLimit(this.#concurrency);
      for (const group of chunks(missing, LIMITS.filesPerUploadRequest)) {
        let addresses: UploadUrl[];
        try {
          addresses = await this.#addresses(client, group);
        } catch (err) {
          for (const m of group) this.#set(m.id, failed(err));
          throw err;
        }
        await Promise.all(
          group.map((meta, i) =>
            limit(async () => {
              try {
                await this.#put(client, meta, addresses[i]!);
              } catch (err) {
                if (err instanceof Cancelled) return;
                this.#set(meta.id, failed(err));
                errors.push(err);
              }
            }),
          ),
        );
      }
    }
    if (errors.length) throw errors[0];
    // No await from here to the caller's request: a cancel either happened before (the file is
    // left out) or is refused after (the file is referenced).
    const current = await Promise.all(metas.map((m) => this.#spool.get(m.id)));
    const refs: AttachmentRef[] = [];
    for (const m of current) {
      if (!m || m.fileId === null || this.#phase(m.id) === 'cancelled') continue;
      this.#set(m.id, { referencing: true });
      refs.push({ fileId: m.fileId, name: m.name, size: m.size, mime: m.mime });
    }
    return refs;
  }

  /** The referencing request was acknowledged: the files are on the service. */
  attached(ids: readonly string[]): void {
    for (const id of ids) {
      const f = this.#files.get(id);
      if (f && f.phase !== 'cancelled')
        Object.assign(f, { phase: 'attached', sent: f.size, referencing: false });
    }
    this.#changed();
  }

  /** The request was rejected or discarded: the files are no longer on their way. */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.#files.delete(id);
    this.#changed();
  }

  /** Attached files leave the progress list once shown as done. */
  clearAttached(): void {
    for (const [id, f] of this.#files)
      if (f.phase === 'attached' || f.phase === 'cancelled') this.#files.delete(id);
    this.#changed();
  }

  async #addresses(client: ServiceClient, files: readonly SpoolMeta[]): Promise<UploadUrl[]> {
    const answer = await client.call(attachmentEndpoints.uploadUrls, {
      body: { files: files.map((f) => ({ name: f.name })) },
    });
    if (answer.length !== files.length) {
      throw new Error(`The service gave ${answer.length} upload addresses for ${files.length} files`);
    }
    return answer;
  }

  async #put(client: ServiceClient, meta: SpoolMeta, first: UploadUrl): Promise<void> {
    let address = first;
    for (let attempt = 0; ; attempt++) {
      const tracked = this.#files.get(meta.id);
      if (!tracked || tracked.phase === 'cancelled') throw new Cancelled();
      const controller = new AbortController();
      tracked.controller = controller;
      this.#set(meta.id, { phase: 'uploading', sent: 0, error: null });
      let sent = 0;
      let shown = 0;
      const body = this.#spool.read(meta.id, (n) => {
        sent += n;
        // Progress events every 2% of the file, not every chunk.
        if (sent - shown >= meta.size / 50 || sent === meta.size) {
          shown = sent;
          this.#set(meta.id, { sent });
        }
      });
      try {
        // A file stream's chunks are Buffers over plain ArrayBuffers, never shared memory.
        const stream = body as ReadableStream<Uint8Array<ArrayBuffer>>;
        await client.upload(address.uploadUrl, stream, address.mime, controller.signal, meta.size);
        await this.#spool.setFileId(meta.id, address.fileId);
        this.#set(meta.id, { phase: 'uploaded', sent: meta.size });
        return;
      } catch (err) {
        if (err instanceof AbortedError && this.#phase(meta.id) === 'cancelled') throw new Cancelled();
        if (!isDeadAddress(err) || attempt >= this.#renewals) throw err;
        this.#log(`attachments: upload address of ${meta.name} expired or used; asking for a new one`);
        const [fresh] = await this.#addresses(client, [meta]);
        address = fresh!;
      } finally {
        tracked.controller = null;
      }
    }
  }

  #phase(id: string): UploadPhase | undefined {
    return this.#files.get(id)?.phase;
  }

  #set(id: string, patch: Partial<Tracked>): void {
    const f = this.#files.get(id);
    if (!f || (f.phase === 'cancelled' && patch.phase !== undefined)) return;
    Object.assign(f, patch);
    this.#changed();
  }

  #changed(): void {
    this.#onChange(this.status());
  }
}

/** Offline or a server hiccup: the file waits for the retry; a refusal shows as failed. */
function failed(err: unknown): Partial<UploadProgress> {
  return { phase: isTransient(err) ? 'waiting' : 'failed', sent: 0, error: messageOf(err) };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
