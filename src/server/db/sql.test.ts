import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { descendantsSql, insertSql, updateSql, upsertSql } from './sql';

const COLUMNS = ['id', 'parent_id', 'name', 'size'] as const;

function table() {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE items (id TEXT PRIMARY KEY, parent_id TEXT, name TEXT NOT NULL, size INTEGER) STRICT',
  );
  return db;
}

const all = (db: Database.Database) => db.prepare('SELECT * FROM items ORDER BY id').all();

describe("a store's row statements, built from its column list", () => {
  it('insert writes every column; a second insert of an id is refused', () => {
    const db = table();
    const insert = db.prepare(insertSql('items', COLUMNS));
    insert.run({ id: 'a', parent_id: null, name: 'A', size: 1 });
    expect(all(db)).toEqual([{ id: 'a', parent_id: null, name: 'A', size: 1 }]);
    expect(() => insert.run({ id: 'a', parent_id: null, name: 'again', size: 2 })).toThrow(/UNIQUE/);
  });

  it('update sets every column but the id of the row named by @id, and no other row', () => {
    const db = table();
    const insert = db.prepare(insertSql('items', COLUMNS));
    insert.run({ id: 'a', parent_id: null, name: 'A', size: 1 });
    insert.run({ id: 'b', parent_id: null, name: 'B', size: 2 });
    expect(updateSql('items', COLUMNS)).not.toMatch(/SET id =|, id =/);
    db.prepare(updateSql('items', COLUMNS)).run({ id: 'a', parent_id: 'b', name: 'A2', size: null });
    expect(all(db)).toEqual([
      { id: 'a', parent_id: 'b', name: 'A2', size: null },
      { id: 'b', parent_id: null, name: 'B', size: 2 },
    ]);
  });

  it('upsert inserts a new row and rewrites a stored one in place', () => {
    const db = table();
    const upsert = db.prepare(upsertSql('items', COLUMNS));
    upsert.run({ id: 'a', parent_id: null, name: 'A', size: 1 });
    const rowid = db.prepare("SELECT rowid FROM items WHERE id = 'a'").pluck().get();
    upsert.run({ id: 'a', parent_id: null, name: 'A2', size: 3 });
    expect(all(db)).toEqual([{ id: 'a', parent_id: null, name: 'A2', size: 3 }]);
    expect(db.prepare("SELECT rowid FROM items WHERE id = 'a'").pluck().get()).toBe(rowid);
  });

  it('descendants lists every row below one at any depth, not the row itself nor its siblings', () => {
    const db = table();
    const insert = db.prepare(insertSql('items', COLUMNS));
    for (const [id, parent] of [
      ['root', null],
      ['child', 'root'],
      ['grandchild', 'child'],
      ['sibling', null],
    ] as const)
      insert.run({ id, parent_id: parent, name: id, size: null });
    const below = db.prepare<[string], string>(descendantsSql('items', 'parent_id')).pluck();
    expect(below.all('root').sort()).toEqual(['child', 'grandchild']);
    expect(below.all('grandchild')).toEqual([]);
  });
});
