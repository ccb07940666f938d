import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox, type SubmitResult } from './outbox';
import { EntryStore } from './store';
import {
  FakeService,
  ManualClock,
  ManualTimers,
  fakeClassifier,
  noteKinds,
  openTestDb,
  remapNotes,
} from './testing';
import type { Db } from './types';

const FULL = 2;
const NORMAL = 1;

/** The entry a change was stored as (none of these changes is a no-op). */
function queued(result: SubmitResult): number {
  if (result.entryId === undefined) throw new Error('the change was a no-op');
  return result.entryId;
}

const level = (db: Db): number => db.pragma('main.synchronous', { simple: true }) as number;

/**
 * Records, for every entry stored or moved to another state, the `synchronous` level its write
 * committed with (a temporary trigger reads the setting as the statement runs).
 */
function recordLevels(db: Db): () => { id: number; state: string; level: number }[] {
  db.exec(`
    CREATE TEMP TABLE written (id INTEGER, state TEXT, level INTEGER);
    CREATE TEMP TRIGGER written_insert AFTER INSERT ON main.outbox_entries BEGIN
      INSERT INTO written SELECT new.id, new.state, synchronous FROM pragma_synchronous;
    END;
    CREATE TEMP TRIGGER written_state AFTER UPDATE OF state ON main.outbox_entries
      WHEN new.state IS NOT old.state BEGIN
      INSERT INTO written SELECT new.id, new.state, synchronous FROM pragma_synchronous;
    END;`);
  const read = db.prepare('SELECT id, state, level FROM written ORDER BY rowid');
  return () => read.all() as { id: number; state: string; level: number }[];
}

describe('EntryStore.unsynced: one write without waiting for the disk', () => {
  it('commits at NORMAL and puts the file setting back, also when the write throws', () => {
    const db = openTestDb();
    db.pragma('synchronous = FULL');
    const store = new EntryStore(db);
    expect(store.unsynced(() => level(db))).toBe(NORMAL);
    expect(level(db)).toBe(FULL);
    expect(() =>
      store.unsynced(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(level(db)).toBe(FULL);
    db.pragma('synchronous = EXTRA');
    expect(store.unsynced(() => level(db))).toBe(NORMAL);
    expect(level(db)).toBe(3);
  });

  it('inside a transaction leaves the setting to that transaction, and never raises a lower one', () => {
    const db = openTestDb();
    db.pragma('synchronous = FULL');
    const store = new EntryStore(db);
    expect(db.transaction(() => store.unsynced(() => level(db)))()).toBe(FULL);
    db.pragma('synchronous = OFF');
    expect(store.unsynced(() => level(db))).toBe(0);
    expect(level(db)).toBe(0);
  });

  // What the rule rests on: a NORMAL commit in WAL mode is in the operating system's hands once
  // the statement returns, so a killed process keeps it.
  describe('a process killed right after an unsynced commit', () => {
    let dir = '';
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('keeps the commit', () => {
      dir = mkdtempSync(join(tmpdir(), 'unsynced-'));
      const file = join(dir, 'outbox.sqlite');
      const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
      const script = `
        const Database = require(${JSON.stringify(sqlite)});
        const db = new Database(${JSON.stringify(file)});
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = FULL');
        db.exec('CREATE TABLE t (v INTEGER)');
        db.pragma('synchronous = NORMAL');
        db.prepare('INSERT INTO t VALUES (42)').run();
        process.kill(process.pid, 'SIGKILL');`;
      const child = spawnSync(process.execPath, ['-e', script]);
      expect(child.signal).toBe('SIGKILL');
      const db = new Database(file);
      expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual([42]);
      db.close();
    });
  });
});

describe('Outbox: which writes wait for the disk (rule 6 on the disk)', () => {
  function rig() {
    const db = openTestDb();
    db.pragma('synchronous = FULL');
    const clock = new ManualClock();
    const service = new FakeService(clock);
    const outbox = new Outbox({
      db,
      client: service,
      kinds: noteKinds(db),
      classify: fakeClassifier,
      clock,
      timers: new ManualTimers(clock),
      random: () => 0.5,
      remapCache: remapNotes(db),
    });
    return { db, service, outbox, written: recordLevels(db) };
  }

  it('an update marks and acknowledges unsynced, a message marks synced, a create does both synced', async () => {
    const r = rig();
    r.db.prepare(`INSERT INTO notes (id, title, body) VALUES ('n1', 'Plan', '')`).run();
    r.service.notes.set('n1', { id: 'n1', title: 'Plan', body: '', createdAt: 0 });
    const tempId = r.outbox.newTempId();
    const create = queued(r.outbox.submit('note.create', { tempId, title: 'New' }));
    const update = queued(r.outbox.submit('note.update', { id: 'n1', title: 'Plan B' }));
    const comment = queued(r.outbox.submit('note.comment', { noteId: 'n1', tempId: 'c1', text: 'hi' }));
    r.outbox.start();
    await r.outbox.idle();

    expect(r.outbox.status().pending).toBe(0);
    const written = r.written();
    const levelsOf = (id: number) => written.filter((w) => w.id === id).map((w) => [w.state, w.level]);
    // The change itself is always synced (rule 1: only this file holds it).
    expect(levelsOf(create)).toEqual([
      ['pending', FULL],
      ['in_flight', FULL],
      ['done', FULL],
    ]);
    expect(levelsOf(update)).toEqual([
      ['pending', FULL],
      ['in_flight', NORMAL],
      ['done', NORMAL],
    ]);
    // A posted message's acknowledgement, lost, is looked up again: only its mark waits.
    expect(levelsOf(comment)).toEqual([
      ['pending', FULL],
      ['in_flight', FULL],
      ['done', NORMAL],
    ]);
    expect(level(r.db)).toBe(FULL);
  });

  it('an update whose unsynced mark and acknowledgement were lost is sent again, once more', async () => {
    // A power cut after the update was applied and before any later synced commit: the file holds
    // the entry as it was stored, pending. Replay sends it again; the service holds the same value.
    const r = rig();
    r.db.prepare(`INSERT INTO notes (id, title, body) VALUES ('n1', 'Plan', '')`).run();
    r.service.notes.set('n1', { id: 'n1', title: 'Plan', body: '', createdAt: 0 });
    const update = queued(r.outbox.submit('note.update', { id: 'n1', title: 'Plan B' }));
    const stored = r.db.serialize();
    r.outbox.start();
    await r.outbox.idle();
    expect(r.outbox.entries('done').map((e) => e.id)).toContain(update);

    const lost = new Database(stored);
    const after = new Outbox({
      db: lost,
      client: r.service,
      kinds: noteKinds(lost),
      classify: fakeClassifier,
      clock: new ManualClock(),
      timers: new ManualTimers(new ManualClock()),
      random: () => 0.5,
      remapCache: remapNotes(lost),
    });
    after.start();
    await after.idle();
    expect(after.entries('done').map((e) => e.id)).toContain(update);
    expect(r.service.requests).toEqual(['update n1 {"title":"Plan B"}', 'update n1 {"title":"Plan B"}']);
    expect(r.service.notes.get('n1')?.title).toBe('Plan B');
  });

  it('a message whose unsynced acknowledgement was lost is looked up, never posted twice', async () => {
    // A power cut after the comment's answer, before any later synced commit: the file holds its
    // synced mark (in flight), not its acknowledgement. The next start looks it up and finds it.
    const r = rig();
    r.db.prepare(`INSERT INTO notes (id, title, body) VALUES ('n1', 'Plan', '')`).run();
    r.service.notes.set('n1', { id: 'n1', title: 'Plan', body: '', createdAt: 0 });
    const comment = queued(r.outbox.submit('note.comment', { noteId: 'n1', tempId: 'c1', text: 'hi' }));
    let open = () => {};
    r.service.gate = new Promise((resolve) => (open = resolve));
    r.outbox.start();
    // The mark is written just before the request, which waits at the gate.
    for (let i = 0; i < 50 && r.service.inFlight === 0; i++) await Promise.resolve();
    expect(r.outbox.entries().map((e) => [e.id, e.state])).toEqual([[comment, 'in_flight']]);
    const marked = r.db.serialize();
    r.service.gate = undefined;
    open();
    await r.outbox.idle();
    expect(r.outbox.entries('done').map((e) => e.id)).toEqual([comment]);

    const lost = new Database(marked);
    const clock = new ManualClock();
    const after = new Outbox({
      db: lost,
      client: r.service,
      kinds: noteKinds(lost),
      classify: fakeClassifier,
      clock,
      timers: new ManualTimers(clock),
      random: () => 0.5,
      remapCache: remapNotes(lost),
    });
    after.start();
    await after.idle();
    expect(after.entries('done').map((e) => e.id)).toEqual([comment]);
    expect(r.service.requests).toEqual(['comment n1 hi', 'comments n1']);
    expect(r.service.comments.map((c) => c.text)).toEqual(['hi']);
  });
});
