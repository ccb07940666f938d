import {
  existsSync,
  readFileSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeAccountDb, openAccountDb, type AccountDbFiles } from './db';
import { migrate } from './migrate';
import { migrations } from './migrations/index';
import { closedStampOf, openSqlite } from './recovery';

let dir: string;
let files: AccountDbFiles;
const at = new Date('2026-11-26T08:00:00.000Z');
const clock = (): Date => at;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'account-db-'));
  files = { cache: join(dir, 'cache-a.sqlite'), outbox: join(dir, 'outbox-a.sqlite') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Queues `n` open entries (with a chain key and a field claim each) and a task row, in one transaction. */
function queue(db: ReturnType<typeof openAccountDb>['db'], n: number, from = 1): void {
  const entry = db.prepare(
    `INSERT INTO outbox_entries (id, kind, entity_key, payload, state, next_attempt_at, created_at, updated_at)
     VALUES (?, 'task.update', ?, ?, 'pending', 0, 1, 1)`,
  );
  const key = db.prepare('INSERT INTO outbox_entry_keys (key, entry_id) VALUES (?, ?)');
  const claim = db.prepare(
    `INSERT INTO outbox_field_claims (entity, entity_id, field, entry_id, base, value) VALUES ('task', ?, 'name', ?, '"a"', '"b"')`,
  );
  db.transaction(() => {
    for (let id = from; id < from + n; id++) {
      entry.run(id, `task:t${id}`, JSON.stringify({ taskId: `t${id}`, changes: { name: 'x'.repeat(200) } }));
      key.run(`task:t${id}`, id);
      claim.run(`t${id}`, id);
    }
  })();
}

const openCount = (db: ReturnType<typeof openAccountDb>['db']): number =>
  db.prepare(`SELECT count(*) FROM outbox_entries WHERE state <> 'done'`).pluck().get() as number;

/** Overwrites `bytes` bytes of a file at `offset` with a repeated byte. */
function scribble(file: string, offset: number, bytes: number): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, offset);
  closeSync(fd);
}

describe('account database: the outbox in a file of its own', () => {
  it('opens the outbox as main (synchronous FULL) with the cache attached (NORMAL), one transaction over both', () => {
    const { db, notices } = openAccountDb(files, { clock });
    expect(notices).toEqual([]);
    expect(db.pragma('main.synchronous', { simple: true })).toBe(2);
    expect(db.pragma('cache.synchronous', { simple: true })).toBe(1);
    expect(db.pragma('main.journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('cache.journal_mode', { simple: true })).toBe('wal');
    const where = (name: string): string[] =>
      ['main', 'cache'].filter(
        (s) => db.prepare(`SELECT count(*) FROM ${s}.sqlite_schema WHERE name = ?`).pluck().get(name) === 1,
      );
    expect(where('outbox_entries')).toEqual(['main']);
    expect(where('outbox_conflicts')).toEqual(['main']);
    expect(where('tasks')).toEqual(['cache']);
    // A failing statement rolls back both files' writes.
    expect(() =>
      db.transaction(() => {
        db.prepare(`INSERT INTO sync_state (key, value, fetched_at) VALUES ('k', 'v', 1)`).run();
        queue(db, 1);
        throw new Error('boom');
      })(),
    ).toThrow('boom');
    expect(openCount(db)).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM sync_state WHERE key = 'k'`).pluck().get()).toBe(0);
    queue(db, 2);
    db.close();
    // The cache can be thrown away: the entries are in the other file.
    rmSync(files.cache);
    const again = openAccountDb(files, { clock });
    expect(openCount(again.db)).toBe(2);
    again.db.close();
  });

  it('moves the pending entries of a cache written before 007 into the outbox file, keeping a copy first', () => {
    const legacy = openSqlite(files.cache);
    legacy.pragma('journal_mode = WAL');
    legacy.pragma('foreign_keys = ON');
    migrate(legacy, migrations.slice(0, 6));
    queue(legacy as never, 3);
    legacy.exec(`
      INSERT INTO outbox_id_map (temp_id, real_id, mapped_at) VALUES ('local-1', 'R1', 5);
      INSERT INTO outbox_conflicts (entity, entity_id, field, local_value, remote_value, detected_at)
      VALUES ('task', 't1', 'name', '"mine"', '"theirs"', 9);
    `);
    legacy.close();

    const { db, notices } = openAccountDb(files, { clock });
    expect(notices).toEqual([]);
    expect(openCount(db)).toBe(3);
    expect(db.prepare('SELECT count(*) FROM main.outbox_entry_keys').pluck().get()).toBe(3);
    expect(db.prepare('SELECT count(*) FROM main.outbox_field_claims').pluck().get()).toBe(3);
    expect(db.prepare('SELECT real_id FROM main.outbox_id_map').pluck().all()).toEqual(['R1']);
    expect(db.prepare('SELECT remote_value FROM main.outbox_conflicts').pluck().all()).toEqual(['"theirs"']);
    expect(
      db.prepare(`SELECT count(*) FROM cache.sqlite_schema WHERE name LIKE 'outbox_%'`).pluck().get(),
    ).toBe(0);
    expect(db.prepare('PRAGMA cache.user_version').pluck().get()).toBe(migrations.length);
    db.close();
    // The copy taken before the migration still holds them.
    const copy = openSqlite(`${files.cache}.before-v${migrations.length}`, { readonly: true });
    expect(copy.prepare('SELECT count(*) FROM outbox_entries').pluck().get()).toBe(3);
    copy.close();
  });
});

describe('account database: a damaged file is moved aside, the app still opens', () => {
  /** Files with 40 pending entries, closed. */
  function withPending(n = 40): void {
    const { db } = openAccountDb(files, { clock });
    queue(db, n);
    db.prepare(`INSERT INTO sync_state (key, value, fetched_at) VALUES ('k', 'v', 1)`).run();
    db.close();
  }

  const aside = (file: string): string => `${file}.corrupt-2026-11-26T08-00-00-000Z`;

  it.each([
    ['overwritten with garbage', () => writeFileSync(files.cache, Buffer.alloc(64 * 1024, 0x5a))],
    ['with a damaged page', () => scribble(files.cache, 4096 * 2, 4096 * 3)],
  ])('a cache %s: a fresh cache, every pending entry kept, the user told', (_what, damage) => {
    withPending();
    damage();
    const { db, notices } = openAccountDb(files, { clock });
    expect(openCount(db)).toBe(40);
    expect(db.prepare(`SELECT count(*) FROM sync_state WHERE key = 'k'`).pluck().get()).toBe(0);
    expect(notices).toEqual([
      expect.objectContaining({
        level: 'warning',
        title: 'The local cache was damaged',
        file: aside(files.cache),
        message: expect.stringContaining('40 unsent changes are kept'),
      }),
    ]);
    // The cache never held the changes: nothing is said lost.
    expect(notices[0]!.message).not.toMatch(/lost/);
    expect(existsSync(aside(files.cache))).toBe(true);
    db.close();
  });

  it('a cache emptied to zero bytes: made again, pending entries kept, the user told', () => {
    withPending(2);
    truncateSync(files.cache, 0);
    const { db, notices } = openAccountDb(files, { clock });
    expect(openCount(db)).toBe(2);
    expect(notices).toEqual([expect.objectContaining({ title: 'The local cache was emptied' })]);
    db.close();
  });

  it('a deleted cache whose write-ahead log was left behind opens as a new cache', () => {
    withPending(2);
    // A log of another database file would be replayed into the new one.
    writeFileSync(`${files.cache}-wal`, Buffer.alloc(8192, 0x11));
    rmSync(files.cache);
    const { db, notices } = openAccountDb(files, { clock });
    expect(notices).toEqual([]);
    expect(openCount(db)).toBe(2);
    expect(db.prepare('PRAGMA cache.quick_check').pluck().get()).toBe('ok');
    db.close();
  });

  it('an outbox with a damaged page: what can be read is saved, the rest named as lost', () => {
    withPending(200);
    // The page that holds entry 100's row, in the middle of the table.
    const offset = readFileSync(files.outbox).indexOf('"taskId":"t100"');
    expect(offset).toBeGreaterThan(0);
    scribble(files.outbox, Math.floor(offset / 4096) * 4096, 4096);
    const { db, notices } = openAccountDb(files, { clock });
    const saved = openCount(db);
    expect(saved).toBeGreaterThan(100);
    expect(saved).toBeLessThan(200);
    expect(notices).toEqual([
      expect.objectContaining({
        level: 'error',
        title: 'The file of unsent changes was damaged',
        file: aside(files.outbox),
        message: expect.stringMatching(new RegExp(`${saved} unsent changes are kept.*could not be read`)),
      }),
    ]);
    // The saved entries are whole: each with its chain key and claim.
    expect(db.prepare('SELECT count(*) FROM outbox_entry_keys').pluck().get()).toBe(saved);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it('an outbox emptied to zero bytes: the loss is told, the app opens', () => {
    withPending(2);
    truncateSync(files.outbox, 0);
    const { db, notices } = openAccountDb(files, { clock });
    expect(openCount(db)).toBe(0);
    expect(notices).toEqual([
      expect.objectContaining({ level: 'error', title: 'The file of unsent changes was emptied or deleted' }),
    ]);
    db.close();
  });

  it('a damaged cache from before 007 gives its pending entries to the new outbox file', () => {
    const legacy = openSqlite(files.cache);
    migrate(legacy, migrations.slice(0, 6));
    queue(legacy as never, 5);
    // Pages of cached data after the outbox's: the damage lands there.
    const row = legacy.prepare('INSERT INTO sync_state (key, value, fetched_at) VALUES (?, ?, 1)');
    legacy.transaction(() => {
      for (let i = 0; i < 3000; i++) row.run(`k${i}`, 'v'.repeat(300));
    })();
    legacy.close();
    const size = statSync(files.cache).size;
    scribble(files.cache, size - 4096 * 8, 4096 * 2);
    const { db, notices } = openAccountDb(files, { clock });
    expect(notices).toEqual([
      expect.objectContaining({
        title: 'The local cache was damaged',
        message: expect.stringContaining('5 unsent changes are kept'),
      }),
    ]);
    expect(readdirSync(dir).some((f) => f.startsWith('cache-a.sqlite.corrupt-'))).toBe(true);
    expect(openCount(db)).toBe(5);
    expect(db.prepare('SELECT count(*) FROM outbox_field_claims').pluck().get()).toBe(5);
    db.close();
  });

  it('drafts live in the outbox file: copied from the cache file once, kept when the cache is rebuilt', () => {
    // A cache and an outbox as the build before drafts moved left them (outbox file version 3,
    // the cache with its drafts table, at version 14): the outbox file copies the drafts before
    // the cache's step 15 drops the table.
    const { db } = openAccountDb(files, { clock });
    db.exec(
      `CREATE TABLE cache.drafts (key TEXT PRIMARY KEY, text TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT`,
    );
    db.exec(`INSERT INTO cache.drafts (key, text, updated_at) VALUES ('message:t1', 'Typed before', 5)`);
    db.pragma('cache.user_version = 14');
    db.exec('DROP TABLE main.outbox_drafts');
    db.pragma('main.user_version = 3');
    db.close();
    const upgraded = openAccountDb(files, { clock });
    expect(upgraded.db.prepare('SELECT key, text FROM main.outbox_drafts').all()).toEqual([
      { key: 'message:t1', text: 'Typed before' },
    ]);
    const cacheTables = upgraded.db.prepare(`SELECT name FROM cache.sqlite_schema WHERE type = 'table'`);
    expect(cacheTables.pluck().all()).not.toContain('drafts');
    upgraded.db.exec(`INSERT INTO outbox_drafts (key, text, updated_at) VALUES ('new-task', '{}', 6)`);
    upgraded.db.close();
    // The cache file is thrown away (damaged, emptied): the drafts are in the other file.
    rmSync(files.cache);
    const rebuilt = openAccountDb(files, { clock });
    expect(rebuilt.db.prepare('SELECT key FROM outbox_drafts ORDER BY key').pluck().all()).toEqual([
      'message:t1',
      'new-task',
    ]);
    rebuilt.db.close();
  });
});

describe('account database: a cache closed clean is not checked page by page at open', () => {
  function closedClean(): void {
    const { db } = openAccountDb(files, { clock });
    queue(db, 3);
    db.prepare(`INSERT INTO sync_state (key, value, fetched_at) VALUES ('k', 'v', 1)`).run();
    closeAccountDb(db);
  }

  it('closing stamps the cache file; the next open takes the stamp and finds everything', () => {
    closedClean();
    expect(existsSync(closedStampOf(files.cache))).toBe(true);
    expect(existsSync(closedStampOf(files.outbox))).toBe(false);
    const { db, notices } = openAccountDb(files, { clock });
    // Good for one open: a crash while the file is open leaves no stamp behind.
    expect(existsSync(closedStampOf(files.cache))).toBe(false);
    expect(notices).toEqual([]);
    expect(openCount(db)).toBe(3);
    expect(db.prepare(`SELECT value FROM sync_state WHERE key = 'k'`).pluck().get()).toBe('v');
    closeAccountDb(db);
    expect(existsSync(closedStampOf(files.cache))).toBe(true);
    expect(() => closeAccountDb(db)).not.toThrow();
  });

  it('a page damaged right after the close (same size, same moment) is found and the cache made again', () => {
    closedClean();
    const size = statSync(files.cache).size;
    scribble(files.cache, 4096 * 2, 4096 * 3);
    expect(statSync(files.cache).size).toBe(size);
    const { db, notices } = openAccountDb(files, { clock });
    expect(notices).toEqual([expect.objectContaining({ title: 'The local cache was damaged' })]);
    expect(openCount(db)).toBe(3);
    db.close();
  });

  it('only the stamp is trusted: a damage whose file times were put back is not looked for', () => {
    closedClean();
    const { atime, mtime } = statSync(files.cache);
    scribble(files.cache, 4096 * 2, 4096 * 3);
    utimesSync(files.cache, atime, mtime);
    // The header still reads; the pages are not read at open (they were, before the stamp).
    const { db, notices } = openAccountDb(files, { clock });
    expect(notices).toEqual([]);
    expect(openCount(db)).toBe(3);
    db.close();
  });

  it('a stamp beside a file replaced since is not trusted', () => {
    closedClean();
    writeFileSync(files.cache, Buffer.alloc(64 * 1024, 0x5a));
    expect(openAccountDb(files, { clock }).notices).toEqual([
      expect.objectContaining({ title: 'The local cache was damaged' }),
    ]);
  });
});
