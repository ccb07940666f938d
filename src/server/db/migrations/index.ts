import type { Migration } from '../migrate';
import { up as initial } from './001-initial';
import { up as timeReports } from './002-time-reports';

/** Numbered migrations, in order; migration N brings `user_version` from N-1 to N. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', up: initial },
  { version: 2, name: 'time-reports', up: timeReports },
];
