import { z } from 'zod';
import { Id, LIMITS } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/** An attachment reference in a create-task, comment or reply request. */
export const AttachmentRef = lazySchema(() =>
  z.object({
    fileId: Id,
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(LIMITS.attachmentNameLength, `must be at most ${LIMITS.attachmentNameLength} characters`),
    size: z.int('must be an integer').min(0).optional(),
    mime: z.string().max(255).optional(),
  }),
);
export type AttachmentRef = z.infer<typeof AttachmentRef>;

export const Attachments = lazySchema(() =>
  z
    .array(AttachmentRef)
    .max(LIMITS.attachmentsPerRequest, `at most ${LIMITS.attachmentsPerRequest} attachments per request`),
);

/** POST /attachments/upload-urls */
export const UploadUrlsBody = lazySchema(() =>
  z.object({
    files: z
      .array(z.object({ name: AttachmentRef.shape.name }))
      .min(1, 'must list at least one file')
      .max(LIMITS.filesPerUploadRequest, `at most ${LIMITS.filesPerUploadRequest} files per request`),
  }),
);
export type UploadUrlsBody = z.infer<typeof UploadUrlsBody>;

export const UploadUrl = lazySchema(() =>
  z.looseObject({
    fileId: z.string(),
    name: z.string(),
    /** Absolute address; PUT the raw bytes there once, within one hour. */
    uploadUrl: z.string(),
    mime: z.string(),
  }),
);
export type UploadUrl = z.infer<typeof UploadUrl>;
export const UploadUrlsResponse = lazySchema(() => z.array(UploadUrl));

/**
 * Extension: an attachment as stored on a message or task, with the address its bytes are
 * served from (`GET /2.0/attachments/{fileId}`).
 */
export const StoredAttachment = lazySchema(() =>
  z.looseObject({
    fileId: z.string(),
    name: z.string(),
    size: z.number().nullable(),
    mime: z.string(),
  }),
);
export type StoredAttachment = z.infer<typeof StoredAttachment>;

/** The service's endpoints of attachments (the upload itself is a PUT to the address given). */
export const attachmentEndpoints = endpoints({
  uploadUrls: endpoint({
    method: 'POST',
    path: '/attachments/upload-urls',
    read: 'item',
    body: UploadUrlsBody,
    response: UploadUrlsResponse,
  }),
  /**
   * An attachment's bytes, streamed (extension: the spec shows no download). Null when the
   * service does not offer downloads or no longer has the file (404 or 405).
   */
  attachment: endpoint({ method: 'GET', path: '/attachments/{fileId}', read: 'bytes', offered: true }),
});
