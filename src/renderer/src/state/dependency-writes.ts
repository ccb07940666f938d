// Creating and removing dependencies, on the one write path (`runWrite`): a toast naming the
// field when the core refuses one.
import type { ChannelInput } from '@shared/ipc/contract';
import type { ItemRef } from '../lib/dependencies';
import { runWrite } from './writes';

type End = Pick<ItemRef, 'kind' | 'id'>;

export const dependencyWrites = {
  create(type: ChannelInput<'dependencies.create'>['type'], predecessor: End, successor: End) {
    return runWrite(
      'dependencies.create',
      {
        type,
        predecessor: { kind: predecessor.kind, id: predecessor.id },
        successor: { kind: successor.kind, id: successor.id },
      },
      { failure: 'Could not add the dependency' },
    );
  },
  remove(dependencyId: string) {
    return runWrite('dependencies.delete', { dependencyId }, { failure: 'Could not remove the dependency' });
  },
};
