import Database from 'better-sqlite3';
import {
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileIdentity } from './file-identity';

/** A better-sqlite3 connection, loaded from the binding the shell names (see `openSqlite`). */
export type SqliteDb = Database.Database;

/**
 * Opens a SQLite file with the better-sqlite3 build for this runtime. The Electron shell of an
 * unpackaged run (npm start) points `WORKDESK_SQLITE_NATIVE_BINDING` at a build for Electron's
 * ABI; unset, the Node build the tests use is loaded.
 */
export function openSqlite(file: string, options: Database.Options = {}): SqliteDb {
  const nativeBinding = process.env['WORKDESK_SQLITE_NATIVE_BINDING'];
  return new Database(file, { ...options, ...(nativeBinding ? { nativeBinding } : {}) });
}

/** What a database file looked like before it was opened for use. */
export type FileHealth =
  | { state: 'missing' }
  /** Zero bytes: emptied by a crash or a tool (a new file is never left empty: see below). */
  | { state: 'empty' }
  | { state: 'ok'; version: number }
  | { state: 'corrupt'; reason: string };

/** SQLite's result codes for a file that is not (or no longer) a readable database. */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/**
 * Checks a database file with `PRAGMA quick_check` (every page and index readable, in O(size)),
 * without changing it. A file SQLite refuses to read (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) is
 * corrupt; any other failure (permissions, a locked file) is thrown: moving such a file aside
 * would not help. With `closedClean` (the file is as this app left it when it closed it, see
 * `takeClosedStamp`) the page-by-page check is skipped and only the header is read: on a
 * 20,000-task cache that check was a tenth of the start-up.
 */
export function inspectDb(file: string, { closedClean = false } = {}): FileHealth {
  if (!existsSync(file)) return { state: 'missing' };
  if (statSync(file).size === 0) return { state: 'empty' };
  let db: SqliteDb | undefined;
  try {
    db = openSqlite(file, { fileMustExist: true });
    const rows = closedClean ? [] : (db.pragma('quick_check') as { quick_check: string }[]);
    const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    if (problems.length) return { state: 'corrupt', reason: problems.slice(0, 3).join('; ') };
    return { state: 'ok', version: db.pragma('user_version', { simple: true }) as number };
  } catch (err) {
    if (isCorruption(err)) return { state: 'corrupt', reason: (err as Error).message };
    throw err;
  } finally {
    db?.close();
  }
}

/** Where the stamp of a file this app closed cleanly is kept: beside it. */
export const closedStampOf = (file: string): string => `${file}.closed`;

/**
 * Called once the last connection to `file` is closed (SQLite has then written its log into it
 * and removed the log): sets its modification time one second back and records the file's
 * identity beside it. Any later write, by SQLite or anything else, sets the modification time
 * to the present, which cannot equal the time set here: the file no longer matches its stamp.
 * (Matching the time the close wrote would not do: file times move in ticks of several
 * milliseconds, so a write within the same tick would go unseen.) A file with a log still
 * beside it is not stamped.
 */
export function stampClosed(file: string): void {
  if (!existsSync(file) || existsSync(`${file}-wal`)) return;
  const past = new Date(Date.now() - 1000);
  utimesSync(file, past, past);
  writeFileSync(closedStampOf(file), fileIdentity(file));
}

/**
 * Takes the stamp `stampClosed` left (it serves one open only: a crash while the file is open
 * leaves none): true when the file is exactly as it was closed, with no log beside it.
 */
export function takeClosedStamp(file: string): boolean {
  const stamp = closedStampOf(file);
  let recorded: string;
  try {
    recorded = readFileSync(stamp, 'utf8');
  } catch {
    return false;
  }
  rmSync(stamp, { force: true });
  if (!existsSync(file) || existsSync(`${file}-wal`)) return false;
  return fileIdentity(file) === recorded;
}

/** A moment as a file-name part: `2026-11-26T07-45-12-345Z`. */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

const COMPANIONS = ['', '-wal', '-shm'] as const;

/**
 * Moves a database file and its write-ahead log aside as `<file>.corrupt-<time>` (the log and
 * shared-memory files keep their suffix after it, so SQLite still finds them when the copy is
 * opened for salvage). A log left behind would be replayed into the new file.
 */
export function moveAside(file: string, at: Date): string {
  const target = `${file}.corrupt-${fileStamp(at)}`;
  for (const suffix of COMPANIONS) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  return target;
}

/** Removes a write-ahead log whose database file is gone (it would be replayed into a new one). */
export function dropOrphanLog(file: string): boolean {
  if (existsSync(file) || !existsSync(`${file}-wal`)) return false;
  for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
  return true;
}

export type Row = Record<string, unknown>;

/** What could be read of some tables of a damaged file. */
export interface Salvaged {
  rows: Map<string, Row[]>;
  /** Tables some of whose rows could not be read. */
  incomplete: string[];
}

/**
 * Reads what it can of `tables` from a damaged file, each table in its key order and, when a
 * damaged page stops the read, again from the other end: the rows either side of the damage.
 * A table that does not exist in the file is skipped.
 */
export function salvageTables(file: string, tables: Readonly<Record<string, string>>): Salvaged {
  const result: Salvaged = { rows: new Map(), incomplete: [] };
  let db: SqliteDb;
  try {
    db = openSqlite(file, { fileMustExist: true, readonly: true });
  } catch {
    return { rows: result.rows, incomplete: Object.keys(tables) };
  }
  try {
    for (const [table, orderBy] of Object.entries(tables)) {
      const found = new Map<string, Row>();
      let complete = false;
      let exists = true;
      for (const direction of ['ASC', 'DESC']) {
        const order = orderBy
          .split(',')
          .map((c) => `${c.trim()} ${direction}`)
          .join(', ');
        try {
          for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).iterate() as Iterable<Row>)
            found.set(JSON.stringify(row), row);
          complete = direction === 'ASC';
          break;
        } catch (err) {
          if (/no such table/.test(String(err))) {
            exists = false;
            break;
          }
        }
      }
      if (!exists) continue;
      if (!complete) result.incomplete.push(table);
      result.rows.set(table, [...found.values()]);
    }
  } finally {
    db.close();
  }
  return result;
}

/**
 * Writes salvaged rows into `schema`'s tables of `db` (already migrated), taking only the
 * columns both sides have, and only rows whose parent entry made it (`parentOf`: a foreign key
 * that does not hold is not skipped by `OR IGNORE`). Rows already there are kept.
 */
export function insertSalvaged(
  db: SqliteDb,
  salvaged: Salvaged,
  order: readonly string[],
  options: { schema?: string; parentKey?: Readonly<Record<string, string>>; parentTable?: string } = {},
): Map<string, number> {
  const schema = options.schema ?? 'main';
  const inserted = new Map<string, number>();
  db.transaction(() => {
    for (const table of order) {
      const rows = salvaged.rows.get(table);
      if (!rows?.length) continue;
      const columns = new Set(
        db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).pluck().all(table, schema) as string[],
      );
      const parentColumn = options.parentKey?.[table];
      const parents =
        parentColumn && options.parentTable
          ? new Set(db.prepare(`SELECT id FROM ${schema}.${options.parentTable}`).pluck().all() as unknown[])
          : undefined;
      let n = 0;
      for (const row of rows) {
        if (parents && parentColumn && !parents.has(row[parentColumn])) continue;
        const names = Object.keys(row).filter((c) => columns.has(c));
        const statement = db.prepare(
          `INSERT OR IGNORE INTO ${schema}.${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        );
        n += statement.run(...names.map((c) => row[c])).changes;
      }
      inserted.set(table, n);
    }
  })();
  return inserted;
}

/**
 * Copies a database to `<file>.before-v<version>` before a migration to `version` runs (a
 * consistent copy, by `VACUUM INTO`), and removes older such copies of the same file: the last
 * version that opened is enough to go back to.
 */
export function backupBeforeMigration(db: SqliteDb, file: string, version: number): string {
  const target = `${file}.before-v${version}`;
  const dir = dirname(file);
  const prefix = `${basename(file)}.before-v`;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix)) rmSync(join(dir, name), { force: true });
  }
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}
