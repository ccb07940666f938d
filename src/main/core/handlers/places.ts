// The window's last place per account (`app.lastPlace`, `app.rememberPlace`): kept as a small
// file in the account's folder, so it survives a restart, goes with the account when it is
// removed, and is read with the window's first reads (it is one of them: `read-ahead.ts`, and so
// in the first-screen record written at close). A place read back is checked: a file damaged or
// of another shape, or a place naming a project the cache no longer holds, answers null (the
// window opens Home); an open task, document or CRM record no longer held is dropped alone (the
// view reopens without its panel). The log names the file and why. An id given while offline is
// answered as the real id the service gave it since.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Place } from '../../../shared/ipc/app';
import { describeZodError } from '../../../shared/errors';
import type { Cache } from '../cache/cache';
import type { HandlerMap } from './types';

/** The file in the account's folder. */
export const LAST_PLACE_FILE = 'last-place.json';

/** The parameters of a place that name an item of the cache, and whether it still holds it. */
export type HeldCheck = (param: string, id: string) => boolean | undefined;

/** Projects, tasks, documents and CRM records (a contact or an account): held or not. */
export function heldIn(cache: Pick<Cache, 'projects' | 'tasks' | 'projectParts' | 'crm'>): HeldCheck {
  return (param, id) => {
    if (param === 'projectId') return cache.projects.get(id) !== null;
    if (param === 'taskId') return cache.tasks.row(id) !== null;
    if (param === 'documentId') return cache.projectParts.document(id) !== null;
    if (param === 'recordId') return cache.crm.contact(id) !== null || cache.crm.account(id) !== null;
    return undefined;
  };
}

/**
 * The parameters naming what is open beside or inside a view: one no longer held is dropped and
 * the view reopens without it. Any other parameter no longer held (the project of a project's
 * view) answers no place. A task's own page left without its `taskId` is refused by the window.
 */
const OPTIONAL_PARAMS: ReadonlySet<string> = new Set(['taskId', 'documentId', 'recordId']);

/** The parameters that name an item by id (and so may name one created offline). */
const isIdParam = (param: string): boolean => param.endsWith('Id');

/** Renaming a file over another can fail for a moment on Windows (a scanner or indexer has it open). */
const RENAME_RETRY_CODES: ReadonlySet<string> = new Set(['EPERM', 'EBUSY', 'EACCES']);
const RENAME_ATTEMPTS = 4;

export interface PlaceHandlerDeps {
  /** The account's folder. */
  dir: string;
  held: HeldCheck;
  /** An id given while offline as the real id the service gave it since (else as it is). */
  realIdOf?: (id: string) => string;
  log(message: string): void;
}

type PlaceChannels = 'app.lastPlace' | 'app.rememberPlace';

/** Without an account nothing is kept, and no place is given back. */
export function placeHandlers(deps: PlaceHandlerDeps | undefined): HandlerMap<PlaceChannels> {
  if (!deps) return { 'app.lastPlace': () => null, 'app.rememberPlace': () => null };
  const file = join(deps.dir, LAST_PLACE_FILE);
  const realIdOf = deps.realIdOf ?? ((id: string) => id);
  // What this process last wrote to the file (set only on write): a window remembering the same
  // place again (a reload) writes nothing.
  let kept: string | undefined;
  return {
    'app.lastPlace': () => {
      const place = readPlace(file, deps.log);
      if (!place) return null;
      const answer: Place = { kind: place.kind };
      for (const [param, value] of Object.entries(place)) {
        if (param === 'kind') continue;
        const id = isIdParam(param) ? realIdOf(value) : value;
        if (deps.held(param, id) === false) {
          if (!OPTIONAL_PARAMS.has(param)) {
            deps.log(`Last place: ${file} names ${param} ${id}, no longer held; the window opens Home.`);
            return null;
          }
          deps.log(`Last place: ${file} names ${param} ${id}, no longer held; reopened without it.`);
          continue;
        }
        answer[param] = id;
      }
      return answer;
    },
    'app.rememberPlace': async (place) => {
      const text = JSON.stringify(place);
      if (text === kept) return null;
      await writeWhole(file, text);
      kept = text;
      return null;
    },
  };
}

/**
 * Writes a temporary file and renames it over `file`: a crash between the two leaves the earlier
 * place. The rename is tried again a few times when the system holds the file for a moment; the
 * temporary file is removed when it fails for good.
 */
export async function writeWhole(
  file: string,
  text: string,
  rename: (from: string, to: string) => void = renameSync,
): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    for (let attempt = 1; ; attempt++) {
      try {
        rename(temporary, file);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (attempt >= RENAME_ATTEMPTS || code === undefined || !RENAME_RETRY_CODES.has(code)) throw err;
        // A short pause: the holder (a virus scanner, an indexer) lets go within milliseconds.
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
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
