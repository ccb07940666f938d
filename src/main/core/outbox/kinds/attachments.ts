import { z } from 'zod';
import type { StoredAttachment } from '../../../../shared/api/attachments';
import type { Task } from '../../../../shared/api/tasks';
import { COMMUNICATION_FLOW, messageEndpoints } from '../../../../shared/api/messages';
import { TaskCreateInput } from '../../../../shared/ipc/tasks-write';
import type { MessageView } from '../../../../shared/ipc/tasks';
import type { ServiceClient } from '../../api/client';
import { attachedNote } from '../../attachments/names';
import { FileRef, type FileSender } from '../../attachments/sender';
import { listedMessages, type ListedMessage } from '../../sync/pending';
import { LOCAL_ROW_PREFIX } from '../../local-ids';
import type { LookUpResult, OutboxEntry } from '../types';
import {
  createdAmongOf,
  earliestCreated,
  lookUpClock,
  sameFlow,
  type CreatedAmong,
  type Kind,
  type KindDeps,
  listedLookUp,
} from './support';
import { taskStore } from './tasks';
import { taskEndpoints } from '../../../../shared/api/tasks';

const Files = z.array(FileRef).min(1).max(20);
const DraftId = z.string().startsWith(LOCAL_ROW_PREFIX);

export const CommentFilesPayload = z.object({
  taskId: z.string(),
  draftId: DraftId,
  message: z.string().optional(),
  /** Files dropped on the task: the message is "Attached N files", counted at send time. */
  note: z.boolean().optional(),
  files: Files,
});
export const ReplyFilesPayload = z.object({
  taskId: z.string(),
  draftId: DraftId,
  actionRequiredUserId: z.string(),
  message: z.string().optional(),
  files: Files,
});
export const CreateFilesPayload = z.object({
  tempId: z.string().startsWith('local-'),
  draftId: DraftId,
  input: TaskCreateInput,
  files: Files,
});

/** A reference request answered; `skipped` when every file was cancelled and nothing was left to say. */
interface Sent {
  skipped: boolean;
}

const spoolIdsOf = (p: { files: readonly FileRef[] }): string[] => p.files.map((f) => f.spoolId);

/** The attachments a draft message shows until the service's own message replaces it. */
function draftAttachments(files: readonly FileRef[]): StoredAttachment[] {
  return files.map((f) => ({ fileId: f.spoolId, name: f.name, size: f.size, mime: f.mime }));
}

declare module './support' {
  interface KindModules {
    attachments: ReturnType<typeof attachmentKinds>;
  }
}

/**
 * Outbox kinds of writes that carry dropped files: a comment (also the "Attached N files"
 * comment of a drop on a task), a reply and a new task. Each is the task kind of the same
 * write (its optimistic change, rollback and look-up) plus, at send time, the upload of its
 * files; the request that references them leaves only once every upload succeeded.
 */
export function attachmentKinds(
  deps: KindDeps & {
    files: FileSender;
    taskKinds: readonly Kind<unknown, unknown>[];
    /** `task.create`'s look-up test over a task list, which `task.createWithFiles` shares. */
    taskCreatedAmong: CreatedAmong<Task>;
  },
) {
  const { cache, files } = deps;
  const store = taskStore(deps);
  const base = (name: string): Kind<unknown, unknown> => {
    const kind = deps.taskKinds.find((k) => k.name === name);
    if (!kind) throw new Error(`No task kind ${name}`);
    return kind;
  };
  const comment = base('task.comment');
  const reply = base('task.reply');
  const create = base('task.create');

  /** Puts the files on the draft message the base kind wrote (or on a new one). */
  function attachToDraft(draftId: string, taskId: string, list: readonly FileRef[], at: number): void {
    if (!cache.messages.has(draftId)) {
      store.addDraft(draftId, taskId, at, { flow: COMMUNICATION_FLOW.created, message: '', toUserId: null });
    }
    const draft = cache.messages.listForTask(taskId).find((m) => m.id === draftId);
    if (draft) cache.messages.codec.upsert({ ...draft, attachments: draftAttachments(list) } as MessageView);
  }

  /**
   * `lookUp` and the look-up test of a kind that posts a message with files (`flow`, its text by
   * the count of files sent: `text`), for the look-up and the lists sync stores alike.
   */
  function postsWithFiles<P extends { taskId: string; files: readonly FileRef[] }>(
    parse: (payload: unknown) => P,
    flow: number,
    text: (p: P, count: number) => string,
  ) {
    /**
     * Rule 6's test of the post, given the files' service ids (`fileIds`): the request went out
     * only if every file had been uploaded, and then the message is the earliest of ours on its
     * task since the send (not taken by `taken`) carrying exactly those ids, or, with no file
     * left to send, its text.
     */
    const postedIn = <U extends ListedMessage>(
      messages: readonly U[],
      p: P,
      entry: Pick<OutboxEntry, 'sentAt'>,
      ids: readonly (string | null)[],
      taken: (id: string) => boolean = () => false,
    ): U | undefined => {
      if (ids.some((id) => id === null)) return undefined;
      const wanted = new Set(ids as string[]);
      return earliestCreated(
        messages,
        {
          sentAt: entry.sentAt,
          momentOf: (m) => m.dateCreated,
          isMapped: taken,
          clock: lookUpClock(deps),
        },
        (m) => {
          if (m.taskId !== p.taskId || m.fromUserId !== deps.userId || !sameFlow(m.communicationFlow, flow))
            return false;
          if (m.attachments && wanted.size > 0) {
            const got = new Set(m.attachments.map((a) => a.fileId));
            return got.size === wanted.size && [...wanted].every((id) => got.has(id));
          }
          return m.message === text(p, wanted.size);
        },
      );
    };
    return {
      lookUp: async (client: ServiceClient, p: P, entry: OutboxEntry): Promise<LookUpResult<Sent>> => {
        const ids = await files.fileIds(spoolIdsOf(p));
        if (ids.some((id) => id === null)) return { found: false };
        const listed = listedMessages(
          p.taskId,
          await client.call(messageEndpoints.taskMessages, { id: p.taskId }),
        );
        return postedIn(listed, p, entry, ids)
          ? { found: true, result: { skipped: false } }
          : { found: false };
      },
      /**
       * At the acknowledgement, as `settleDraft` does for a message without files: the draft
       * gives way to the service's message when a pull brought that in already (while the
       * entry was open, so the pull kept both), and the task's messages are fetched again next
       * pull either way (the fetch that brought it, or the one to come, may predate this).
       */
      settle: (p: P & { draftId: string }, entry: OutboxEntry): void => {
        const ids = files.knownFileIds(spoolIdsOf(p));
        const cached = cache.messages.listForTask(p.taskId).filter((m) => !m.id.startsWith(LOCAL_ROW_PREFIX));
        if (ids && postedIn(cached, p, entry, ids)) store.deleteDraft(p.draftId);
        cache.tasks.markMessagesStale(p.taskId);
      },
      /** The test over a list sync stores: it recognises the post once the files' ids are known without I/O. */
      postedAmong: createdAmongOf<ListedMessage, P>(parse, (messages, p, entry, taken) => {
        const ids = files.knownFileIds(spoolIdsOf(p));
        return ids && postedIn(messages, p, entry, ids, taken);
      }),
    };
  }

  const commentPosts = postsWithFiles(
    (payload) => CommentFilesPayload.parse(payload),
    COMMUNICATION_FLOW.comment,
    (p, n) => (p.note ? attachedNote(n) : (p.message ?? '')),
  );
  const replyPosts = postsWithFiles(
    (payload) => ReplyFilesPayload.parse(payload),
    COMMUNICATION_FLOW.reply,
    (p) => p.message ?? '',
  );

  const commentWithFiles: Kind<z.infer<typeof CommentFilesPayload>, Sent, 'task.commentWithFiles'> = {
    name: 'task.commentWithFiles',
    parse: (p) => CommentFilesPayload.parse(p),
    keysOf: (p) => [`task:${p.taskId}`],
    describe: (p) => (p.note ? attachedNote(p.files.length) : `Comment with ${p.files.length} files`),
    apply: (ctx, p) => {
      const message = p.note ? attachedNote(p.files.length) : (p.message ?? '');
      comment.apply(ctx, { taskId: p.taskId, message, draftId: p.draftId });
      attachToDraft(p.draftId, p.taskId, p.files, ctx.now);
      files.track(p.files, p.taskId);
    },
    send: async (client, p) => {
      const refs = await files.upload(client, spoolIdsOf(p), p.taskId);
      // A note with no file left, or a comment that was only its files, posts nothing.
      if (!refs.length && (p.note || !p.message)) return { skipped: true };
      const message = p.note ? attachedNote(refs.length) : p.message;
      await client.call(messageEndpoints.comment, {
        id: p.taskId,
        body: {
          userId: deps.userId,
          ...(message ? { message } : {}),
          ...(refs.length ? { attachments: refs } : {}),
        },
      });
      return { skipped: false };
    },
    fold: (_ctx, p, result, entry) => {
      if (result.skipped) store.deleteDraft(p.draftId);
      else commentPosts.settle(p, entry);
      files.settled(entry.id, spoolIdsOf(p));
    },
    lookUp: commentPosts.lookUp,
    rollback: (ctx, p, undo) => {
      comment.rollback(ctx, { taskId: p.taskId, message: p.message ?? '', draftId: p.draftId }, undo);
      files.dropped(spoolIdsOf(p));
    },
  };

  const replyWithFiles: Kind<z.infer<typeof ReplyFilesPayload>, Sent, 'task.replyWithFiles'> = {
    name: 'task.replyWithFiles',
    parse: (p) => ReplyFilesPayload.parse(p),
    keysOf: (p) => [`task:${p.taskId}`],
    describe: (p) => `Reply with ${p.files.length} files`,
    apply: (ctx, p) => {
      const { files: list, ...rest } = p;
      const applied = reply.apply(ctx, rest);
      attachToDraft(p.draftId, p.taskId, list, ctx.now);
      files.track(list, p.taskId);
      return applied ? { ...(applied.undo !== undefined ? { undo: applied.undo } : {}) } : undefined;
    },
    send: async (client, p) => {
      const refs = await files.upload(client, spoolIdsOf(p), p.taskId);
      // A reply also moves the action-required user: it is sent even with every file cancelled.
      await client.call(messageEndpoints.reply, {
        id: p.taskId,
        body: {
          userId: deps.userId,
          actionRequiredUsedId: p.actionRequiredUserId,
          ...(p.message ? { message: p.message } : {}),
          ...(refs.length ? { attachments: refs } : {}),
        },
      });
      return { skipped: false };
    },
    fold: (_ctx, p, _result, entry) => {
      replyPosts.settle(p, entry);
      files.settled(entry.id, spoolIdsOf(p));
    },
    lookUp: replyPosts.lookUp,
    rollback: (ctx, p, undo) => {
      const { files: list, ...rest } = p;
      reply.rollback(ctx, rest, undo);
      files.dropped(spoolIdsOf({ files: list }));
    },
  };

  const createWithFiles: Kind<
    z.infer<typeof CreateFilesPayload>,
    { id: string; shortId: string; momentCreated: string },
    'task.createWithFiles'
  > = {
    name: 'task.createWithFiles',
    parse: (p) => CreateFilesPayload.parse(p),
    keysOf: (p) => create.keysOf({ tempId: p.tempId, draftId: p.draftId, input: p.input }),
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Create task "${p.input.title}" with ${p.files.length} files`,
    apply: (ctx, p) => {
      const { files: list, ...rest } = p;
      create.apply(ctx, rest);
      attachToDraft(p.draftId, p.tempId, list, ctx.now);
      files.track(list, p.tempId);
    },
    send: async (client, p) => {
      const refs = await files.upload(client, spoolIdsOf(p), null);
      return client.call(taskEndpoints.createTask, {
        body: {
          ...p.input,
          fromUserId: deps.userId,
          ...(refs.length ? { attachments: refs } : {}),
        },
      });
    },
    fold: (ctx, p, result, entry) => {
      const { files: list, ...rest } = p;
      const folded = create.fold(ctx, rest, result, entry);
      files.settled(entry.id, spoolIdsOf({ files: list }));
      return folded ?? undefined;
    },
    // The task is found by its title, as a plain create is; its files came with it or not at all.
    lookUp: async (client, p, entry) => {
      const { files: _files, ...rest } = p;
      const found = await create.lookUp!(client, rest, entry);
      return found as
        { found: true; result: { id: string; shortId: string; momentCreated: string } } | { found: false };
    },
    rollback: (ctx, p, undo) => {
      const { files: list, ...rest } = p;
      create.rollback(ctx, rest, undo);
      files.dropped(spoolIdsOf({ files: list }));
    },
  };

  return {
    kinds: [commentWithFiles, replyWithFiles, createWithFiles],
    /** A create with files is a task create too (its payload adds the files): the same test. */
    lookUps: [
      listedLookUp('task', 'task.createWithFiles', deps.taskCreatedAmong),
      listedLookUp('message', 'task.commentWithFiles', commentPosts.postedAmong),
      listedLookUp('message', 'task.replyWithFiles', replyPosts.postedAmong),
    ],
  };
}
