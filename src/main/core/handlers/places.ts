// The window's last place per account (`app.lastPlace`, `app.rememberPlace`): kept as a small
// file in the account's folder, so it survives a restart, goes with the account when it is
// removed, and is read with the window's first reads (it is one of them: `read-ahead.ts`, and so
// in the first-screen record written at close). A place read back is checked: a file damaged or
// of another shape, or a place naming a project or task the cache no longer holds, answers null
// (the window opens Home), and the log names the file and why.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Place } from '../../../shared/ipc/app';
import { describeZodError } from '../../../shared/errors';
import type { Cache } from '../cache/cache';
import type { HandlerMap } from './types';

/** The file in the account's folder. */
export const LAST_PLACE_FILE = 'last-place.json';

/** The parameters of a place that name an item of the cache, and whether it still holds it. */
export type HeldCheck = (param: string, id: string) => boolean | undefined;

/** Projects and tasks: a place naming one the cache no longer holds is not reopened. */
export function heldIn(cache: Pick<Cache, 'projects' | 'tasks'>): HeldCheck {
  return (param, id) => {
    if (param === 'projectId') return cache.projects.get(id) !== null;
    if (param === 'taskId') return cache.tasks.row(id) !== null;
    return undefined;
  };
}

export interface PlaceHandlerDeps {
  /** The account's folder. */
  dir: string;
  held: HeldCheck;
  log(message: string): void;
}

type PlaceChannels = 'app.lastPlace' | 'app.rememberPlace';

/** Without an account nothing is kept, and no place is given back. */
export function placeHandlers(deps: PlaceHandlerDeps | undefined): HandlerMap<PlaceChannels> {
  if (!deps) return { 'app.lastPlace': () => null, 'app.rememberPlace': () => null };
  const file = join(deps.dir, LAST_PLACE_FILE);
  // What the file holds, once read or written: a window remembering the same place again (a
  // reload) writes nothing.
  let kept: string | undefined;
  return {
    'app.lastPlace': () => {
      const place = readPlace(file, deps.log);
      if (!place) return null;
      for (const [param, id] of Object.entries(place)) {
        if (deps.held(param, id) === false) {
          deps.log(`Last place: ${file} names ${param} ${id}, no longer held; the window opens Home.`);
          return null;
        }
      }
      return place;
    },
    'app.rememberPlace': (place) => {
      const text = JSON.stringify(place);
      if (text === kept) return null;
      // A temporary file renamed over it: a crash mid-write leaves the earlier place.
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, text, { mode: 0o600 });
      renameSync(temporary, file);
      kept = text;
      return null;
    },
  };
}

/** The kept place, or undefined (none kept; a damaged one is logged, naming the file and field). */
function readPlace(file: string, log: (message: string) => void): Place | undefined {
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    log(
      `Last place: ${file} is damaged (${err instanceof Error ? err.message : String(err)}); the window opens Home.`,
    );
    return undefined;
  }
  const parsed = Place.safeParse(raw);
  if (!parsed.success) {
    log(
      `Last place: ${file} is not a place (${describeZodError(parsed.error, 'place').message}); the window opens Home.`,
    );
    return undefined;
  }
  return parsed.data;
}
