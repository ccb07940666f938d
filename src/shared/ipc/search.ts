import { z } from 'zod';
import { channel } from './channel';

export const SearchKind = z.enum(['task', 'project', 'message', 'document', 'contact', 'account']);

export const SearchHit = z.object({
  kind: SearchKind,
  id: z.string(),
  title: z.string(),
  /** Matched text with the hits wrapped in [ and ]. */
  snippet: z.string(),
  /** The task a message belongs to, or the task itself. */
  taskId: z.string().nullable(),
  /** The project of a task, message or document, or the project or folder itself. */
  projectId: z.string().nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const searchReadChannels = {
  'search.query': channel(
    z
      .object({
        text: z.string().trim().min(1).max(200),
        kinds: z.array(SearchKind).min(1).optional(),
        limit: z.number().int().min(1).max(500).default(50),
      })
      .strict(),
    z.object({ hits: z.array(SearchHit) }),
  ),
};
