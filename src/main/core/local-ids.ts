// A leaf module: the forms of the ids a local change makes (its items' local ids, its local
// rows' ids), which every layer of the core reads; it imports nothing of the core.

/** Local ids of items created offline start with this; real ids never do. */
export const TEMP_ID_PREFIX = 'local-';
const TEMP_ID_PATTERN = /"(local-[A-Za-z0-9-]+)"/g;

export function isTempId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(TEMP_ID_PREFIX);
}

/** Makes a local id from an id source; the characters are kept to [A-Za-z0-9-]. */
export function makeTempId(newId: () => string): string {
  const raw = newId().replace(/[^A-Za-z0-9-]/g, '');
  if (!raw) throw new Error('The id source returned an empty id');
  return TEMP_ID_PREFIX + raw;
}

/**
 * Ids of local rows no request ever refers to (a comment waiting to be sent); they are never
 * mapped, and the next pull replaces the row. Distinct from temp ids so a payload may carry one.
 */
export const LOCAL_ROW_PREFIX = 'draft-';

export function makeLocalRowId(newId: () => string): string {
  return LOCAL_ROW_PREFIX + newId().replace(/[^A-Za-z0-9-]/g, '');
}

/** Every temp id a JSON value mentions. */
export function tempIdsIn(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...new Set([...text.matchAll(TEMP_ID_PATTERN)].map((m) => m[1] as string))];
}
