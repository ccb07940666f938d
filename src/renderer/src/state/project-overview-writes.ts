// Every change the project overview makes (fields, members) goes through here: one call to
// the core's write channel, and a toast naming the field when the core refuses it. The core
// applies the change to the cache at once and queues it, so the overview updates through cache
// events. (Creating and moving projects is the tree's `project-writes.svelte.ts`.)
import type { ChannelInput } from '@shared/ipc/contract';
import { bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';

/** The fields of Update project (null resets where the service allows it). */
export type ProjectPatch = ChannelInput<'projects.update'>['changes'];

/** Access levels in requests: -10 read only, -5 read only + comment, 1 limited, 2 standard, 3 full. */
export type AccessLevel = -10 | -5 | 1 | 2 | 3;

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

export const projectOverviewWrites = {
  update(projectId: string, changes: ProjectPatch): Promise<unknown> {
    return run('Could not change the project', () =>
      bridge.invoke('projects.update', { projectId, changes }),
    );
  },
  /** One custom-field value; null resets it. */
  setCustomField(projectId: string, fieldId: string, value: unknown): Promise<unknown> {
    return run('Could not change the custom field', () =>
      bridge.invoke('projects.setCustomFields', { projectId, values: [{ id: fieldId, value }] }),
    );
  },
  addMember(projectId: string, userId: string, access: 1 | 2 | 3): Promise<unknown> {
    return run('Could not add the member', () => bridge.invoke('members.add', { projectId, userId, access }));
  },
  setAccess(projectId: string, userId: string, access: AccessLevel): Promise<unknown> {
    return run('Could not change the access', () =>
      bridge.invoke('members.setAccess', { projectId, userId, access }),
    );
  },
  removeMember(projectId: string, userId: string): Promise<unknown> {
    return run('Could not remove the member', () => bridge.invoke('members.remove', { projectId, userId }));
  },
};
