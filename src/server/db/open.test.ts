import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { migrate, openDatabase } from './open';

describe('openDatabase', () => {
  it('applies every migration and records it in user_version; all tables are STRICT', () => {
    const db = openDatabase(':memory:');
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const tables = db
      .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
      .all();
    expect(tables.length).toBeGreaterThan(10);
    for (const t of tables) expect(t.sql, t.name).toMatch(/STRICT/);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('uses WAL with synchronous NORMAL on a file, and reopening migrates nothing twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wms-db-'));
    try {
      const path = join(dir, 'db.sqlite');
      const first = openDatabase(path);
      expect(first.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(first.pragma('synchronous', { simple: true })).toBe(1);
      first.prepare("INSERT INTO meta (key, value) VALUES ('k', 'v')").run();
      first.close();
      const second = openDatabase(path);
      expect(second.prepare("SELECT value FROM meta WHERE key = 'k'").pluck().get()).toBe('v');
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a database written by a newer server', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${migrations.length + 1}`);
    expect(() => migrate(db)).toThrow(/newer/);
  });

  it('rolls a failing migration back whole', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE users (id TEXT) STRICT');
    expect(() => migrate(db)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'tasks'").pluck().get()).toBe(0);
  });
});
