// Undo at the queue's level: a change that puts back what a waiting change made withdraws both
// (nothing is sent); once the first is sent, the second is an ordinary change; a kind may ask for
// an undo window (a task delete) during which its entry waits and can be discarded.
import { beforeEach, describe, expect, it } from 'vitest';
import { Outbox, type ErasedKind } from './outbox';
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

interface Rig {
  db: Db;
  timers: ManualTimers;
  service: FakeService;
  outbox: Outbox<FakeService>;
}

const HOLD_MS = 5_000;

/**
 * The note kinds, with updates withdrawable (their whole effect is their claims) and a comment
 * kind that asks for an undo window, as a task delete does.
 */
function undoKinds(db: Db): ErasedKind<FakeService>[] {
  const kinds = noteKinds(db) as ErasedKind<FakeService>[];
  const held = kinds
    .filter((k) => k.name === 'note.comment')
    .map((k): ErasedKind<FakeService> => ({
      ...k,
      name: 'note.heldComment',
      apply: (ctx, p) => {
        k.apply(ctx, p);
        return { holdForUndo: true };
      },
    }));
  return [...kinds.map((k) => (k.name === 'note.update' ? { ...k, withdrawable: () => true } : k)), ...held];
}

function rig(undoHoldMs: number | undefined = HOLD_MS): Rig {
  const db = openTestDb();
  const clock = new ManualClock();
  const timers = new ManualTimers(clock);
  const service = new FakeService(clock);
  let seq = 0;
  const outbox = new Outbox({
    db,
    client: service,
    kinds: undoKinds(db),
    classify: fakeClassifier,
    clock,
    timers,
    random: () => 0.5,
    newId: () => `id${++seq}`,
    remapCache: remapNotes(db),
    ...(undoHoldMs === undefined ? {} : { undoHoldMs }),
  });
  return { db, timers, service, outbox };
}

function seed(r: Rig, id: string, title: string, body = ''): void {
  r.db.prepare('INSERT INTO notes (id, title, body) VALUES (?, ?, ?)').run(id, title, body);
  r.service.notes.set(id, { id, title, body, createdAt: 0 });
}

function title(r: Rig, id: string): string | undefined {
  return (
    (r.db.prepare('SELECT title FROM notes WHERE id = ?').pluck().get(id) as string | undefined) ?? undefined
  );
}

function claims(r: Rig): unknown[] {
  return r.db.prepare('SELECT entity_id, field, entry_id FROM outbox_field_claims').all();
}

describe('Outbox: undo of a change still waiting (withdraw)', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
    seed(r, '1', 'Plan', 'b0');
  });

  it('withdraws both when the later change puts every field back: nothing is sent', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'Done plan' });
    const undo = r.outbox.submit('note.update', { id: '1', title: 'Plan' });
    expect(undo).toMatchObject({ entryId: undefined, withdrawn: true });
    expect(r.outbox.entries()).toEqual([]);
    expect(claims(r)).toEqual([]);
    expect(title(r, '1')).toBe('Plan');
    r.outbox.start();
    await r.outbox.idle();
    expect(r.service.requests).toEqual([]);
  });

  it('keeps the entry when a merged field is not back (only part of it was undone)', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'T1' });
    r.outbox.submit('note.update', { id: '1', body: 'b1' });
    // Undo of the body only: the title still differs from the service's.
    const undo = r.outbox.submit('note.update', { id: '1', body: 'b0' });
    expect(undo.withdrawn).toBeUndefined();
    expect(r.outbox.entries()).toHaveLength(1);
    // Then the title too: now everything is back and the entry goes.
    expect(r.outbox.submit('note.update', { id: '1', title: 'Plan' }).withdrawn).toBe(true);
    expect(r.outbox.entries()).toEqual([]);
    r.outbox.start();
    await r.outbox.idle();
    expect(r.service.requests).toEqual([]);
  });

  it('withdraws only the latest of two waiting changes of a field, back to the earlier one', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'A' });
    r.outbox.submit('note.comment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'between' });
    r.outbox.submit('note.update', { id: '1', title: 'B' });
    // Undo of B: back to A, which the first entry still sends.
    expect(r.outbox.submit('note.update', { id: '1', title: 'A' }).withdrawn).toBe(true);
    expect(r.outbox.entries().map((e) => e.kind)).toEqual(['note.update', 'note.comment']);
    expect(title(r, '1')).toBe('A');
    r.outbox.start();
    await r.outbox.idle();
    expect(r.service.requests).toEqual(['update 1 {"title":"A"}', 'comment 1 between']);
    expect(r.service.notes.get('1')?.title).toBe('A');
  });

  it('sends the undo as an ordinary change once the first was sent (revert)', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'Done plan' });
    r.outbox.start();
    await r.outbox.idle();
    const undo = r.outbox.submit('note.update', { id: '1', title: 'Plan' });
    expect(undo.withdrawn).toBeUndefined();
    expect(undo.entryId).toBeTypeOf('number');
    await r.outbox.idle();
    expect(r.service.requests).toEqual(['update 1 {"title":"Done plan"}', 'update 1 {"title":"Plan"}']);
    expect(r.service.notes.get('1')?.title).toBe('Plan');
  });

  it('never withdraws an entry being sent: the undo waits behind it and is sent after', async () => {
    let release!: () => void;
    r.service.gate = new Promise((done) => (release = done));
    r.outbox.submit('note.update', { id: '1', title: 'Done plan' });
    r.outbox.start();
    const undo = r.outbox.submit('note.update', { id: '1', title: 'Plan' });
    expect(undo.withdrawn).toBeUndefined();
    expect(r.outbox.entries()).toHaveLength(2);
    release();
    r.service.gate = undefined;
    await r.outbox.idle();
    await r.outbox.idle();
    expect(r.service.notes.get('1')?.title).toBe('Plan');
  });
});

describe('Outbox: an undo window asked by the kind (a held delete)', () => {
  it('does not send the entry before its window ends, and a discard within it sends nothing', async () => {
    const r = rig();
    seed(r, '1', 'Plan');
    const { entryId } = r.outbox.submit('note.heldComment', {
      noteId: '1',
      tempId: r.outbox.newLocalRowId(),
      text: 'held',
    });
    r.outbox.start();
    await r.outbox.idle();
    r.timers.advance(HOLD_MS - 1_000);
    await r.outbox.idle();
    expect(r.service.requests).toEqual([]);
    r.outbox.discard(entryId!);
    r.timers.advance(HOLD_MS);
    await r.outbox.idle();
    expect(r.service.requests).toEqual([]);
    expect(r.db.prepare('SELECT count(*) FROM note_comments').pluck().get()).toBe(0);
  });

  it('sends it once the window has passed', async () => {
    const r = rig();
    seed(r, '1', 'Plan');
    r.outbox.submit('note.heldComment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'held' });
    r.outbox.start();
    r.timers.advance(HOLD_MS);
    await r.outbox.idle();
    expect(r.service.requests).toEqual(['comment 1 held']);
  });

  it('with no undo window (undoHoldMs 0, the default) it is sent at once', async () => {
    const r = rig(0);
    seed(r, '1', 'Plan');
    r.outbox.submit('note.heldComment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'held' });
    r.outbox.start();
    await r.outbox.idle();
    expect(r.service.requests).toEqual(['comment 1 held']);
  });
});
