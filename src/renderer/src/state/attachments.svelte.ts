// Dropped, pasted and picked files: staged into the core's spool at once (Electron hands the
// core each file's path; in a browser the page streams the bytes over the bridge in chunks),
// then sent with a comment, a reply, a new task or as an "Attached N files" comment. Upload
// progress comes from `attachments.onDidProgress`.
import type { SpooledFile, UploadProgress, UploadsStatus } from '@shared/ipc/attachments';
import type { ChannelInput } from '@shared/ipc/contract';
import type { Bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';
import { createRunWrite, type RunWrite, type WriteOutcome } from '../lib/run-write';

/** Bytes per chunk streamed over the web host's bridge (base64 makes it a third larger). */
const CHUNK_BYTES = 512 * 1024;
const PER_REQUEST = 20;

/** A dropped item: the file, and whether the system says it is a folder. */
export interface DroppedFile {
  file: File;
  folder: boolean;
}

/** The files of a drop, a paste or a picker, with folders told apart where the browser can. */
export function filesOf(data: DataTransfer | null | undefined): DroppedFile[] {
  if (!data) return [];
  const out: DroppedFile[] = [];
  const items = [...(data.items ?? [])].filter((i) => i.kind === 'file');
  if (items.length) {
    for (const item of items) {
      const file = item.getAsFile();
      if (!file) continue;
      const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
      out.push({ file, folder: entry?.isDirectory ?? false });
    }
    return out;
  }
  return [...(data.files ?? [])].map((file) => ({ file, folder: false }));
}

/** How many files a drag carries (the names are not known until the drop). */
export function dragCount(event: DragEvent): number {
  const items = event.dataTransfer?.items;
  if (!items) return 0;
  return [...items].filter((i) => i.kind === 'file').length;
}

export function isFileDrag(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}

export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** "3 files" / "1 file", and the split into comments beyond 20. */
export function countFiles(n: number): string {
  return `${n} ${n === 1 ? 'file' : 'files'}`;
}
export function splitNote(n: number): string {
  const requests = Math.ceil(n / PER_REQUEST);
  return requests > 1 ? ` (as ${requests} comments, ${PER_REQUEST} files each at most)` : '';
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

export class AttachmentsState {
  #status = $state<UploadsStatus>({ files: [], sent: 0, total: 0 });
  #maxFileBytes = $state(100 * 1024 * 1024);
  readonly #bridge: Bridge;
  /** Writes go on the write path through the same bridge. */
  readonly #runWrite: RunWrite;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
    this.#runWrite = createRunWrite(bridge, toasts);
  }

  get status(): UploadsStatus {
    return this.#status;
  }
  get maxFileBytes(): number {
    return this.#maxFileBytes;
  }

  /** Files on their way (not yet attached or cancelled). */
  get active(): UploadProgress[] {
    return this.#status.files.filter((f) => f.phase !== 'attached' && f.phase !== 'cancelled');
  }

  /** 0-100 over the files on their way. */
  get percent(): number {
    const { sent, total } = this.#status;
    return total ? Math.min(100, Math.round((sent / total) * 100)) : 0;
  }

  progressOf(spoolId: string): UploadProgress | undefined {
    return this.#status.files.find((f) => f.id === spoolId);
  }

  start(): () => void {
    const off = this.#bridge.on('attachments.onDidProgress', (status) => (this.#status = status));
    this.#bridge
      .invoke('attachments.status', {})
      .then((status) => (this.#status = status))
      .catch(() => {});
    this.#bridge
      .invoke('attachments.limits', {})
      .then((limits) => (this.#maxFileBytes = limits.maxFileBytes))
      .catch(() => {});
    return off;
  }

  /**
   * Copies the files into the spool. Folders, unreadable and oversized files are refused with a
   * message each; the rest of the drop goes through.
   */
  async stage(dropped: readonly DroppedFile[]): Promise<SpooledFile[]> {
    const staged: SpooledFile[] = [];
    const refused: string[] = [];
    const stageFiles = this.#bridge.stageFiles;
    const onDisk: File[] = [];
    for (const { file, folder } of dropped) {
      if (folder) {
        refused.push(`${file.name} is a folder; drop the files inside it instead`);
        continue;
      }
      if (stageFiles) {
        onDisk.push(file);
        continue;
      }
      try {
        staged.push(await this.#stream(file));
      } catch (err) {
        refused.push(err instanceof Error ? err.message : `${file.name} cannot be read`);
      }
    }
    if (stageFiles && onDisk.length) {
      try {
        const result = await stageFiles(onDisk);
        staged.push(...result.staged);
        refused.push(...result.refused.map((r) => `${r.name} ${r.reason}`));
      } catch (err) {
        toasts.error('Could not take the files', err);
      }
    }
    for (const message of refused) toasts.show(`Not attached: ${message}`, 'error');
    return staged;
  }

  /** Web host: the bytes go over the bridge in chunks; the core writes them into the spool. */
  async #stream(file: File): Promise<SpooledFile> {
    if (file.size > this.#maxFileBytes) {
      throw new Error(
        `${file.name} is ${formatSize(file.size)}, larger than the ${formatSize(this.#maxFileBytes)} limit`,
      );
    }
    const { id } = await this.#bridge.invoke('attachments.streamStart', {
      name: file.name,
      size: file.size,
      ...(file.type ? { mime: file.type } : {}),
    });
    let offset = 0;
    try {
      while (offset < file.size) {
        const bytes = new Uint8Array(await file.slice(offset, offset + CHUNK_BYTES).arrayBuffer());
        if (!bytes.length) throw new Error(`${file.name} cannot be read`);
        await this.#bridge.invoke('attachments.streamChunk', { id, offset, data: base64(bytes) });
        offset += bytes.length;
      }
    } catch (err) {
      void this.#bridge.invoke('attachments.unstage', { id }).catch(() => {});
      if (err instanceof DOMException || err instanceof TypeError)
        throw new Error(`${file.name} cannot be read`, { cause: err });
      throw err;
    }
    return this.#bridge.invoke('attachments.streamEnd', { id });
  }

  /** Files dropped on a task: stage them and post "Attached N files". */
  async attachTo(task: { id: string; name: string }, dropped: readonly DroppedFile[]): Promise<boolean> {
    const staged = await this.stage(dropped);
    if (!staged.length) return false;
    const outcome = await this.#runWrite(
      'attachments.attach',
      { taskId: task.id, files: staged.map((f) => f.id) },
      { failure: `Could not attach the files to '${task.name}'` },
    );
    if (!outcome.ok) return false;
    const { requests } = outcome.value;
    const split = requests > 1 ? ` in ${requests} comments (20 files each at most)` : '';
    toasts.show(`Attaching ${countFiles(staged.length)} to '${task.name}'${split}`, 'success');
    return true;
  }

  async comment(taskId: string, message: string, files: readonly SpooledFile[]) {
    return this.#told(
      files,
      await this.#runWrite(
        'attachments.comment',
        { taskId, ...(message ? { message } : {}), files: files.map((f) => f.id) },
        { failure: 'Could not send the files' },
      ),
    );
  }

  async reply(taskId: string, to: string, message: string, files: readonly SpooledFile[]) {
    return this.#told(
      files,
      await this.#runWrite(
        'attachments.reply',
        { taskId, actionRequiredUserId: to, ...(message ? { message } : {}), files: files.map((f) => f.id) },
        { failure: 'Could not send the files' },
      ),
    );
  }

  /** Tells how many messages the files of an accepted message take (the service takes 20 each). */
  #told<T extends { requests: number }>(
    files: readonly SpooledFile[],
    outcome: WriteOutcome<T>,
  ): WriteOutcome<T> {
    if (outcome.ok && outcome.value.requests > 1) {
      toasts.show(
        `${countFiles(files.length)} go in ${outcome.value.requests} messages: the service takes 20 per message`,
      );
    }
    return outcome;
  }

  /**
   * A new task with its files; its id is local until the service acknowledges it. A refusal is
   * answered for the form to show.
   */
  async createTask(input: ChannelInput<'attachments.createTask'>['input'], files: readonly SpooledFile[]) {
    const outcome = await this.#runWrite('attachments.createTask', { input, files: files.map((f) => f.id) });
    if (outcome.ok && outcome.value.requests > 1) {
      toasts.show(
        `${countFiles(files.length)}: 20 go with the task, the rest in ${outcome.value.requests - 1} more comments`,
      );
    }
    return outcome;
  }

  /** A staged file removed from a composer before sending. */
  async unstage(id: string): Promise<void> {
    await this.#bridge.invoke('attachments.unstage', { id }).catch(() => {});
  }

  async cancel(progress: UploadProgress): Promise<void> {
    const outcome = await this.#runWrite(
      'attachments.cancel',
      { id: progress.id },
      { failure: `Could not cancel ${progress.name}` },
    );
    if (outcome.ok) this.#status = outcome.value;
  }
}
