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

/**
 * A place in the window (its route) as the window names it: a kind and its parameters, each a
 * text. The core keeps the last one per account (`app.rememberPlace`, in the account's folder)
 * and gives it back at the next start (`app.lastPlace`); what the kinds and parameters mean is
 * the window's, which checks a place read back before it opens it (`views/last-place.ts`).
 */
export const Place = lazySchema(() =>
  z
    .object({ kind: z.string().min(1).max(40) })
    .catchall(z.string().max(2000))
    .refine((place) => Object.keys(place).length <= 12, 'at most 12 parameters')
    // Parameter names are the window's route fields (`projectId`, `layout`): a short identifier.
    .superRefine((place, ctx) => {
      for (const param of Object.keys(place)) {
        if (!PLACE_PARAM_NAME.test(param))
          ctx.addIssue({
            code: 'custom',
            path: [param.slice(0, 40)],
            message: 'a parameter name is a short identifier (letters and digits, at most 40)',
          });
      }
    }),
);

/** A place's parameter name: a letter, then letters and digits, at most 40 in all. */
const PLACE_PARAM_NAME = /^[A-Za-z][A-Za-z0-9]{0,39}$/;
export type Place = z.infer<typeof Place>;

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
  /**
   * The place the window last showed for the active account, or null: none kept, the file
   * damaged, or a project it names no longer in the cache (the window then opens Home). An open
   * task, document or CRM record no longer held is left out; an id given offline is answered as
   * the real id the service gave it since.
   */
  'app.lastPlace': channel(
    () => z.object({}).strict(),
    () => Place.nullable(),
  ),
  /** Keeps the window's current place for the active account (nothing is kept without one). */
  'app.rememberPlace': channel(
    () => Place,
    () => z.null(),
  ),
};
