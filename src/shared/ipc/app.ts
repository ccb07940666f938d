import { z } from 'zod';
import { channel } from './channel';
import { lazySchema } from '../lazy-schema';

export const AppInfo = lazySchema(() =>
  z.object({
    name: z.string(),
    version: z.string(),
    /** Where the core runs, e.g. "Node v20.20.2"; proves a value crossed the bridge. */
    coreRuntime: z.string(),
    transport: z.enum(['electron', 'web']),
  }),
);
export type AppInfo = z.infer<typeof AppInfo>;

/**
 * Something the app did to a file of the user's at start (a damaged database or settings file
 * moved aside and made again): what happened, what was saved, where the old file is.
 */
export const DataNotice = lazySchema(() =>
  z.object({
    id: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    title: z.string(),
    message: z.string(),
    /** Where the damaged file was moved (kept for the user or for support), when it was. */
    file: z.string().nullable(),
    /** What it is about: `app` for the app itself (its core restarted), else the user's files. */
    about: z.enum(['files', 'app']).optional(),
  }),
);
export type DataNotice = z.infer<typeof DataNotice>;

export const appChannels = {
  'app.info': channel(
    () => z.object({}).strict(),
    () => AppInfo,
  ),
  /** Notices about the user's files since the app started, oldest first. */
  'app.notices': channel(
    () => z.object({}).strict(),
    () => z.array(DataNotice),
  ),
};
