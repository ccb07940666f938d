import type { StoredAttachment } from '../../../shared/api/attachments';
import type { DownloadCacheInfo, LocalFile, ProjectFile } from '../../../shared/ipc/attachments';
import type { ServiceClient } from '../api/client';
import { AbortedError, NetworkError, ServerError, TimeoutError, UnauthorizedError } from '../api/errors';
import { DownloadNotOffered, type CachedFile, type DownloadCache } from '../attachments/downloads';
import { mimeFor } from '../attachments/names';
import type { Spool } from '../attachments/spool';
import type { Cache } from '../cache/cache';
import { HandlerError } from '../errors';
import type { HandlerMap } from './types';
import { attachmentEndpoints } from '../../../shared/api/attachments';

export interface FileDeps {
  downloads: DownloadCache;
  spool: Spool;
  client: ServiceClient;
  cache: Cache;
}

type FileChannels =
  | 'attachments.fetch'
  | 'attachments.read'
  | 'attachments.local'
  | 'attachments.projectFiles'
  | 'attachments.cacheInfo'
  | 'attachments.clearCache';

const SPOOL_ID = /^spool-[A-Za-z0-9-]+$/;

/** A download's failure as the user should read it. */
function downloadError(err: unknown, name: string): never {
  if (err instanceof DownloadNotOffered)
    throw new HandlerError('not-found', `${name}: downloads are not offered by this service`, 'fileId');
  if (err instanceof UnauthorizedError) throw new HandlerError('unauthorized', `${name}: ${err.message}`);
  if (err instanceof NetworkError || err instanceof TimeoutError || err instanceof ServerError)
    throw new HandlerError(
      'offline',
      `${name} is not on this computer and the service cannot be reached now`,
    );
  if (err instanceof AbortedError) throw new HandlerError('offline', `${name}: the download was stopped`);
  throw err;
}

/**
 * Received files: made local on demand (from the spool for a file attached here and not yet
 * sent, else the download cache, else downloaded into it), read in parts by the page, and listed
 * per project from the cached messages.
 */
export function fileHandlers({ downloads, spool, client, cache }: FileDeps): HandlerMap<FileChannels> {
  const info = (): DownloadCacheInfo => ({
    usedBytes: downloads.usedBytes(),
    maxBytes: downloads.maxBytes,
    files: 0,
  });
  const view = (file: CachedFile, source: LocalFile['source']): LocalFile => ({
    fileId: file.fileId,
    name: file.name,
    size: file.size,
    mime: file.mime,
    source,
  });

  return {
    'attachments.fetch': async ({ fileId, name, mime }) => {
      if (SPOOL_ID.test(fileId)) {
        // Attached from this machine and not yet sent: its spool copy, under its own name.
        const meta = await spool.get(fileId);
        if (!meta) throw new HandlerError('not-found', `${name} is no longer on this computer`, 'fileId');
        await downloads.adopt(fileId, meta, spool.pathOf(fileId));
        const kept = await downloads.get(fileId);
        if (!kept) throw new HandlerError('internal', `${name} could not be copied for reading`);
        return view(kept, 'spool');
      }
      try {
        const file = await downloads.fetch(fileId, { name, mime: mimeFor(name, mime) }, (id, signal) =>
          client.call(attachmentEndpoints.attachment, { fileId: id }, signal),
        );
        return view(file, 'cache');
      } catch (err) {
        return downloadError(err, name);
      }
    },
    'attachments.read': async ({ fileId, offset, length }) => {
      const [file] = (await downloads.list()).filter((f) => f.fileId === fileId);
      if (!file)
        throw new HandlerError('not-found', 'The file is not on this computer; open it first', 'fileId');
      const bytes = await downloads.read(fileId, offset, length);
      return { data: bytes.toString('base64'), size: file.size };
    },
    'attachments.local': async ({ fileIds }) => {
      const local = await downloads.has(fileIds);
      // A file attached here and not yet sent reads from the spool, whether copied out or not.
      const spooled = await Promise.all(
        fileIds
          .filter((id) => SPOOL_ID.test(id) && !local.includes(id))
          .map(async (id) => ((await spool.get(id)) ? id : null)),
      );
      return { fileIds: [...local, ...spooled.filter((id): id is string => id !== null)] };
    },
    'attachments.projectFiles': ({ projectId }) => {
      const rows = cache.messages.withFilesInProject(projectId);
      const out: ProjectFile[] = [];
      for (const row of rows) {
        let list: unknown;
        try {
          list = JSON.parse(row.attachments);
        } catch {
          continue;
        }
        if (!Array.isArray(list)) continue;
        for (const a of list as Partial<StoredAttachment>[]) {
          if (typeof a?.fileId !== 'string' || typeof a.name !== 'string') continue;
          out.push({
            fileId: a.fileId,
            name: a.name,
            size: typeof a.size === 'number' ? a.size : null,
            mime: typeof a.mime === 'string' ? a.mime : mimeFor(a.name),
            taskId: row.taskId,
            taskShortId: row.taskShortId,
            taskName: row.taskName,
            messageId: row.messageId,
            fromUserId: row.fromUserId,
            dateCreated: row.dateCreated,
            pending: SPOOL_ID.test(a.fileId),
          });
        }
      }
      return out;
    },
    'attachments.cacheInfo': async () => ({ ...info(), files: (await downloads.list()).length }),
    'attachments.clearCache': async () => {
      await downloads.clear();
      return { ...info(), files: (await downloads.list()).length };
    },
  };
}
