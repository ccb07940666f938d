// Every change the project overview makes goes through here: one call to the core's write
// channel, and a toast naming the field when the core refuses it. The core applies the change
// to the cache at once and queues it, so the overview updates through cache events.
import { toasts } from '../lib/toasts.svelte';

/** The fields of Update project (null resets where the service allows it). */
export interface ProjectPatch {
  name?: string;
  description?: string;
  color?: number;
  health?: number | null;
  statusComments?: string;
  ownerUserId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  priority?: number;
  estimate?: number | null;
  progress?: number | null;
  systemStatus?: 2 | 5;
  statusId?: string;
}

/** Access levels in requests: -10 read only, -5 read only + comment, 1 limited, 2 standard, 3 full. */
export type AccessLevel = -10 | -5 | 1 | 2 | 3;

async function unavailable(): Promise<never> {
  throw new Error('Editing projects is not available in this build yet.');
}

/** Runs a write; on failure shows `failure: reason` and answers the error (undefined on success). */
async function run(failure: string, write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
    return undefined;
  } catch (err) {
    toasts.error(failure, err);
    return err;
  }
}

export const projectWrites = {
  update(projectId: string, patch: ProjectPatch): Promise<unknown> {
    void projectId;
    void patch;
    return run('Could not change the project', unavailable);
  },
  addMember(projectId: string, userId: string, access: AccessLevel): Promise<unknown> {
    void [projectId, userId, access];
    return run('Could not add the member', unavailable);
  },
  setAccess(projectId: string, userId: string, access: AccessLevel): Promise<unknown> {
    void [projectId, userId, access];
    return run('Could not change the access', unavailable);
  },
  removeMember(projectId: string, userId: string): Promise<unknown> {
    void [projectId, userId];
    return run('Could not remove the member', unavailable);
  },
};
