import { mergeHandlerMaps } from './registry';
import type { HandlerMap } from './types';
import type { ReadDeps } from './read-deps';
import { calendarReadHandlers } from './calendar-read';
import { timeReadHandlers } from './time';
import { crmReadHandlers } from './crm-read';
import { dependencyReadHandlers } from './dependencies-read';
import { orgReadHandlers } from './org-read';
import { projectReadHandlers } from './projects-read';
import { searchReadHandlers } from './search-read';
import { syncHandlers } from './sync-read';
import { taskReadHandlers } from './tasks-read';
import { inboxHandlers } from './inbox';
import { updatesHandlers } from './updates';

export type { ReadDeps } from './read-deps';

/** Every read-side handler map of one account, merged. */
export function readHandlers(deps: ReadDeps): Partial<HandlerMap> {
  return mergeHandlerMaps([
    projectReadHandlers(deps),
    taskReadHandlers(deps),
    calendarReadHandlers(deps),
    timeReadHandlers(deps),
    crmReadHandlers(deps),
    dependencyReadHandlers(deps),
    orgReadHandlers(deps),
    searchReadHandlers(deps),
    syncHandlers(deps),
    inboxHandlers(deps),
    updatesHandlers(deps),
  ]);
}
