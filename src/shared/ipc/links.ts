import { z } from 'zod';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

/** What a link names, once found in this workspace. */
export const ResolvedLink = lazySchema(() =>
  z.object({
    kind: z.enum(['task', 'project']),
    id: z.string(),
    /** The task's or project's name, for the notice that says what was opened. */
    name: z.string(),
  }),
);
export type ResolvedLink = z.infer<typeof ResolvedLink>;

export const linkChannels = {
  /**
   * Reads a `workdesk://task/<id>`, `workdesk://project/<id>` or the service's web link to a task
   * (src/shared/links.ts) and finds what it names in the cache: `invalid-argument` naming what is
   * wrong with a bad link, `not-found` for an item this workspace does not have.
   */
  'links.resolve': channel(
    () => z.object({ link: z.string().max(4096) }).strict(),
    () => ResolvedLink,
  ),
  /**
   * Desktop app only: the links the OS handed over before the window could take them (a launch
   * by a link); from then on they come as `app.onDidOpenLink`. The renderer asks once it listens.
   */
  'links.takePending': channel(
    () => z.object({}).strict(),
    () => z.object({ links: z.array(z.string()) }),
  ),
};
