import { z } from 'zod';
import { Id, LIMITS } from '../api/common';
import { channel } from './channel';
import { TaskCreateInput } from './tasks-write';
import { lazySchema } from '../lazy-schema';

/**
 * Attachments: dropped files are copied into the account's spool folder at once ("staged"),
 * then joined to a comment, a reply, a new task or an "Attached N files" comment, queued in the
 * outbox. The upload (address, PUT, reference) happens when the outbox sends the entry.
 */

/** A file in the spool. `id` is the spool id, never a service file id. */
export const SpooledFile = lazySchema(() =>
  z.object({
    id: z.string(),
    /** Shortened to the service's limit, extension kept. */
    name: z.string(),
    size: z.number().int().min(0),
    mime: z.string(),
  }),
);
export type SpooledFile = z.infer<typeof SpooledFile>;

/** A file of a drop that was not taken, and why (a folder, unreadable, too large). */
export const RefusedFile = lazySchema(() => z.object({ name: z.string(), reason: z.string() }));
export type RefusedFile = z.infer<typeof RefusedFile>;

export const StageResult = lazySchema(() =>
  z.object({ staged: z.array(SpooledFile), refused: z.array(RefusedFile) }),
);
export type StageResult = z.infer<typeof StageResult>;

const SpoolId = lazySchema(() => z.string().regex(/^spool-[A-Za-z0-9-]+$/, 'must be a spool id'));
const SpoolIds = lazySchema(() => z.array(SpoolId).min(1, 'must name at least one file').max(1000));
const Text = lazySchema(() =>
  z.string().max(LIMITS.textLength, `must be at most ${LIMITS.textLength} characters`),
);

/** The result of a write with files: the outbox entries, several when more than 20 files. */
export const AttachWriteResult = lazySchema(() =>
  z.object({
    entryIds: z.array(z.number().int()),
    /** How many requests the files were split into (more than 20 files). */
    requests: z.number().int().min(1),
  }),
);
export type AttachWriteResult = z.infer<typeof AttachWriteResult>;

export const UploadPhase = lazySchema(() =>
  z.enum(['waiting', 'uploading', 'uploaded', 'attached', 'failed', 'cancelled']),
);
export type UploadPhase = z.infer<typeof UploadPhase>;

/** Where one spooled file stands. */
export const UploadProgress = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    size: z.number().int(),
    sent: z.number().int(),
    phase: UploadPhase,
    /** The task the file goes to, when known. */
    taskId: z.string().nullable(),
    error: z.string().nullable(),
  }),
);
export type UploadProgress = z.infer<typeof UploadProgress>;

export const UploadsStatus = lazySchema(() =>
  z.object({
    files: z.array(UploadProgress),
    /** Bytes sent and to send over the files not yet attached. */
    sent: z.number().int(),
    total: z.number().int(),
  }),
);
export type UploadsStatus = z.infer<typeof UploadsStatus>;

/** A received file's download, as it goes; `done` with `error` null once it is in the cache. */
export const DownloadProgress = lazySchema(() =>
  z.object({
    fileId: z.string(),
    received: z.number().int(),
    /** Null when the service did not say the length. */
    total: z.number().int().nullable(),
    done: z.boolean(),
    error: z.string().nullable(),
  }),
);
export type DownloadProgress = z.infer<typeof DownloadProgress>;

/** A message's attachment as the renderer names it: the file id, or a spool id while unsent. */
const FileRef = lazySchema(() =>
  z
    .object({
      fileId: z.string().min(1, 'must not be empty').max(200),
      name: z.string().min(1, 'must not be empty').max(4096),
      mime: z.string().max(255).optional(),
    })
    .strict(),
);

/** A file ready to be read here: downloaded, in the download cache or in the spool. */
export const LocalFile = lazySchema(() =>
  z.object({
    fileId: z.string(),
    name: z.string(),
    size: z.number().int(),
    mime: z.string(),
    /** `spool`: a file attached from this machine and not yet sent; `cache`: downloaded or kept. */
    source: z.enum(['spool', 'cache']),
  }),
);
export type LocalFile = z.infer<typeof LocalFile>;

/** One attachment of a project's tasks, for the Files view. */
export const ProjectFile = lazySchema(() =>
  z.object({
    fileId: z.string(),
    name: z.string(),
    size: z.number().nullable(),
    mime: z.string(),
    taskId: z.string(),
    taskShortId: z.string(),
    taskName: z.string(),
    messageId: z.string(),
    /** Who sent it and when (the message's author and date). */
    fromUserId: z.string(),
    dateCreated: z.string(),
    /** A file of a change not yet sent (its id is a spool id). */
    pending: z.boolean(),
  }),
);
export type ProjectFile = z.infer<typeof ProjectFile>;

export const DownloadCacheInfo = lazySchema(() =>
  z.object({
    usedBytes: z.number().int(),
    maxBytes: z.number().int(),
    files: z.number().int(),
  }),
);
export type DownloadCacheInfo = z.infer<typeof DownloadCacheInfo>;

/** The most a page asks of a file at once (base64 over the bridge). */
export const READ_CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * Electron only, and not a channel of the contract: the preload's private channel for files the
 * user dropped or picked. The page hands the preload `File` objects; the preload resolves their
 * paths itself (`webUtils.getPathForFile`, empty for a File the page made) and sends them here;
 * the shell copies them into the spool and answers spool ids, the only tokens the page ever
 * holds for a file. No page script can name a path: neither `window.workdesk.invoke` nor the web
 * host's WebSocket knows this channel (the web host takes dropped files as streamed bytes).
 */
export const STAGE_DROPPED_FILES = 'workdesk:stage-dropped-files';
export const StageDroppedFilesInput = lazySchema(() =>
  z
    .object({
      paths: z
        .array(
          z
            .string()
            .min(1)
            .max(4096)
            .refine((p) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p), 'must be an absolute path'),
        )
        .min(1)
        .max(1000),
    })
    .strict(),
);

export const attachmentChannels = {
  /** Web host: the page streams a file's bytes in chunks (base64) over the bridge. */
  'attachments.streamStart': channel(
    () =>
      z
        .object({
          name: z.string().min(1, 'must not be empty').max(4096),
          size: z.number().int().min(0),
          mime: z.string().max(255).optional(),
        })
        .strict(),
    () => z.object({ id: SpoolId }),
  ),
  'attachments.streamChunk': channel(
    () =>
      z
        .object({
          id: SpoolId,
          offset: z.number().int().min(0),
          data: z.base64('must be base64').max(4 * 1024 * 1024, 'a chunk must be at most 3 MiB'),
        })
        .strict(),
    () => z.object({ received: z.number().int() }),
  ),
  'attachments.streamEnd': channel(
    () => z.object({ id: SpoolId }).strict(),
    () => SpooledFile,
  ),
  /** A staged file the user removed before sending. */
  'attachments.unstage': channel(
    () => z.object({ id: SpoolId }).strict(),
    () => z.object({ removed: z.boolean() }),
  ),
  'attachments.comment': channel(
    () => z.object({ taskId: Id, message: Text.optional(), files: SpoolIds }).strict(),
    () => AttachWriteResult,
  ),
  'attachments.reply': channel(
    () =>
      z.object({ taskId: Id, actionRequiredUserId: Id, message: Text.optional(), files: SpoolIds }).strict(),
    () => AttachWriteResult,
  ),
  'attachments.createTask': channel(
    () => z.object({ input: TaskCreateInput, files: SpoolIds }).strict(),
    () => AttachWriteResult.extend({ id: z.string() }),
  ),
  /** Files dropped on a task: an "Attached N files" comment. */
  'attachments.attach': channel(
    () => z.object({ taskId: Id, files: SpoolIds }).strict(),
    () => AttachWriteResult,
  ),
  /** Stops a file not yet referenced by its request; refused once it is. */
  'attachments.cancel': channel(
    () => z.object({ id: SpoolId }).strict(),
    () => UploadsStatus,
  ),
  'attachments.status': channel(
    () => z.object({}).strict(),
    () => UploadsStatus,
  ),
  /**
   * A received file made local: from the spool (attached from this machine, not yet sent), from
   * the download cache, else downloaded into it (progress as `attachments.onDidDownload`).
   * `not-found` "not offered by this service" when the service has no download.
   */
  'attachments.fetch': channel(
    () => FileRef,
    () => LocalFile,
  ),
  /** Part of a local file (the page builds a preview or a saved copy from the parts). */
  'attachments.read': channel(
    () =>
      z
        .object({
          fileId: z.string().min(1).max(200),
          offset: z.number().int().min(0),
          length: z.number().int().min(1).max(READ_CHUNK_BYTES),
        })
        .strict(),
    () => z.object({ data: z.base64(), size: z.number().int() }),
  ),
  /** Which of these files can be read offline now. */
  'attachments.local': channel(
    () => z.object({ fileIds: z.array(z.string().max(200)).max(5000) }).strict(),
    () => z.object({ fileIds: z.array(z.string()) }),
  ),
  /** Every attachment of a project's tasks (its subprojects' too), newest first. */
  'attachments.projectFiles': channel(
    () => z.object({ projectId: Id }).strict(),
    () => z.array(ProjectFile),
  ),
  'attachments.cacheInfo': channel(
    () => z.object({}).strict(),
    () => DownloadCacheInfo,
  ),
  'attachments.clearCache': channel(
    () => z.object({}).strict(),
    () => DownloadCacheInfo,
  ),
  /** Desktop app only: opens the file in the system's default program. */
  'attachments.openExternal': channel(
    () => FileRef,
    () => z.object({ opened: z.literal(true) }),
  ),
  /** Desktop app only: asks where to save the file and copies it there (null: cancelled). */
  'attachments.saveAs': channel(
    () => FileRef,
    () => z.object({ savedTo: z.string().nullable() }),
  ),
  /** The per-file size cap, for the drop target to say what will happen. */
  'attachments.limits': channel(
    () => z.object({}).strict(),
    () => z.object({ maxFileBytes: z.number().int(), filesPerRequest: z.number().int() }),
  ),
};
