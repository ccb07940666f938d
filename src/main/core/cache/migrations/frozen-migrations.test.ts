// Migrations are frozen: a database records only the number of the last step it ran, so a step
// that changed after it shipped would leave older and newer installs with different schemas.
// Two checks keep them so: the schema each version leaves is fingerprinted (any edit of a
// shipped step, or of a helper it calls, changes it), and a migration file may import nothing
// editable (only its type, the frozen full-text helper and other migration files).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Migration } from './types';
import { outboxFileMigrations } from '../outbox-schema';
import { migrations } from './index';

/**
 * The schema a list of migrations leaves after each step, as a short hash of every table, index,
 * trigger and view with its SQL text (SQLite keeps the text as written). Tables a virtual table
 * makes for itself (FTS5's shadow tables) are left out: their text is the SQLite build's, not ours.
 */
function fingerprints(list: readonly Migration[]): string[] {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  const shadow = db.prepare(`SELECT name FROM pragma_table_list WHERE type = 'shadow'`).pluck();
  const schema = db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name`);
  return list.map((m) => {
    db.transaction(() => m.up(db))();
    const skip = new Set(shadow.all());
    const rows = (schema.all() as { name: string }[]).filter((r) => !skip.has(r.name));
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);
  });
}

/** The schema each shipped version left. A new migration appends its own line here. */
const CACHE_SCHEMAS = [
  '2dba50ffb3fbb75d', // 1 resources
  '1b80d095a37c2e6c', // 2 search
  '56d10ae9ff841724', // 3 outbox
  '84801ebaebac9c8a', // 4 project templates
  '23adb581c48a838b', // 5 project search
  'be6a37ef4a94883f', // 6 outbox stuck
  '954d9b710f973da5', // 7 outbox in its own file
  '5f9eae411fb5a8aa', // 8 search numbers
  '7e1e906b4f977b29', // 9 inbox read state
  '48158d4a927bff1a', // 10 updates
  '46528c0da38dda0b', // 11 time reports
  'f88e995b0648d1c5', // 12 files and drafts
  'af96620de80511eb', // 13 timer and to-do progress
  'a5d0718f86d922a2', // 14 task fingerprints
  'bbb3ae009839ae88', // 15 drop cache drafts
  '3e385f467d30a68d', // 16 stale messages index
  '50f3df354c804e51', // 17 list answers
  '9e90f9212dd073a3', // 18 due tasks index
  '7d2b7c2019c8a758', // 19 task index later
];

const OUTBOX_SCHEMAS = [
  '1f15b0fbf0b38f63', // 1 outbox (the step of cache migration 003)
  '346cdec980308164', // 2 outbox stuck (the step of cache migration 006)
  '8b5795bab19bfe48', // 3 conflict source
  'dfe4da213d27905f', // 4 drafts in the outbox file
];

describe.each([
  { what: 'cache', list: migrations, shipped: CACHE_SCHEMAS },
  { what: 'outbox file', list: outboxFileMigrations, shipped: OUTBOX_SCHEMAS },
])('$what migrations are frozen', ({ what, list, shipped }) => {
  it('each shipped version leaves the schema it left when it shipped', () => {
    const now = fingerprints(list);
    now.forEach((hash, i) => {
      const m = list[i]!;
      if (i < shipped.length) {
        expect(
          hash,
          `${what} migration ${m.version} (${m.name}) now leaves another schema than it shipped with: ` +
            'never edit a shipped migration or a helper it calls; add a new migration instead',
        ).toBe(shipped[i]);
      } else {
        expect.fail(
          `${what} migration ${m.version} (${m.name}) has no recorded schema: once it is final, ` +
            `append '${hash}', // ${m.version} ${m.name} to the list in this file`,
        );
      }
    });
    expect(now.length, `a recorded ${what} migration is missing from its list`).toBe(shipped.length);
  });
});

/** The import specifiers of a TypeScript file, each with whether it is type-only. */
function importsOf(source: string): { from: string; typeOnly: boolean }[] {
  const found: { from: string; typeOnly: boolean }[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+'([^']+)'/gms)) {
    found.push({ from: match[3]!, typeOnly: match[2] !== undefined });
  }
  return found;
}

const MIGRATION_FILE = /^\d{3}-[a-z0-9-]+\.ts$/;
const dirs = [__dirname, join(__dirname, '..', 'outbox-migrations')];

describe('a migration file imports nothing editable', () => {
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => MIGRATION_FILE.test(name) || name === 'fts.ts')
      .map((name) => ({ dir, name })),
  );

  it('finds the migration files', () => {
    expect(files.filter((f) => f.dir === __dirname && f.name !== 'fts.ts')).toHaveLength(migrations.length);
    // The outbox file's first two steps are the cache's 003 and 006; the later ones have files.
    expect(files.filter((f) => f.dir !== __dirname)).toHaveLength(outboxFileMigrations.length - 2);
  });

  it.each(files.map((f) => [f.name, f] as const))('%s', (_name, { dir, name }) => {
    const source = readFileSync(join(dir, name), 'utf8');
    expect(source, `${name} loads a module at run time`).not.toMatch(/\brequire\(|\bimport\(/);
    for (const { from, typeOnly } of importsOf(source)) {
      const allowed =
        typeOnly ||
        from === './fts' ||
        /^\.\/\d{3}-[a-z0-9-]+$/.test(from) ||
        (dir !== __dirname && /^\.\.\/migrations\/\d{3}-[a-z0-9-]+$/.test(from));
      expect(
        allowed,
        `${name} imports '${from}': a migration holds its own SQL, or calls only frozen helpers ` +
          '(fts.ts, another migration); copy what it needs into it',
      ).toBe(true);
    }
  });
});
