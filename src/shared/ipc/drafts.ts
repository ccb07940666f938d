import { z } from 'zod';
import { LIMITS } from '../api/common';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

/**
 * What was typed and not sent, kept by the core in the account's outbox file (never thrown away)
 * so it survives a restart, a crash and a rebuilt cache: a task's message box (`message:<taskId>`,
 * comment and reply share it; a task created here has its draft moved to its real id when the
 * service makes it) and the New task dialog (`new-task`, its fields as JSON). The account is the
 * file's.
 */
export const DraftKey = lazySchema(() =>
  z.string().regex(/^(message:[A-Za-z0-9_-]{1,64}|new-task)$/, 'must be message:<task id> or new-task'),
);

const DRAFT_MAX = 2 * LIMITS.textLength + 1000;

export const draftChannels = {
  'drafts.get': channel(
    () => z.object({ key: DraftKey }).strict(),
    () => z.object({ text: z.string(), updatedAt: z.number().int().nullable() }),
  ),
  /** Keeps the text; an empty text forgets the draft (sent, or erased). */
  'drafts.set': channel(
    () =>
      z
        .object({
          key: DraftKey,
          // A message box's text, or the dialog's fields (title and message) as JSON.
          text: z.string().max(DRAFT_MAX, `must be at most ${DRAFT_MAX} characters`),
        })
        .strict(),
    () => z.object({ kept: z.boolean() }),
  ),
};
