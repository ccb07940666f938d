import mime from 'mime';
import type { AttachmentRef, StoredAttachment } from '../../shared/api/attachments';
import type { ServiceContext } from '../context';

/** The mime type of a file name, `application/octet-stream` when unknown. */
export function mimeOf(name: string): string {
  return mime.getType(name) ?? 'application/octet-stream';
}

/**
 * Turns attachment references into stored attachments. A `fileId` that was never uploaded (or
 * whose address expired before the upload completed) is ignored, as the spec says.
 */
export function resolveAttachments(
  ctx: ServiceContext,
  refs: readonly AttachmentRef[] | null | undefined,
): StoredAttachment[] {
  const out: StoredAttachment[] = [];
  for (const ref of refs ?? []) {
    const upload = ctx.uploads.byFileId(ref.fileId);
    if (!upload || upload.uploaded_at === null) continue;
    out.push({
      fileId: upload.file_id,
      name: ref.name,
      size: ref.size ?? upload.size,
      mime: ref.mime ?? mimeOf(ref.name),
    });
  }
  return out;
}
