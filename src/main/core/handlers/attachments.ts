import { LIMITS } from '../../../shared/api/common';
import type { AttachWriteResult, StageResult } from '../../../shared/ipc/attachments';
import type { EventName, EventPayload } from '../../../shared/ipc/events';
import type { AttachmentFiles } from '../attachments/files';
import { spoolIdsIn } from '../attachments/files';
import { chunks } from '../attachments/names';
import { SpoolRefusal, spooledView } from '../attachments/spool';
import type { Cache } from '../cache/cache';
import { HandlerError } from '../errors';
import type { FileRef } from '../attachments/sender';
import type { OutboxEntry } from '../outbox/types';
import type { AccountOutbox, KindPayload } from '../outbox/account-outbox';
import type { HandlerMap } from './types';

export interface AttachmentDeps {
  files: AttachmentFiles;
  outbox: AccountOutbox;
  cache: Cache;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
}

type AttachmentChannels =
  | 'attachments.streamStart'
  | 'attachments.streamChunk'
  | 'attachments.streamEnd'
  | 'attachments.unstage'
  | 'attachments.comment'
  | 'attachments.reply'
  | 'attachments.createTask'
  | 'attachments.attach'
  | 'attachments.cancel'
  | 'attachments.status'
  | 'attachments.limits';

/**
 * Copies files the user dropped or picked, named by paths the shell resolved (see
 * `STAGE_DROPPED_FILES`), into the spool. Not a channel: no page can reach it.
 */
export async function stageDroppedPaths(
  files: AttachmentFiles,
  paths: readonly string[],
): Promise<StageResult> {
  const { staged, refused } = await files.spool.addPaths(paths);
  return { staged: staged.map(spooledView), refused };
}

/** Runs a spool call; a refused file becomes an IPC error naming it. */
async function refusing<T>(fn: () => Promise<T>, field: string): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof SpoolRefusal) throw new HandlerError('invalid-argument', err.message, field);
    throw err;
  }
}

/**
 * Dropped files: staged into the spool at once (by path in Electron, streamed in chunks by the
 * web host's page), then joined to a comment, reply, new task or "Attached N files" comment in
 * the outbox, at most 20 per request (more make more comments). Staged files are checked to
 * exist before anything is queued, so a bad id changes nothing.
 */
export function attachmentHandlers({
  files,
  outbox,
  cache,
  emit,
}: AttachmentDeps): HandlerMap<AttachmentChannels> {
  const { spool, uploads } = files;
  const id = (value: string): string => outbox.realIdOf(value);

  async function refs(ids: readonly string[]): Promise<FileRef[]> {
    const unique = [...new Set(ids)];
    const metas = await Promise.all(unique.map((s) => spool.get(s)));
    return metas.map((m, i) => {
      if (!m) throw new HandlerError('not-found', `No staged file ${unique[i]}`, 'files');
      return { spoolId: m.id, name: m.name, size: m.size, mime: m.mime };
    });
  }

  /** Entries still open that name the spooled file. */
  function entriesNaming(spoolId: string): OutboxEntry[] {
    return outbox.entries().filter((e) => spoolIdsIn(e.payload).includes(spoolId));
  }

  /** Queues the write (first group) and "Attached N files" comments for the rest, in one transaction. */
  function queue<K extends 'task.commentWithFiles' | 'task.replyWithFiles' | 'task.createWithFiles'>(
    first: (group: FileRef[]) => { kind: K; payload: KindPayload<K> },
    taskId: string,
    list: FileRef[],
  ): AttachWriteResult {
    const groups = chunks(list, LIMITS.attachmentsPerRequest);
    const entryIds = cache.transaction(() =>
      groups.map((group, i) => {
        if (i === 0) {
          const { kind, payload } = first(group);
          return outbox.write(kind, payload).entryId;
        }
        return outbox.write('task.commentWithFiles', {
          taskId,
          draftId: outbox.newLocalRowId(),
          note: true,
          files: group,
        }).entryId;
      }),
    );
    return { entryIds: entryIds.filter((e): e is number => e !== undefined), requests: groups.length };
  }

  /** Removes a cancelled file from the draft message that showed it. */
  function dropFromDrafts(entry: OutboxEntry, spoolId: string): void {
    const payload = entry.payload as { draftId?: string; taskId?: string; tempId?: string };
    const taskId = payload.taskId ?? payload.tempId;
    if (!payload.draftId || !taskId) return;
    const task = id(taskId);
    cache.transaction(() => {
      const draft = cache.messages.listForTask(task).find((m) => m.id === payload.draftId);
      if (!draft?.attachments) return;
      cache.messages.codec.upsert({
        ...draft,
        attachments: draft.attachments.filter((a) => a.fileId !== spoolId),
      });
    });
    emit('cache.onDidChange', { entities: ['messages'], ids: { tasks: [task] } });
  }

  return {
    'attachments.streamStart': ({ name, size, mime }) =>
      refusing(async () => ({ id: await spool.beginStream(name, size, mime) }), 'size'),
    'attachments.streamChunk': ({ id: spoolId, offset, data }) =>
      refusing(
        async () => ({ received: await spool.appendChunk(spoolId, offset, Buffer.from(data, 'base64')) }),
        'data',
      ),
    'attachments.streamEnd': ({ id: spoolId }) =>
      refusing(async () => spooledView(await spool.endStream(spoolId)), 'id'),
    'attachments.unstage': async ({ id: spoolId }) => {
      if (entriesNaming(spoolId).length)
        throw new HandlerError('conflict', 'The file is already queued; cancel it instead', 'id');
      const existed = (await spool.get(spoolId)) !== null;
      await spool.remove(spoolId);
      return { removed: existed };
    },
    'attachments.comment': async ({ taskId, message, files: ids }) => {
      const list = await refs(ids);
      const task = id(taskId);
      return queue(
        (group) => ({
          kind: 'task.commentWithFiles',
          payload: {
            taskId: task,
            draftId: outbox.newLocalRowId(),
            ...(message ? { message } : {}),
            files: group,
          },
        }),
        task,
        list,
      );
    },
    'attachments.reply': async ({ taskId, actionRequiredUserId, message, files: ids }) => {
      const list = await refs(ids);
      const task = id(taskId);
      return queue(
        (group) => ({
          kind: 'task.replyWithFiles',
          payload: {
            taskId: task,
            actionRequiredUserId: id(actionRequiredUserId),
            draftId: outbox.newLocalRowId(),
            ...(message ? { message } : {}),
            files: group,
          },
        }),
        task,
        list,
      );
    },
    'attachments.createTask': async ({ input, files: ids }) => {
      const list = await refs(ids);
      const tempId = outbox.newTempId();
      const resolved = {
        ...input,
        projectId: id(input.projectId),
        ...(input.parentTaskId ? { parentTaskId: id(input.parentTaskId) } : {}),
      };
      const result = queue(
        (group) => ({
          kind: 'task.createWithFiles',
          payload: { tempId, draftId: outbox.newLocalRowId(), input: resolved, files: group },
        }),
        tempId,
        list,
      );
      return { ...result, id: tempId };
    },
    'attachments.attach': async ({ taskId, files: ids }) => {
      const list = await refs(ids);
      const task = id(taskId);
      return queue(
        (group) => ({
          kind: 'task.commentWithFiles',
          payload: { taskId: task, draftId: outbox.newLocalRowId(), note: true, files: group },
        }),
        task,
        list,
      );
    },
    'attachments.cancel': async ({ id: spoolId }) => {
      const entries = entriesNaming(spoolId);
      const meta = await spool.get(spoolId);
      const refused = () =>
        new HandlerError('conflict', `${meta?.name ?? 'The file'} is already being attached`, 'id');
      if (uploads.isReferencing(spoolId)) throw refused();
      // Sent with no answer and not uploading here (after a restart): it may be referenced already
      // unless it was never uploaded.
      if (entries.some((e) => e.state === 'in_flight') && !uploads.isActive(spoolId) && meta?.fileId)
        throw refused();
      if (!(await uploads.cancel(spoolId))) throw refused();
      for (const entry of entries) {
        dropFromDrafts(entry, spoolId);
        const payload = entry.payload as { files?: FileRef[]; note?: boolean; message?: string };
        const left = (payload.files ?? []).filter((f) => f.spoolId !== spoolId);
        const remaining = await Promise.all(left.map((f) => spool.get(f.spoolId)));
        const empty = remaining.every((m) => m === null);
        // A comment that was only its files goes away with them; a reply or a new task stays.
        if (entry.kind === 'task.commentWithFiles' && empty && (payload.note || !payload.message)) {
          try {
            outbox.discard(entry.id);
          } catch {
            // Sent before (no file of it ever uploaded) or being sent: its send finds no file left
            // and posts nothing; the draft leaves the view now.
            const draftId = (entry.payload as { draftId?: string }).draftId;
            if (draftId) cache.messages.deleteDraft(draftId);
            emit('cache.onDidChange', { entities: ['messages'] });
          }
        }
      }
      return uploads.status();
    },
    'attachments.status': () => uploads.status(),
    'attachments.limits': () => ({
      maxFileBytes: spool.maxFileBytes,
      filesPerRequest: LIMITS.attachmentsPerRequest,
    }),
  };
}
