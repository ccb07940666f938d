import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataNotice } from '../../../shared/ipc/app';
import { runMigrations } from '../../../server/db/migrate';
import { DRAFTS_MOVED_OUTBOX_VERSION, OUTBOX_TABLES, outboxFileMigrations } from './outbox-schema';
import { migrate } from './migrate';
import { migrations, OUTBOX_MOVED_VERSION } from './migrations/index';
import {
  backupBeforeMigration,
  dropOrphanLog,
  inspectDb,
  insertSalvaged,
  moveAside,
  openSqlite,
  salvageTables,
  stampClosed,
  takeClosedStamp,
  type FileHealth,
  type Salvaged,
  type SqliteDb,
} from './recovery';

export type CacheDb = SqliteDb;

/** The two files of one account: what can be pulled again, and what only this machine holds. */
export interface AccountDbFiles {
  /** Everything read from the service: thrown away and pulled again when damaged. */
  cache: string;
  /** Changes not yet acknowledged, their conflicts and local ids: the truth. */
  outbox: string;
}

export interface AccountDbOptions {
  clock?: () => Date;
  log?: (message: string) => void;
}

export interface OpenedAccountDb {
  db: CacheDb;
  /** What was found damaged and done about it, for the user (`app.notices`). */
  notices: DataNotice[];
}

/** Key order of each outbox table, for reading a damaged file from both ends. */
const OUTBOX_ORDER: Record<(typeof OUTBOX_TABLES)[number], string> = {
  outbox_entries: 'id',
  outbox_entry_keys: 'entry_id, key',
  outbox_id_map: 'temp_id',
  outbox_field_claims: 'entry_id, entity, entity_id, field',
  outbox_conflicts: 'id',
  outbox_drafts: 'key',
};

/**
 * SQLite's own page cache per file, in KiB. It is memory of the core's process, kept while the
 * account is open, and it repeats what the operating system already caches of the file (a page
 * SQLite does not hold is read back from there, not from the disk). The outbox file is small;
 * the cache file of a 20,000-task workspace is about 60 MB, of which a pull or a view reads a
 * part at a time.
 */
const PAGE_CACHE_KIB = { outbox: 2_000, cache: 8_000 } as const;

function setPragmas(db: SqliteDb, schema: string, synchronous: 'FULL' | 'NORMAL'): void {
  db.pragma(`${schema}.journal_mode = WAL`);
  db.pragma(`${schema}.synchronous = ${synchronous}`);
  // The outbox is written FULL, the cache NORMAL (see `openAccountDb`).
  db.pragma(
    `${schema}.cache_size = -${synchronous === 'FULL' ? PAGE_CACHE_KIB.outbox : PAGE_CACHE_KIB.cache}`,
  );
}

/**
 * In-memory account database for tests and benchmarks: the cache's and the outbox's tables in
 * one database. A file name opens both files of `openAccountDb`, the outbox beside the cache.
 */
export function openCacheDb(file: string): CacheDb {
  if (file !== ':memory:') {
    return openAccountDb({ cache: file, outbox: file.replace(/(\.sqlite)?$/, '.outbox.sqlite') }).db;
  }
  const db = openSqlite(':memory:');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  migrate(db, migrations);
  db.transaction(() => {
    for (const step of outboxFileMigrations) step.up(db);
  })();
  return db;
}

/**
 * Opens one account's database: the outbox file as `main`, the cache file attached as `cache`.
 * Every statement names tables without a schema, so the same code serves both layouts.
 *
 * Why two files: the cache can always be rebuilt by a pull, what the user has not sent cannot.
 * A damaged or emptied cache is moved aside and made again while the pending entries stay.
 *
 * What a transaction over both relies on (rule 1). In WAL mode SQLite commits each attached
 * file on its own, in the order of the connection's databases: `main` first, then `cache`
 * (sqlite3VdbeHalt → vdbeCommit's simple case; no super-journal is written in WAL mode). So a
 * crash between the two commits leaves the outbox's half and not the cache's: an entry whose
 * optimistic change is not in the cache. That is safe: the entry is still sent once (an
 * in-flight create is looked up first, rule 6), and the acknowledged answer and the next pull
 * bring the cache up. The reverse, a cache change with no entry, would be a change shown and
 * never sent: the order rules it out. The outbox is written with `synchronous=FULL` (its log is
 * synced at every commit, so a power cut keeps it), the cache with `NORMAL`; the outbox's own
 * writes that a power cut may lose harmlessly commit at `NORMAL` one by one (the outbox's
 * README, "Rule 6 on the disk").
 *
 * On open, each file is checked (`PRAGMA quick_check`; the cache file not when it is as
 * `closeAccountDb` left it); one that fails, or that SQLite refuses
 * (`SQLITE_CORRUPT`, `SQLITE_NOTADB`), is moved aside as `<file>.corrupt-<time>`, what can be
 * read of the outbox's tables is copied into a new file, and a notice says what happened. Before
 * a migration runs, the file is copied to `<file>.before-v<version>`. Caches written before the
 * outbox had its own file (cache version < 7) have their outbox rows copied out, and committed
 * there, before cache migration 007 drops them.
 */
export function openAccountDb(files: AccountDbFiles, options: AccountDbOptions = {}): OpenedAccountDb {
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? (() => {});
  const notices: DataNotice[] = [];
  const notice = (n: Omit<DataNotice, 'id'>): void => {
    notices.push({ id: `${files.outbox}#${notices.length}@${clock().getTime()}`, ...n });
    log(`storage: ${n.title}: ${n.message}`);
  };
  mkdirSync(dirname(files.cache), { recursive: true });
  mkdirSync(dirname(files.outbox), { recursive: true });

  // Taken before anything opens the file: a stamp serves one open.
  const cacheClosedClean = takeClosedStamp(files.cache);
  // A log whose database file was deleted would be replayed into the new file.
  dropOrphanLog(files.outbox);
  dropOrphanLog(files.cache);
  const outboxHealth = inspectDb(files.outbox);
  // The cache as this app closed it is not read page by page again (see `closeAccountDb`); the
  // outbox, small and the only copy of what was not sent, always is.
  const cacheHealth = inspectDb(files.cache, { closedClean: cacheClosedClean });
  const salvaged: Salvaged[] = [];
  let outboxMovedTo: string | null = null;
  let outboxSalvage: Salvaged | null = null;
  if (outboxHealth.state === 'corrupt' || outboxHealth.state === 'empty') {
    outboxMovedTo = moveAside(files.outbox, clock());
    if (outboxHealth.state === 'corrupt') {
      outboxSalvage = salvageTables(outboxMovedTo, OUTBOX_ORDER);
      salvaged.push(outboxSalvage);
    }
  }
  let cacheMovedTo: string | null = null;
  let legacySalvage: Salvaged | null = null;
  if (cacheHealth.state === 'corrupt' || cacheHealth.state === 'empty') {
    cacheMovedTo = moveAside(files.cache, clock());
    // A cache from before the outbox had its own file still holds the pending entries: there is
    // no outbox file yet. Beside an outbox file the cache never held any.
    if (cacheHealth.state === 'corrupt' && outboxHealth.state === 'missing') {
      legacySalvage = salvageTables(cacheMovedTo, OUTBOX_ORDER);
      if (legacySalvage.rows.size) salvaged.push(legacySalvage);
    }
  }

  const outbox = openSqlite(files.outbox);
  try {
    setPragmas(outbox, 'main', 'FULL');
    outbox.pragma('foreign_keys = ON');
    // Drafts move into this file (outbox migration 4): the cache file, when sound, is attached
    // while that step runs so it copies the drafts typed before.
    const takesDrafts =
      (outbox.pragma('user_version', { simple: true }) as number) < DRAFTS_MOVED_OUTBOX_VERSION &&
      cacheHealth.state === 'ok';
    if (takesDrafts) outbox.prepare('ATTACH DATABASE ? AS cache').run(files.cache);
    try {
      migrateWithBackup(outbox, files.outbox, outboxFileMigrations.length, () =>
        runMigrations(outbox, outboxFileMigrations, 'Outbox database'),
      );
    } finally {
      if (takesDrafts) outbox.exec('DETACH DATABASE cache');
    }
    for (const s of salvaged) {
      insertSalvaged(outbox, s, OUTBOX_TABLES, {
        parentTable: 'outbox_entries',
        parentKey: { outbox_entry_keys: 'entry_id', outbox_field_claims: 'entry_id' },
      });
    }
  } finally {
    outbox.close();
  }

  const cache = openSqlite(files.cache);
  let moved = 0;
  try {
    setPragmas(cache, 'main', 'NORMAL');
    cache.pragma('foreign_keys = ON');
    migrateWithBackup(cache, files.cache, migrations.length, () => {
      const version = cache.pragma('user_version', { simple: true }) as number;
      if (version > 0 && version < OUTBOX_MOVED_VERSION) {
        migrate(cache, migrations.slice(0, OUTBOX_MOVED_VERSION - 1));
        moved = copyOutboxOut(cache, files.outbox);
      }
      return migrate(cache, migrations);
    });
  } finally {
    cache.close();
  }
  if (moved) log(`storage: moved ${moved} unsent change(s) from the cache into ${files.outbox}`);

  const db = openSqlite(files.outbox);
  setPragmas(db, 'main', 'FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  db.prepare('ATTACH DATABASE ? AS cache').run(files.cache);
  setPragmas(db, 'cache', 'NORMAL');

  const open = db
    .prepare(`SELECT count(*) FROM outbox_entries WHERE state <> 'done'`)
    .pluck()
    .get() as number;
  const kept = `${open} unsent change${open === 1 ? ' is' : 's are'} kept and will be sent`;
  if (outboxHealth.state === 'corrupt') {
    const partial = outboxSalvage?.incomplete.length ? ' Some of them could not be read and are lost.' : '';
    notice({
      level: 'error',
      title: 'The file of unsent changes was damaged',
      message: `It was moved aside and a new one made with what could be read: ${kept}.${partial} The old file is kept at ${outboxMovedTo}.`,
      file: outboxMovedTo,
    });
  } else if (
    outboxHealth.state === 'empty' ||
    (outboxHealth.state === 'missing' &&
      cacheHealth.state === 'ok' &&
      cacheHealth.version >= OUTBOX_MOVED_VERSION)
  ) {
    notice({
      level: 'error',
      title: 'The file of unsent changes was emptied or deleted',
      message: `Changes made here that had not reached the service yet could not be recovered; the workspace is read again from the service.${outboxMovedTo ? ` The emptied file is kept at ${outboxMovedTo}.` : ''}`,
      file: outboxMovedTo,
    });
  }
  if (cacheHealth.state === 'corrupt' || cacheHealth.state === 'empty') {
    notice({
      level: 'warning',
      title: cacheHealth.state === 'empty' ? 'The local cache was emptied' : 'The local cache was damaged',
      message: `It was moved aside and is being read again from the service; ${kept}.${legacySalvage?.incomplete.length ? ' Some changes stored in it could not be read and are lost.' : ''} The old file is kept at ${cacheMovedTo}.`,
      file: cacheMovedTo,
    });
  }
  return { db, notices };
}

/**
 * Closes a database `openAccountDb` opened and stamps its cache file as closed clean
 * (`stampClosed`), so the next open skips that file's page-by-page check. A file changed after
 * (by anything), a crash while open, or a log left beside it means the next open checks it.
 */
export function closeAccountDb(db: CacheDb): void {
  // Closing twice is harmless, as `db.close()` is.
  if (!db.open) return;
  const cacheFile = (db.pragma('database_list') as { name: string; file: string }[]).find(
    (d) => d.name === 'cache',
  )?.file;
  db.close();
  if (cacheFile) stampClosed(cacheFile);
}

/** Runs `run` (the migrations), first copying the file when it is behind `target`. */
function migrateWithBackup(db: SqliteDb, file: string, target: number, run: () => number): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > 0 && version < target) backupBeforeMigration(db, file, target);
  run();
}

/**
 * Copies the outbox tables of a cache written before the outbox had its own file into that file,
 * in one transaction of the outbox file alone (committed before the cache drops them). Rows
 * keep their ids and go in with `OR IGNORE`, so a copy interrupted before the drop is repeated
 * harmlessly. Answers the number of open entries copied.
 */
function copyOutboxOut(cache: SqliteDb, outboxFile: string): number {
  const has = cache
    .prepare(`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'outbox_entries'`)
    .pluck()
    .get();
  if (!has) return 0;
  cache.prepare('ATTACH DATABASE ? AS moving').run(outboxFile);
  try {
    cache.pragma('moving.synchronous = FULL');
    cache.transaction(() => {
      for (const table of OUTBOX_TABLES) {
        const columns = (
          cache.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).pluck().all(table) as string[]
        ).join(', ');
        // A table the outbox gained after it left the cache file (drafts) is not there.
        if (!columns) continue;
        cache.exec(`INSERT OR IGNORE INTO moving.${table} (${columns}) SELECT ${columns} FROM main.${table}`);
      }
    })();
    return cache
      .prepare(`SELECT count(*) FROM main.outbox_entries WHERE state <> 'done'`)
      .pluck()
      .get() as number;
  } finally {
    cache.exec('DETACH DATABASE moving');
  }
}

export type { FileHealth };
