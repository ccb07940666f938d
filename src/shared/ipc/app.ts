import { z } from 'zod';
import { channel } from './channel';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** Where the core runs, e.g. "Node v20.20.2"; proves a value crossed the bridge. */
  coreRuntime: z.string(),
  transport: z.enum(['electron', 'web']),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const appChannels = {
  'app.info': channel(z.object({}).strict(), AppInfo),
};
