import { z } from 'zod';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

export const SearchKind = lazySchema(() =>
  z.enum(['task', 'project', 'message', 'document', 'event', 'contact', 'account']),
);

export const SearchHit = lazySchema(() =>
  z.object({
    kind: SearchKind,
    id: z.string(),
    title: z.string(),
    /**
     * Matched text, plain (Markdown marks removed), with the hits wrapped in `SNIPPET_HIT_START`
     * and `SNIPPET_HIT_END` (src/shared/search-query.ts).
     */
    snippet: z.string(),
    /** The task a message belongs to, or the task itself. */
    taskId: z.string().nullable(),
    /** The project of a task, message or document, or the project or folder itself. */
    projectId: z.string().nullable(),
    /** The number (short id) of the task, or of a message's task. */
    shortId: z.string().nullable(),
    /** When a message was written or an event starts (the calendar opens at its month). */
    date: z.string().nullable(),
  }),
);
export type SearchHit = z.infer<typeof SearchHit>;

export const searchReadChannels = {
  'search.query': channel(
    () =>
      z
        .object({
          text: z.string().trim().min(1).max(200),
          kinds: z.array(SearchKind).min(1).optional(),
          limit: z.number().int().min(1).max(500).default(50),
          /** A project whose items rank first (the one being looked at). */
          near: z.string().min(1).max(100).optional(),
        })
        .strict(),
    () => z.object({ hits: z.array(SearchHit) }),
  ),
};
