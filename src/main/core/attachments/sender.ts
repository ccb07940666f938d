// What the outbox's attachment kinds need of the files side (spool, uploads, clean-up), and
// the reference to a spooled file their payloads carry. \`files.ts\` implements it.
import { z } from 'zod';
import type { AttachmentRef } from '../../../shared/api/attachments';
import type { ServiceClient } from '../api/client';

/** What the kinds need of the attachments side (spool, uploads, clean-up). */
export interface FileSender {
  /** Steps 1-2 for the files; answers the references (files cancelled meanwhile left out). */
  upload(client: ServiceClient, spoolIds: readonly string[], taskId: string | null): Promise<AttachmentRef[]>;
  /** The service ids of the files, or null for one not uploaded yet; cancelled files are absent. */
  fileIds(spoolIds: readonly string[]): Promise<(string | null)[]>;
  /**
   * `fileIds` as known without I/O (the files' records read or written since start-up), or
   * undefined when one is not known: what a list sync stores can ask synchronously.
   */
  knownFileIds(spoolIds: readonly string[]): (string | null)[] | undefined;
  /** Shows the files as waiting for this task (at submit). */
  track(files: readonly FileRef[], taskId: string | null): void;
  /** The referencing entry was acknowledged: the spool copies go once it is recorded as done. */
  settled(entryId: number, spoolIds: readonly string[]): void;
  /** The entry was rejected or discarded: the files are no longer on their way. */
  dropped(spoolIds: readonly string[]): void;
}

export const FileRef = z.object({
  spoolId: z.string().regex(/^spool-[A-Za-z0-9-]+$/, 'must be a spool id'),
  name: z.string(),
  size: z.number().int().min(0),
  mime: z.string(),
});
export type FileRef = z.infer<typeof FileRef>;
