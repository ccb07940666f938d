import type { Migration } from './types';
import { migration001 } from './001-resources';
import { migration002 } from './002-search';
import { migration003 } from './003-outbox';
import { migration004 } from './004-project-templates';
import { migration005 } from './005-project-search';
import { migration006 } from './006-outbox-stuck';
import { migration007 } from './007-outbox-own-file';
import { migration008 } from './008-search-numbers';
import { migration009 } from './009-inbox-read-state';
import { migration010 } from './010-updates';
import { migration011 } from './011-time-reports';
import { migration012 } from './012-files-and-drafts';
import { migration013 } from './013-timer-and-todo-progress';
import { migration014 } from './014-task-fingerprints';
import { migration015 } from './015-drop-cache-drafts';
import { migration016 } from './016-stale-messages-index';
import { migration017 } from './017-list-answers';
import { migration018 } from './018-due-tasks-index';
import { migration019 } from './019-task-index-later';

/**
 * Every cache migration, in order. To add one: create `NNN-what.ts` next to these exporting a
 * `Migration` whose `version` is the next number, and append it here. Never edit or reorder a
 * migration that has shipped; a database records the last version it ran in `user_version`.
 * A migration holds its own SQL: it imports only types, the frozen `fts.ts` helper and other
 * migrations, and its schema is recorded in `frozen-migrations.test.ts` (which says what to append).
 */
export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
];

/** The cache version whose file no longer holds the outbox (it has a file of its own). */
export const OUTBOX_MOVED_VERSION = 7;
