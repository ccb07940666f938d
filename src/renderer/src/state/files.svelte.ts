// Received files: Open, Save as… and Copy of a message's attachment. The core makes the file local
// (the spool for one attached here and not yet sent, the download cache, else a download with
// progress from `attachments.onDidDownload`). In the desktop app Open hands the file to the
// system's default program and Save as… asks where to save it; in the browser (the web host) the
// page reads the file in parts: images and text are previewed in the app, other files (PDF
// included) open in a new tab or are saved by the browser.
import { READ_CHUNK_BYTES, type DownloadProgress, type LocalFile } from '@shared/ipc/attachments';
import type { Bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';

/** What the chip knows of a file: a message's stored attachment. */
export interface FileRefView {
  fileId: string;
  name: string;
  mime: string;
  size?: number | null | undefined;
}

/** What the in-app preview shows. */
export type Preview =
  | { kind: 'image'; file: FileRefView; url: string }
  | { kind: 'text'; file: FileRefView; text: string; truncated: boolean }
  | { kind: 'loading'; file: FileRefView };

/** The most text a preview shows (the rest: Open or Save as…). */
const TEXT_PREVIEW_BYTES = 512 * 1024;

export function previewKind(mime: string, name: string): 'image' | 'text' | null {
  if (/^image\/(png|jpeg|gif|webp|bmp|svg\+xml|avif)$/.test(mime)) return 'image';
  if (mime.startsWith('text/') || /^application\/(json|xml|x-yaml|yaml|javascript)$/.test(mime))
    return 'text';
  if (/\.(md|txt|log|csv|json|ya?ml|ini|toml)$/i.test(name)) return 'text';
  return null;
}

function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export class FilesState {
  readonly #bridge: Bridge;
  /** Downloads under way, by file id. */
  #progress = $state<Record<string, DownloadProgress>>({});
  /** Files known to be readable offline here (opened before, or attached from here). */
  #local = $state<Record<string, true>>({});
  #preview = $state<Preview | undefined>();
  #previewUrl: string | undefined;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  start(): () => void {
    return this.#bridge.on('attachments.onDidDownload', (progress) => {
      if (progress.done) {
        const { [progress.fileId]: _done, ...rest } = this.#progress;
        this.#progress = rest;
        if (!progress.error) this.#local = { ...this.#local, [progress.fileId]: true };
      } else this.#progress = { ...this.#progress, [progress.fileId]: progress };
    });
  }

  progressOf(fileId: string): DownloadProgress | undefined {
    return this.#progress[fileId];
  }

  isLocal(fileId: string): boolean {
    return this.#local[fileId] === true;
  }

  /** Asks the core which of these files are here (the chips' "offline" mark). */
  async checkLocal(fileIds: readonly string[]): Promise<void> {
    const unknown = fileIds.filter((id) => !this.#local[id]);
    if (!unknown.length) return;
    try {
      const { fileIds: local } = await this.#bridge.invoke('attachments.local', { fileIds: unknown });
      if (local.length)
        this.#local = { ...this.#local, ...Object.fromEntries(local.map((id) => [id, true])) };
    } catch {
      // Only the mark is missing.
    }
  }

  get preview(): Preview | undefined {
    return this.#preview;
  }

  get desktop(): boolean {
    return this.#bridge.kind === 'electron';
  }

  #ref(file: FileRefView): { fileId: string; name: string; mime: string } {
    return { fileId: file.fileId, name: file.name, mime: file.mime };
  }

  /** The file made local; a failure is told in a toast and answers undefined. */
  async fetch(file: FileRefView): Promise<LocalFile | undefined> {
    try {
      const local = await this.#bridge.invoke('attachments.fetch', this.#ref(file));
      this.#local = { ...this.#local, [file.fileId]: true };
      return local;
    } catch (err) {
      toasts.error(`Could not open ${file.name}`, err);
      return undefined;
    }
  }

  /** The whole file as a Blob, read in parts (the web host's page). */
  async blob(file: FileRefView, limit = Infinity): Promise<{ blob: Blob; truncated: boolean } | undefined> {
    const local = await this.fetch(file);
    if (!local) return undefined;
    const parts: Uint8Array<ArrayBuffer>[] = [];
    const end = Math.min(local.size, limit);
    try {
      for (let offset = 0; offset < end;) {
        const length = Math.min(READ_CHUNK_BYTES, end - offset);
        const { data } = await this.#bridge.invoke('attachments.read', {
          fileId: file.fileId,
          offset,
          length,
        });
        const bytes = fromBase64(data);
        if (!bytes.length) break;
        parts.push(bytes);
        offset += bytes.length;
      }
    } catch (err) {
      toasts.error(`Could not read ${file.name}`, err);
      return undefined;
    }
    return { blob: new Blob(parts, { type: local.mime }), truncated: end < local.size };
  }

  /**
   * Open: the system's default program in the desktop app; in the browser a preview for images
   * and text, a new tab for a PDF (the browser's viewer), else the browser's download.
   */
  async open(file: FileRefView): Promise<void> {
    const kind = previewKind(file.mime, file.name);
    if (kind) return this.showPreview(file);
    if (this.desktop) {
      try {
        await this.#bridge.invoke('attachments.openExternal', this.#ref(file));
        this.#local = { ...this.#local, [file.fileId]: true };
      } catch (err) {
        toasts.error(`Could not open ${file.name}`, err);
      }
      return;
    }
    if (file.mime === 'application/pdf') {
      const read = await this.blob(file);
      if (!read) return;
      const url = URL.createObjectURL(new Blob([read.blob], { type: 'application/pdf' }));
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return;
    }
    return this.saveAs(file);
  }

  /** Opens in the system's program even a file the app previews (desktop app). */
  async openExternal(file: FileRefView): Promise<void> {
    if (!this.desktop) return this.saveAs(file);
    try {
      await this.#bridge.invoke('attachments.openExternal', this.#ref(file));
    } catch (err) {
      toasts.error(`Could not open ${file.name}`, err);
    }
  }

  async showPreview(file: FileRefView): Promise<void> {
    const kind = previewKind(file.mime, file.name);
    if (!kind) return this.open(file);
    this.closePreview();
    this.#preview = { kind: 'loading', file };
    const read = await this.blob(file, kind === 'text' ? TEXT_PREVIEW_BYTES : Infinity);
    if (!read || this.#preview?.file.fileId !== file.fileId) {
      if (!read) this.#preview = undefined;
      return;
    }
    if (kind === 'image') {
      this.#previewUrl = URL.createObjectURL(read.blob);
      this.#preview = { kind: 'image', file, url: this.#previewUrl };
    } else {
      this.#preview = { kind: 'text', file, text: await read.blob.text(), truncated: read.truncated };
    }
  }

  closePreview(): void {
    if (this.#previewUrl) URL.revokeObjectURL(this.#previewUrl);
    this.#previewUrl = undefined;
    this.#preview = undefined;
  }

  /** Save as…: the system's save dialog in the desktop app, the browser's download otherwise. */
  async saveAs(file: FileRefView): Promise<void> {
    if (this.desktop) {
      try {
        const { savedTo } = await this.#bridge.invoke('attachments.saveAs', this.#ref(file));
        if (savedTo) toasts.show(`Saved ${file.name}`, 'success');
      } catch (err) {
        toasts.error(`Could not save ${file.name}`, err);
      }
      return;
    }
    const read = await this.blob(file);
    if (!read) return;
    const url = URL.createObjectURL(read.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /**
   * Copy: a text file's text, or an image (as PNG, what the clipboard takes everywhere); other
   * files cannot be put on the clipboard from a page, so Save as… is offered instead.
   */
  async copy(file: FileRefView): Promise<void> {
    const kind = previewKind(file.mime, file.name);
    if (!kind) {
      toasts.show(`${file.name} cannot be copied to the clipboard: use Save as…`, 'error', 8000, {
        label: 'Save as…',
        run: () => void this.saveAs(file),
      });
      return;
    }
    const read = await this.blob(file);
    if (!read) return;
    try {
      if (kind === 'text') await navigator.clipboard.writeText(await read.blob.text());
      else await navigator.clipboard.write([new ClipboardItem({ 'image/png': toPng(read.blob) })]);
      toasts.show(`Copied ${file.name}`, 'success');
    } catch (err) {
      toasts.error(`Could not copy ${file.name}`, err);
    }
  }
}

/** An image as PNG (the clipboard's common image type), drawn on a canvas when it is another. */
async function toPng(blob: Blob): Promise<Blob> {
  if (blob.type === 'image/png') return blob;
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  return canvas.convertToBlob({ type: 'image/png' });
}
