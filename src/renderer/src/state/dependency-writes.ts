// Creating and removing dependencies: one call to the core's write channel each, and a toast
// naming the field when the core refuses it.
import { bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';
import type { ItemRef } from '../lib/dependencies';

async function run(failure: string, write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    toasts.error(failure, err);
    return false;
  }
}

type End = Pick<ItemRef, 'kind' | 'id'>;

export const dependencyWrites = {
  create(type: 5 | 6 | 7, predecessor: End, successor: End): Promise<boolean> {
    return run('Could not add the dependency', () =>
      bridge.invoke('dependencies.create', {
        type,
        predecessor: { kind: predecessor.kind, id: predecessor.id },
        successor: { kind: successor.kind, id: successor.id },
      }),
    );
  },
  remove(dependencyId: string): Promise<boolean> {
    return run('Could not remove the dependency', () =>
      bridge.invoke('dependencies.delete', { dependencyId }),
    );
  },
};
