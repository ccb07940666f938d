// Test doubles for the outbox's own unit tests: an in-memory database with the outbox tables and
// a small "notes" cache table, a fake service with scripted faults, a manual clock and timers,
// and four operation kinds (two creates, update, comment) written the way the real ones are.
import Database from 'better-sqlite3';
import { z } from 'zod';
import { afterApplied } from './outbox';
import { outboxMigrations } from '../cache/outbox-schema';
import type { Classifier, Clock, Db, FailureClass, OperationKind, Timers } from './types';
import { createAccountOutbox, type AccountOutbox, type AccountOutboxOptions } from './account-outbox';

export function openTestDb(): Db {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.transaction(() => {
    for (const migrate of outboxMigrations) migrate(db);
    db.exec(`
      CREATE TABLE notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL) STRICT;
      CREATE TABLE note_comments (id TEXT PRIMARY KEY, note_id TEXT NOT NULL, text TEXT NOT NULL) STRICT;
    `);
  })();
  return db;
}

export class ManualClock implements Clock {
  constructor(public t = 1_700_000_000_000) {}
  now(): number {
    return this.t;
  }
}

/** Timers that fire only when the test advances them. */
export class ManualTimers implements Timers {
  #next = 1;
  readonly pending = new Map<number, { at: number; fn: () => void }>();
  constructor(private readonly clock: ManualClock) {}
  set(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { at: this.clock.t + ms, fn });
    return id;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Moves the clock forward and fires what came due, in time order. */
  advance(ms: number): void {
    const until = this.clock.t + ms;
    for (;;) {
      const due = [...this.pending.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.clock.t = Math.max(this.clock.t, due[1].at);
      due[1].fn();
    }
    this.clock.t = until;
  }
}

export class FakeFailure extends Error {
  constructor(
    readonly failureClass: FailureClass,
    message: string,
  ) {
    super(message);
  }
}

export const fakeClassifier: Classifier = (err) =>
  err instanceof FakeFailure
    ? {
        class: err.failureClass,
        message: err.message,
        ...(err.failureClass === 'throttled' ? { retryAfterMs: 2_000 } : {}),
      }
    : { class: 'unknown-outcome', message: String(err) };

/** What the next request meets. */
export type Fault =
  | 'none' // answered normally (to script a fault on a later request)
  | 'drop-before' // connection lost before the service saw it
  | 'drop-after' // the service applied it, the answer was lost
  | 'server-error'
  | 'throttled'
  | 'unauthorized'
  | 'reject';

export interface ServiceNote {
  id: string;
  title: string;
  body: string;
  createdAt: number;
}

/** The fake service: notes and comments, a request log, and scripted faults. */
export class FakeService {
  readonly notes = new Map<string, ServiceNote>();
  readonly comments: { id: string; noteId: string; text: string; at: number }[] = [];
  readonly requests: string[] = [];
  readonly faults: Fault[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** When set, every request waits for the test to release it. */
  gate: Promise<void> | undefined;
  #nextId = 100;

  constructor(private readonly clock: ManualClock) {}

  async call<T>(label: string, apply: () => T): Promise<T> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await Promise.resolve();
      if (this.gate) await this.gate;
      const fault = this.faults.shift();
      this.requests.push(fault && fault !== 'none' ? `${label} !${fault}` : label);
      switch (fault) {
        case 'drop-before':
          throw new FakeFailure('unknown-outcome', 'connection reset');
        case 'drop-after':
          apply();
          throw new FakeFailure('unknown-outcome', 'connection reset after commit');
        case 'server-error':
          throw new FakeFailure('unknown-outcome', 'HTTP 503');
        case 'throttled':
          throw new FakeFailure('throttled', 'HTTP 429');
        case 'unauthorized':
          throw new FakeFailure('unauthorized', 'HTTP 401');
        case 'reject':
          throw new FakeFailure('rejected', 'title: refused by the service');
        case 'none':
        case undefined:
          return apply();
      }
    } finally {
      this.inFlight--;
    }
  }

  createNote(title: string, body: string): Promise<{ id: string }> {
    return this.call(`create ${title}`, () => {
      const id = String(this.#nextId++);
      this.notes.set(id, { id, title, body, createdAt: this.clock.t });
      return { id };
    });
  }

  updateNote(id: string, fields: { title?: string; body?: string }): Promise<void> {
    return this.call(`update ${id} ${JSON.stringify(fields)}`, () => {
      const note = this.notes.get(id);
      if (!note) throw new FakeFailure('rejected', `note ${id} not found`);
      Object.assign(note, fields);
    });
  }

  comment(noteId: string, text: string): Promise<void> {
    return this.call(`comment ${noteId} ${text}`, () => {
      if (!this.notes.has(noteId)) throw new FakeFailure('rejected', `note ${noteId} not found`);
      this.comments.push({ id: String(this.#nextId++), noteId, text, at: this.clock.t });
    });
  }

  listNotes(): Promise<ServiceNote[]> {
    return this.call('list', () => [...this.notes.values()].map((n) => ({ ...n })));
  }

  listComments(noteId: string): Promise<{ noteId: string; text: string; at: number }[]> {
    return this.call(`comments ${noteId}`, () => this.comments.filter((c) => c.noteId === noteId));
  }
}

const NoteCreate = z.object({ tempId: z.string(), title: z.string().min(1), body: z.string().default('') });
const NoteUpdate = z.object({
  id: z.string(),
  title: z.string().min(1).optional(),
  body: z.string().optional(),
});
const NoteComment = z.object({ noteId: z.string(), tempId: z.string(), text: z.string().min(1) });

interface NoteRow {
  id: string;
  title: string;
  body: string;
}

/** The test kinds over the `notes` table, built like the real ones. */
export function noteKinds(db: Db) {
  const get = db.prepare('SELECT * FROM notes WHERE id = ?');
  const insert = db.prepare('INSERT INTO notes (id, title, body) VALUES (@id, @title, @body)');
  const del = db.prepare('DELETE FROM notes WHERE id = ?');
  const setTitle = db.prepare('UPDATE notes SET title = ? WHERE id = ?');
  const setBody = db.prepare('UPDATE notes SET body = ? WHERE id = ?');
  const write = (id: string, values: Record<string, unknown>): void => {
    if (typeof values.title === 'string') setTitle.run(values.title, id);
    if (typeof values.body === 'string') setBody.run(values.body, id);
  };

  /** Finds a note created by the entry sent at `sentAt` (the creates' look-up). */
  const findCreated = async (service: FakeService, title: string, sentAt: number | null) =>
    (await service.listNotes()).find((n) => n.title === title && n.createdAt >= (sentAt ?? 0));

  const create: OperationKind<z.infer<typeof NoteCreate>, { id: string }, FakeService> = {
    name: 'note.create',
    parse: (p) => NoteCreate.parse(p),
    keysOf: (p) => [`note:${p.tempId}`],
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Create note ${p.title}`,
    apply: (_ctx, p) => {
      insert.run({ id: p.tempId, title: p.title, body: p.body });
    },
    send: (service, p) => service.createNote(p.title, p.body),
    fold: (_ctx, _p, result) => ({ realId: result.id }),
    lookUp: async (service, p, entry) => {
      const found = await findCreated(service, p.title, entry.sentAt);
      return found ? { found: true, result: { id: found.id } } : { found: false };
    },
    rollback: (_ctx, p) => {
      del.run(p.tempId);
    },
  };

  /** A create whose answer is not used: it lists the notes to learn the id, as CRM creates do. */
  const createListed: OperationKind<z.infer<typeof NoteCreate>, { id: string }, FakeService> = {
    ...create,
    name: 'note.createListed',
    send: async (service, p, entry) => {
      await service.createNote(p.title, p.body);
      return afterApplied(async () => {
        const found = await findCreated(service, p.title, entry.sentAt);
        if (!found) throw new Error('the new note was not listed');
        return { id: found.id };
      });
    },
  };

  const update: OperationKind<z.infer<typeof NoteUpdate>, void, FakeService> = {
    name: 'note.update',
    parse: (p) => NoteUpdate.parse(p),
    keysOf: (p) => [`note:${p.id}`],
    describe: () => 'Edit note',
    apply: (ctx, p) => {
      const row = get.get(p.id) as NoteRow | undefined;
      if (!row) throw new Error(`id: note ${p.id} is not in the cache`);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      const changed: { id: string; title?: string; body?: string } = { id: p.id };
      if (p.title !== undefined && p.title !== row.title) {
        changes.title = { from: row.title, to: p.title };
        changed.title = p.title;
      }
      if (p.body !== undefined && p.body !== row.body) {
        changes.body = { from: row.body, to: p.body };
        changed.body = p.body;
      }
      if (!Object.keys(changes).length) return { noop: true };
      ctx.claimFields('note', p.id, changes);
      write(p.id, { title: changed.title, body: changed.body });
      return { payload: changed };
    },
    send: (service, { id, ...fields }) => service.updateNote(id, fields),
    fold: () => undefined,
    rollback: (ctx) => {
      for (const { id, values } of ctx.releaseFields().values()) write(id, values);
    },
    merge: (a, b) => ({ ...a, ...b }),
  };

  const comment: OperationKind<z.infer<typeof NoteComment>, void, FakeService> = {
    name: 'note.comment',
    parse: (p) => NoteComment.parse(p),
    keysOf: (p) => [`note:${p.noteId}`],
    describe: () => 'Comment',
    apply: (_ctx, p) => {
      db.prepare('INSERT INTO note_comments (id, note_id, text) VALUES (?, ?, ?)').run(
        p.tempId,
        p.noteId,
        p.text,
      );
    },
    send: (service, p) => service.comment(p.noteId, p.text),
    fold: () => undefined,
    lookUp: async (service, p, entry) => {
      const found = (await service.listComments(p.noteId)).some(
        (c) => c.text === p.text && c.at >= (entry.sentAt ?? 0),
      );
      return found ? { found: true, result: undefined } : { found: false };
    },
    rollback: (_ctx, p) => {
      db.prepare('DELETE FROM note_comments WHERE id = ?').run(p.tempId);
    },
  };

  return [create, createListed, update, comment];
}

/**
 * Rewrites a temp id in the notes tables (the cache's part of rule 5); answers `note_comments`
 * when comments of the note named it.
 */
export function remapNotes(db: Db): (tempId: string, realId: string) => readonly string[] {
  const notes = db.prepare('UPDATE notes SET id = ? WHERE id = ?');
  const comments = db.prepare('UPDATE note_comments SET note_id = ? WHERE note_id = ?');
  return (tempId, realId) => {
    notes.run(realId, tempId);
    return comments.run(realId, tempId).changes > 0 ? ['note_comments'] : [];
  };
}

/**
 * The app's outbox for unit tests of its kinds and of what sync asks of it: no events (unless
 * `emit` is given), ids `id1`, `id2`, ... and a clock stopped at `now`. Its kinds modules and the resources' descriptors
 * are given as the engine gives them (`KIND_FACTORIES` and `ENTITIES` of `handlers/index.ts`,
 * which this layer may not import).
 */
export function stoppedClockOutbox(
  options: Pick<
    AccountOutboxOptions,
    | 'cache'
    | 'client'
    | 'userId'
    | 'maxFoldFailures'
    | 'checkBeforeSend'
    | 'conflictPolicy'
    | 'kindModules'
    | 'entities'
  > & {
    now: number;
    emit?: AccountOutboxOptions['emit'];
  },
): AccountOutbox {
  const { now, emit, ...rest } = options;
  let n = 0;
  return createAccountOutbox({
    // Tests of the kinds count their requests; the check before a send has its own tests.
    checkBeforeSend: false,
    ...rest,
    emit: emit ?? (() => {}),
    newId: () => `id${++n}`,
    clock: { now: () => now },
  });
}
export { queueOf } from './account-outbox';
