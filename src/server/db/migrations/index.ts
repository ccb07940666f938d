import type { Migration } from '../migrate';
import { up as initial } from './001-initial';

/** Numbered migrations, in order; migration N brings `user_version` from N-1 to N. */
export const migrations: readonly Migration[] = [{ version: 1, name: 'initial', up: initial }];
