import { randomBytes } from 'node:crypto';
import { formatLocalTimestamp } from '../shared/api/common';
import { crmStore } from './db/crm';
import { dependencyStore } from './db/dependencies';
import { documentStore } from './db/documents';
import { eventStore } from './db/events';
import { messageStore } from './db/messages';
import type { Db } from './db/open';
import { orgStore } from './db/org';
import { projectStore } from './db/projects';
import { taskStore } from './db/tasks';
import { timeReportStore } from './db/time-reports';
import { uploadStore } from './db/uploads';
import { badRequest } from './http/errors';

export interface ContextOptions {
  db: Db;
  clock: () => Date;
  newId: () => string;
  /** Unguessable secrets (upload addresses); never derived from `newId`. */
  newSecret?: () => string;
  filesDir: string;
  uploadLimitBytes: number;
  baseUrl: string | undefined;
}

/** Everything a route needs: the stores over one database, time, ids and the file folder. */
export function createContext(o: ContextOptions) {
  const org = orgStore(o.db);
  return {
    db: o.db,
    clock: o.clock,
    newId: o.newId,
    newSecret: o.newSecret ?? (() => randomBytes(32).toString('base64url')),
    filesDir: o.filesDir,
    uploadLimitBytes: o.uploadLimitBytes,
    baseUrl: o.baseUrl,
    /** Now as a zone-less local timestamp with 6 fraction digits. */
    now: () => formatLocalTimestamp(o.clock()),
    org,
    tasks: taskStore(o.db),
    messages: messageStore(o.db),
    projects: projectStore(o.db),
    documents: documentStore(o.db),
    events: eventStore(o.db),
    timeReports: timeReportStore(o.db),
    dependencies: dependencyStore(o.db),
    crm: crmStore(o.db),
    uploads: uploadStore(o.db),
    /** Acting-user and user-reference fields must name an existing user. */
    requireUser(field: string, id: string): void {
      if (!org.isUser(id)) throw badRequest(field, `no user with id ${JSON.stringify(id.slice(0, 100))}`);
    },
  };
}
export type ServiceContext = ReturnType<typeof createContext>;
