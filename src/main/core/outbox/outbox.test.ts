import { beforeEach, describe, expect, it } from 'vitest';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { MAX_FOLD_FAILURES, Outbox, type ErasedKind } from './outbox';
import {
  FakeService,
  ManualClock,
  ManualTimers,
  fakeClassifier,
  noteKinds,
  openTestDb,
  remapNotes,
  type Fault,
} from './testing';
import type { Classifier, Db } from './types';

interface Rig {
  db: Db;
  clock: ManualClock;
  timers: ManualTimers;
  service: FakeService;
  outbox: Outbox<FakeService>;
  /** Makes a new Outbox on the same database, as after a restart. */
  restart(): Outbox<FakeService>;
}

function rig(
  options: {
    concurrency?: number;
    db?: Db;
    service?: FakeService;
    clock?: ManualClock;
    lookUpDelayMs?: number;
    backoff?: BackoffPolicy;
    /** Changes the note kinds (e.g. to make their folds fail). */
    kinds?: (kinds: ErasedKind<FakeService>[]) => ErasedKind<FakeService>[];
    log?: (message: string) => void;
    classify?: Classifier;
    /** What kinds with a look-up send with (`OutboxOptions.sendClient`). */
    sendClient?: FakeService;
  } = {},
): Rig {
  const db = options.db ?? openTestDb();
  const clock = options.clock ?? new ManualClock();
  const timers = new ManualTimers(clock);
  const service = options.service ?? new FakeService(clock);
  let seq = 0;
  const make = (): Outbox<FakeService> =>
    new Outbox({
      db,
      client: service,
      ...(options.sendClient ? { sendClient: options.sendClient } : {}),
      kinds: options.kinds ? options.kinds(noteKinds(db)) : noteKinds(db),
      classify: options.classify ?? fakeClassifier,
      clock,
      timers,
      random: () => 0.5,
      newId: () => `id${++seq}`,
      concurrency: options.concurrency ?? 4,
      remapCache: remapNotes(db),
      takeTheirs: (_entity, id, field, value) => {
        outbox.submit('note.update', { id, [field]: value });
      },
      ...(options.lookUpDelayMs ? { lookUpDelayMs: options.lookUpDelayMs } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  let outbox = make();
  return {
    db,
    clock,
    timers,
    service,
    get outbox() {
      return outbox;
    },
    restart() {
      outbox = make();
      return outbox;
    },
  };
}

function note(db: Db, id: string): { id: string; title: string; body: string } | undefined {
  return db.prepare('SELECT * FROM notes WHERE id = ?').get(id) as
    { id: string; title: string; body: string } | undefined;
}

function seedNote(r: Rig, id: string, title: string, body = ''): void {
  r.db.prepare('INSERT INTO notes (id, title, body) VALUES (?, ?, ?)').run(id, title, body);
  r.service.notes.set(id, { id, title, body, createdAt: 0 });
}

/** The note kinds with folds that throw `message` (a cache write failing) whenever `fails()`. */
function foldsFailing(message: string, fails: () => boolean) {
  return (kinds: ErasedKind<FakeService>[]): ErasedKind<FakeService>[] =>
    kinds.map((kind) => ({
      ...kind,
      fold: (...args: Parameters<typeof kind.fold>) => {
        if (fails()) throw new Error(message);
        return kind.fold(...args);
      },
    }));
}

/** Runs replay until nothing is due, advancing the clock across backoff waits up to `ms`. */
async function drain(r: Rig, ms = 0): Promise<void> {
  await r.outbox.idle();
  for (let waited = 0; waited <= ms; waited += 1_000) {
    await r.outbox.idle();
    if (r.outbox.status().pending === 0) return;
    r.timers.advance(1_000);
  }
  await r.outbox.idle();
}

describe('Outbox: enqueue (rule 1)', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
  });

  it('writes the local change and the entry together, and sends nothing before start', () => {
    const tempId = r.outbox.newTempId();
    const { entryId } = r.outbox.submit('note.create', { tempId, title: 'Plan' });
    expect(note(r.db, tempId)).toEqual({ id: tempId, title: 'Plan', body: '' });
    expect(r.outbox.entries()).toMatchObject([
      { id: entryId, kind: 'note.create', state: 'pending', keys: [`note:${tempId}`] },
    ]);
    expect(r.outbox.status()).toEqual({
      pending: 1,
      inFlight: 0,
      failed: 0,
      stuck: 0,
      conflicts: 0,
      paused: null,
      lastSentAt: null,
    });
    expect(r.service.requests).toEqual([]);
  });

  it('leaves neither the change nor the entry when applying throws', () => {
    expect(() => r.outbox.submit('note.update', { id: 'missing', title: 'x' })).toThrow(
      /note missing is not in the cache/,
    );
    expect(r.outbox.entries()).toEqual([]);
  });

  it('refuses a bad payload naming the field and changes nothing', () => {
    expect(() => r.outbox.submit('note.create', { tempId: 'local-1', title: '' })).toThrow(/title/);
    expect(() => r.outbox.submit('no.such', {})).toThrow(/Unknown operation kind "no.such"/);
    expect(r.db.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
    expect(r.outbox.entries()).toEqual([]);
  });

  it('stores no entry for an update that changes nothing (rule 8)', () => {
    seedNote(r, '1', 'Same');
    expect(r.outbox.submit('note.update', { id: '1', title: 'Same' })).toEqual({
      entryId: undefined,
      merged: false,
    });
    expect(r.outbox.entries()).toEqual([]);
  });
});

describe('Outbox: replay order and parallelism (rules 2, 3)', () => {
  it('replays one entity in order and entities in parallel, within the bound', async () => {
    const r = rig({ concurrency: 3 });
    for (let i = 1; i <= 6; i++) seedNote(r, String(i), `n${i}`);
    for (let i = 1; i <= 6; i++) {
      r.outbox.submit('note.update', { id: String(i), title: `a${i}` });
      r.outbox.submit('note.comment', { noteId: String(i), tempId: r.outbox.newLocalRowId(), text: `c${i}` });
      r.outbox.submit('note.update', { id: String(i), title: `b${i}` });
    }
    let release!: () => void;
    r.service.gate = new Promise((done) => (release = done));
    r.outbox.start();
    await Promise.resolve();
    expect(r.service.inFlight).toBe(3);
    release();
    r.service.gate = undefined;
    await drain(r);
    expect(r.service.maxInFlight).toBe(3);
    for (let i = 1; i <= 6; i++) {
      const mine = r.service.requests.filter((q) => q.includes(` ${i} `));
      expect(mine).toEqual([
        `update ${i} {"title":"a${i}"}`,
        `comment ${i} c${i}`,
        `update ${i} {"title":"b${i}"}`,
      ]);
      expect(r.service.notes.get(String(i))?.title).toBe(`b${i}`);
    }
    expect(r.outbox.status().pending).toBe(0);
  });

  it('sends at start-up what an earlier run left, and on the timer after a backoff', async () => {
    const r = rig();
    seedNote(r, '1', 'old');
    r.outbox.submit('note.update', { id: '1', title: 'new' });
    const again = r.restart();
    r.service.faults.push('server-error');
    again.start();
    await again.idle();
    expect(r.service.requests).toEqual(['update 1 {"title":"new"} !server-error']);
    expect(again.entries()).toMatchObject([
      { state: 'in_flight', errorType: 'unknown-outcome', attempts: 1 },
    ]);
    // Nothing new is written: the timer alone brings the retry.
    r.timers.advance(60_000);
    await again.idle();
    expect(r.service.notes.get('1')?.title).toBe('new');
    expect(again.status().pending).toBe(0);
  });

  it('makes every waiting retry due at once on reconnect', async () => {
    const r = rig();
    seedNote(r, '1', 'old');
    r.service.faults.push('drop-before');
    r.outbox.submit('note.update', { id: '1', title: 'new' });
    r.outbox.start();
    await r.outbox.idle();
    expect(r.outbox.status().pending).toBe(1);
    r.outbox.reconnected();
    await r.outbox.idle();
    expect(r.outbox.status().pending).toBe(0);
    expect(r.service.notes.get('1')?.title).toBe('new');
  });
});

describe('Outbox: failures (rule 4)', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
    seedNote(r, '1', 'one');
    seedNote(r, '2', 'two');
  });

  it.each<Fault>(['drop-before', 'server-error', 'throttled'])(
    'retries after %s and applies once',
    async (fault) => {
      r.service.faults.push(fault, fault);
      r.outbox.submit('note.update', { id: '1', title: 'x' });
      r.outbox.start();
      await drain(r, 120_000);
      expect(r.service.notes.get('1')?.title).toBe('x');
      expect(r.service.requests.filter((q) => !q.includes('!'))).toEqual(['update 1 {"title":"x"}']);
    },
  );

  it('pauses everything on 401 and resumes with a token', async () => {
    r = rig({ concurrency: 1 });
    seedNote(r, '1', 'one');
    seedNote(r, '2', 'two');
    const statuses: unknown[] = [];
    r.outbox.onDidChange((s) => statuses.push(s.paused));
    r.service.faults.push('unauthorized');
    r.outbox.submit('note.update', { id: '1', title: 'x' });
    r.outbox.submit('note.update', { id: '2', title: 'y' });
    r.outbox.start();
    await r.outbox.idle();
    expect(r.outbox.status()).toMatchObject({ paused: 'token-needed', pending: 2, inFlight: 0 });
    expect(statuses).toContain('token-needed');
    r.timers.advance(10 * 60_000);
    await r.outbox.idle();
    expect(r.service.notes.get('1')?.title).toBe('one');
    r.outbox.resume();
    await drain(r);
    expect(r.outbox.status()).toMatchObject({ paused: null, pending: 0 });
    expect([r.service.notes.get('1')?.title, r.service.notes.get('2')?.title]).toEqual(['x', 'y']);
  });

  it('rejects: rolls the view back, stops only that entity, keeps the message', async () => {
    r.service.faults.push('reject');
    r.outbox.submit('note.update', { id: '1', title: 'bad' });
    r.outbox.submit('note.comment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'later' });
    r.outbox.submit('note.update', { id: '2', title: 'fine' });
    r.outbox.start();
    await drain(r);
    const [failed, blocked] = r.outbox.entries();
    expect(failed).toMatchObject({ state: 'failed', errorMessage: 'title: refused by the service' });
    expect(blocked).toMatchObject({ state: 'pending', kind: 'note.comment' });
    expect(note(r.db, '1')).toEqual({ id: '1', title: 'one', body: '' });
    expect(r.service.notes.get('2')?.title).toBe('fine');
    expect(r.service.notes.get('1')).toMatchObject({ title: 'one', body: '' });
    expect(r.service.comments).toEqual([]);
    expect(r.outbox.status()).toMatchObject({ failed: 1, pending: 1 });
  });

  it('names the refused entry every entry of its chains waits behind, through the entries it holds', async () => {
    r.service.faults.push('reject');
    const refused = r.outbox.submit('note.update', { id: '1', title: 'bad' }).entryId!;
    const comment = r.outbox.submit('note.comment', {
      noteId: '1',
      tempId: r.outbox.newLocalRowId(),
      text: 'later',
    }).entryId!;
    // The comment is in note 2's chain too, so note 2's update waits for it, and so for the refusal.
    r.outbox.store.addKeys(comment, ['note:2']);
    const behind = r.outbox.submit('note.update', { id: '2', title: 'held' }).entryId!;
    const free = r.outbox.submit('note.create', { tempId: r.outbox.newTempId(), title: 'free' }).entryId!;
    r.outbox.start();
    await drain(r);
    expect([...r.service.notes.values()].map((n) => n.title)).toContain('free');
    const holders = r.outbox.holders();
    expect([...holders].map(([id, holder]) => [id, holder.id])).toEqual([
      [comment, refused],
      [behind, refused],
    ]);
    expect(holders.has(free)).toBe(false);
    expect(r.outbox.describe(holders.get(behind)!)).toBe(r.outbox.describe(r.outbox.store.get(refused)!));

    r.outbox.discard(refused);
    expect(r.outbox.holders().size).toBe(0);
    await drain(r);
    expect(r.service.notes.get('2')?.title).toBe('held');
    expect(r.service.comments.map((c) => c.text)).toEqual(['later']);
    expect(r.outbox.status()).toMatchObject({ failed: 0, pending: 0 });
  });

  it('retries a rejected entry with its change re-applied', async () => {
    r.service.faults.push('reject');
    const { entryId } = r.outbox.submit('note.update', { id: '1', title: 'again' });
    r.outbox.start();
    await drain(r);
    expect(note(r.db, '1')?.title).toBe('one');
    r.outbox.retry(entryId!);
    expect(note(r.db, '1')?.title).toBe('again');
    await drain(r);
    expect(r.service.notes.get('1')?.title).toBe('again');
    expect(r.outbox.status()).toMatchObject({ failed: 0, pending: 0 });
  });

  it('edits a rejected entry and sends the edited one', async () => {
    r.service.faults.push('reject');
    const { entryId } = r.outbox.submit('note.update', { id: '1', title: 'too long' });
    r.outbox.start();
    await drain(r);
    expect(() => r.outbox.edit(entryId!, { id: '2', title: 'other' })).toThrow(/cannot change which items/);
    expect(() => r.outbox.edit(entryId!, { id: '1', title: '' })).toThrow(/title/);
    r.outbox.edit(entryId!, { id: '1', title: 'short' });
    expect(note(r.db, '1')?.title).toBe('short');
    await drain(r);
    expect(r.service.notes.get('1')?.title).toBe('short');
  });

  it('discards a rejected entry: the chain behind it goes on, the view shows the service', async () => {
    r.service.faults.push('reject');
    const { entryId } = r.outbox.submit('note.update', { id: '1', title: 'bad' });
    r.outbox.submit('note.comment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'kept' });
    r.outbox.submit('note.update', { id: '1', body: 'kept' });
    r.outbox.start();
    await drain(r);
    r.outbox.discard(entryId!);
    await drain(r);
    expect(r.service.notes.get('1')).toMatchObject({ title: 'one', body: 'kept' });
    expect(r.service.comments.map((c) => c.text)).toEqual(['kept']);
    expect(note(r.db, '1')).toMatchObject({ title: 'one', body: 'kept' });
    expect(r.outbox.entries()).toEqual([]);
  });

  it('discarding a waiting create discards what needs the item and removes it from the view', () => {
    const tempId = r.outbox.newTempId();
    const { entryId } = r.outbox.submit('note.create', { tempId, title: 'draft' });
    r.outbox.submit('note.update', { id: tempId, body: 'b' });
    r.outbox.submit('note.update', { id: '1', body: 'other note' });
    r.outbox.discard(entryId!);
    expect(note(r.db, tempId)).toBeUndefined();
    expect(r.outbox.entries()).toMatchObject([{ payload: { id: '1' } }]);
  });

  /** Stores `payload` as entry `id`'s, as an older version could have written it (no parse). */
  function storeAsOlderVersion(id: number, payload: unknown): void {
    const entry = r.outbox.store.get(id)!;
    r.outbox.store.setPayload(id, payload, entry.undo, r.clock.now());
  }

  it('an unreadable stored create fails rolled back; discarding it discards what waits for the item', async () => {
    const tempId = r.outbox.newTempId();
    const { entryId } = r.outbox.submit('note.create', { tempId, title: 'offline' });
    r.outbox.submit('note.update', { id: tempId, body: 'waits' });
    r.outbox.submit('note.update', { id: '1', body: 'other note' });
    storeAsOlderVersion(entryId!, { tempId, title: '' });
    r.outbox.start();
    await drain(r);
    expect(r.outbox.store.get(entryId!)).toMatchObject({ state: 'failed', errorType: 'internal' });
    expect(r.outbox.store.get(entryId!)?.errorMessage).toMatch(/unreadable: title: /);
    expect(note(r.db, tempId)).toBeUndefined();
    expect(r.service.notes.get('1')?.body).toBe('other note');
    r.outbox.discard(entryId!);
    expect(note(r.db, tempId)).toBeUndefined();
    expect(r.outbox.entries().filter((e) => e.state !== 'done')).toEqual([]);
    expect(r.outbox.pendingFieldsFor('note', tempId).size).toBe(0);
    expect([...r.service.notes.values()].map((n) => n.title)).toEqual(['one', 'two']);
  });

  it('an unreadable update fails with its fields put back; a waiting one is discarded the same', async () => {
    const failing = r.outbox.submit('note.update', { id: '1', title: 'renamed' }).entryId!;
    storeAsOlderVersion(failing, { id: '1', title: 7 });
    const waiting = r.outbox.submit('note.update', { id: '2', body: 'typed' }).entryId!;
    storeAsOlderVersion(waiting, { id: '2', body: ['no longer text'] });
    // Before replay the second is still pending: its discard rolls back as far as it reads.
    r.outbox.discard(waiting);
    expect(note(r.db, '2')).toMatchObject({ body: '' });
    expect(r.outbox.pendingFieldsFor('note', '2').size).toBe(0);
    r.outbox.start();
    await drain(r);
    expect(r.outbox.store.get(failing)).toMatchObject({ state: 'failed', errorType: 'internal' });
    expect(note(r.db, '1')).toMatchObject({ title: 'one' });
    expect(r.outbox.pendingFieldsFor('note', '1').size).toBe(0);
    r.outbox.discard(failing);
    expect(note(r.db, '1')).toMatchObject({ title: 'one' });
    expect(r.service.requests).toEqual([]);
  });

  it('a rollback that cannot read the stored change undoes nothing and still fails the entry', async () => {
    const tempId = r.outbox.newTempId();
    const { entryId } = r.outbox.submit('note.create', { tempId, title: 'offline' });
    storeAsOlderVersion(entryId!, 'not an object');
    r.outbox.start();
    await drain(r);
    expect(r.outbox.store.get(entryId!)).toMatchObject({ state: 'failed', errorType: 'internal' });
    r.outbox.discard(entryId!);
    expect(r.outbox.entries().filter((e) => e.state !== 'done')).toEqual([]);
  });

  it('refuses to change an entry that is being sent', async () => {
    let release!: () => void;
    r.service.gate = new Promise((done) => (release = done));
    const { entryId } = r.outbox.submit('note.update', { id: '1', title: 'x' });
    r.outbox.start();
    expect(() => r.outbox.discard(entryId!)).toThrow(/being sent/);
    expect(() => r.outbox.discard(999)).toThrow(/No waiting change 999/);
    release();
    await drain(r);
  });
});

describe('Outbox: creates, temp ids and the outcome-unknown mark (rules 5, 6)', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
  });

  it('remaps the cache and the waiting entries in one go, and sends real ids', async () => {
    const tempId = r.outbox.newTempId();
    r.outbox.submit('note.create', { tempId, title: 'Offline' });
    r.outbox.submit('note.update', { id: tempId, body: 'written offline' });
    r.outbox.submit('note.comment', { noteId: tempId, tempId: r.outbox.newLocalRowId(), text: 'hi' });
    r.outbox.start();
    await drain(r);
    const realId = r.outbox.realIdOf(tempId);
    expect(realId).toBe('100');
    expect(note(r.db, tempId)).toBeUndefined();
    expect(note(r.db, realId)).toEqual({ id: realId, title: 'Offline', body: 'written offline' });
    expect(r.service.requests).toEqual([
      'create Offline',
      'update 100 {"body":"written offline"}',
      'comment 100 hi',
    ]);
    expect(r.db.prepare('SELECT note_id FROM note_comments').pluck().all()).toEqual([realId]);
  });

  it('tells its listeners the local and real id once the remap is committed', async () => {
    const tempId = r.outbox.newTempId();
    const heard: unknown[] = [];
    r.outbox.onDidRemapId((remap) => heard.push({ ...remap, committed: note(r.db, remap.realId)?.title }));
    r.outbox.submit('note.create', { tempId, title: 'Offline' });
    r.outbox.start();
    await drain(r);
    expect(heard).toEqual([{ entity: 'note', tempId, realId: '100', committed: 'Offline' }]);
  });

  it('a lost answer after the service committed: looks up, finds it, creates once', async () => {
    const tempId = r.outbox.newTempId();
    r.service.faults.push('drop-after');
    r.outbox.submit('note.create', { tempId, title: 'Once' });
    r.outbox.start();
    await drain(r, 60_000);
    expect([...r.service.notes.values()].map((n) => n.title)).toEqual(['Once']);
    expect(r.service.requests).toEqual(['create Once !drop-after', 'list']);
    expect(note(r.db, '100')?.title).toBe('Once');
  });

  it('a request lost before the service: looks up, finds nothing, sends again', async () => {
    const tempId = r.outbox.newTempId();
    r.service.faults.push('drop-before');
    r.outbox.submit('note.create', { tempId, title: 'Once' });
    r.outbox.start();
    await drain(r, 60_000);
    expect(r.service.requests).toEqual(['create Once !drop-before', 'list', 'create Once']);
    expect(r.service.notes.size).toBe(1);
  });

  it('a crash between the send and the answer: the next run looks up before resending', async () => {
    const tempId = r.outbox.newTempId();
    r.outbox.submit('note.create', { tempId, title: 'Crash' });
    r.outbox.submit('note.comment', { noteId: tempId, tempId: r.outbox.newLocalRowId(), text: 'c' });
    // What a crash leaves: the entry marked sent with outcome unknown, the service applied it.
    const [entry] = r.outbox.entries();
    r.outbox.store.markSending(entry!.id, r.clock.now(), 600_000);
    await r.service.createNote('Crash', '');
    r.service.requests.length = 0;
    const again = r.restart();
    again.start();
    await drain(r);
    expect(r.service.notes.size).toBe(1);
    expect(r.service.requests).toEqual(['list', 'comment 100 c']);
    expect(r.service.comments).toHaveLength(1);
  });

  it('a comment whose answer was lost is looked up, not posted twice', async () => {
    seedNote(r, '1', 'n');
    r.service.faults.push('drop-after');
    r.outbox.submit('note.comment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'once' });
    r.outbox.start();
    await drain(r, 60_000);
    expect(r.service.comments.map((c) => c.text)).toEqual(['once']);
  });

  // A send of two requests (a post, then a list for the id): once the post was answered, no
  // failure of the list may post again; the entry stays "outcome unknown" and is looked up.
  it.each(['throttled', 'server-error', 'reject'] as const)(
    'an id look-up answered %s after an answered post: looked up, not posted again',
    async (fault) => {
      const tempId = r.outbox.newTempId();
      r.service.faults.push('none', fault);
      r.outbox.submit('note.createListed', { tempId, title: 'Listed' });
      r.outbox.start();
      await r.outbox.idle();
      expect(r.outbox.entries()).toMatchObject([{ state: 'in_flight', attempts: 1 }]);
      // Nothing rolled back meanwhile: the service holds the note.
      expect(note(r.db, tempId)?.title).toBe('Listed');
      await drain(r, 60_000);
      expect(r.service.requests).toEqual(['create Listed', `list !${fault}`, 'list']);
      expect([...r.service.notes.values()].map((n) => n.title)).toEqual(['Listed']);
      expect(r.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
      expect(note(r.db, '100')?.title).toBe('Listed');
    },
  );

  it('a refused post of a two-request send is sent again: nothing was applied', async () => {
    const tempId = r.outbox.newTempId();
    r.service.faults.push('throttled');
    r.outbox.submit('note.createListed', { tempId, title: 'Refused' });
    r.outbox.start();
    await drain(r, 60_000);
    expect(r.service.requests).toEqual(['create Refused !throttled', 'create Refused', 'list']);
    expect(r.service.notes.size).toBe(1);
  });

  // Listeners forward to windows; `webContents.send` throws while a window closes. What they do
  // after the acknowledgement committed must not make it "outcome unknown" again (a second
  // create, or a look-up taking the same note twice).
  it('a listener that throws after an acknowledgement changes nothing: created once, done', async () => {
    const logged: string[] = [];
    const r = rig({ log: (m) => logged.push(m) });
    const tempId = r.outbox.newTempId();
    r.outbox.submit('note.create', { tempId, title: 'Once' });
    r.outbox.submit('note.update', { id: tempId, body: 'then this' });
    r.outbox.onDidChangeCache(() => {
      throw new Error('Object has been destroyed');
    });
    r.outbox.onDidRemapId(() => {
      throw new Error('Object has been destroyed');
    });
    const heard: string[] = [];
    r.outbox.onDidRemapId((remap) => heard.push(remap.realId));
    r.outbox.start();
    await drain(r, 60_000);
    r.timers.advance(600_000);
    await r.outbox.idle();
    expect(r.service.requests).toEqual(['create Once', 'update 100 {"body":"then this"}']);
    expect(r.outbox.entries()).toEqual([]);
    expect(r.outbox.entries('done').map((e) => e.attempts)).toEqual([1, 1]);
    expect(note(r.db, '100')).toEqual({ id: '100', title: 'Once', body: 'then this' });
    // The listener after the one that threw still heard; the throws were logged.
    expect(heard).toEqual(['100']);
    expect(logged.filter((m) => m.includes('a listener failed: Object has been destroyed'))).toHaveLength(3);
  });

  // Nothing of an attempt escapes as an unhandled rejection (it would end the main process).
  it('a failure while recording a failure is logged; the entry is sent again later', async () => {
    const logged: string[] = [];
    let broken = true;
    const r = rig({
      log: (m) => logged.push(m),
      classify: (err) => {
        if (broken) throw new Error('classifier bug');
        return fakeClassifier(err);
      },
    });
    r.service.faults.push('drop-before');
    r.outbox.submit('note.create', { tempId: r.outbox.newTempId(), title: 'Kept' });
    r.outbox.start();
    await r.outbox.idle();
    expect(logged.filter((m) => m.includes('run failed: classifier bug'))).toHaveLength(1);
    // Marked sent before the request left: it waits out the send guard, then is looked up.
    expect(r.outbox.entries()).toMatchObject([{ state: 'in_flight', attempts: 1 }]);
    broken = false;
    await drain(r, 600_000);
    expect(r.service.requests).toEqual(['create Kept !drop-before', 'list', 'create Kept']);
  });

  it('waits out the request timeout since the send before a look-up, across a restart', async () => {
    const timed = rig({ lookUpDelayMs: 30_000 });
    const tempId = timed.outbox.newTempId();
    timed.outbox.submit('note.create', { tempId, title: 'Slow' });
    // The send timed out client-side and the app restarted; the service is still processing it.
    const [entry] = timed.outbox.entries();
    timed.outbox.store.markSending(entry!.id, timed.clock.now(), 600_000);
    const again = timed.restart();
    again.start();
    await drain(timed);
    timed.timers.advance(20_000);
    await again.idle();
    expect(timed.service.requests).toEqual([]);
    // The service commits the first request late; the look-up after the wait finds it.
    await timed.service.createNote('Slow', '');
    timed.service.requests.length = 0;
    timed.timers.advance(10_000);
    await drain(timed);
    expect(timed.service.requests).toEqual(['list']);
    expect(timed.service.notes.size).toBe(1);
    expect(again.realIdOf(tempId)).toBe('100');
  });

  // A create the service held longer than the look-up's wait was sent twice.
  it('sends a create with the send client (which waits longer), updates and look-ups with the client', async () => {
    // The same service behind both; the send client notes which methods were called through it.
    const viaSendClient: string[] = [];
    const sendClient = new Proxy(r.service, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          viaSendClient.push(String(prop));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const split = rig({ sendClient, clock: r.clock, service: r.service });
    seedNote(split, '1', 'old');
    split.outbox.submit('note.create', { tempId: split.outbox.newTempId(), title: 'Made' });
    split.outbox.submit('note.update', { id: '1', title: 'new' });
    r.service.faults.push('drop-after');
    split.outbox.start();
    await drain(split, 10_000);
    expect(r.service.requests.sort()).toEqual([
      'create Made !drop-after',
      'list',
      'update 1 {"title":"new"}',
    ]);
    expect(viaSendClient).toEqual(['createNote']);
    expect(split.outbox.entries()).toEqual([]);
  });

  it('looks up no earlier than the wait after the request ended, however long it was held', async () => {
    const timed = rig({ lookUpDelayMs: 2_000 });
    let release = (): void => {};
    timed.service.gate = new Promise<void>((resolve) => (release = resolve));
    timed.outbox.submit('note.create', { tempId: timed.outbox.newTempId(), title: 'Held' });
    timed.outbox.start();
    // The service holds the request 10 s, then the connection fails: the outcome is unknown.
    timed.timers.advance(10_000);
    timed.service.faults.push('drop-before');
    timed.service.gate = undefined;
    release();
    await timed.outbox.idle();
    timed.outbox.reconnected();
    await timed.outbox.idle();
    expect(timed.service.requests).toEqual(['create Held !drop-before']);
    timed.timers.advance(1_000);
    timed.outbox.reconnected();
    await timed.outbox.idle();
    expect(timed.service.requests).toEqual(['create Held !drop-before']);
    timed.timers.advance(1_000);
    await drain(timed, 10_000);
    expect(timed.service.requests).toEqual(['create Held !drop-before', 'list', 'create Held']);
    expect(timed.service.notes.size).toBe(1);
  });

  it('refuses a kind whose keys miss a temp id its payload names', () => {
    seedNote(r, '1', 'n');
    expect(() => r.outbox.submit('note.comment', { noteId: '1', tempId: 'local-x', text: 't' })).toThrow(
      /names local-x but its keys do not/,
    );
  });
});

describe('Outbox: merging unsent updates', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
    seedNote(r, '1', 'one');
  });

  it('merges successive unsent updates of one entity into one request', async () => {
    const a = r.outbox.submit('note.update', { id: '1', title: 'a' });
    const b = r.outbox.submit('note.update', { id: '1', body: 'b' });
    const c = r.outbox.submit('note.update', { id: '1', title: 'c' });
    expect([a.merged, b.merged, c.merged]).toEqual([false, true, true]);
    expect(b.entryId).toBe(a.entryId);
    r.outbox.start();
    await drain(r);
    expect(r.service.requests).toEqual(['update 1 {"title":"c","body":"b"}']);
  });

  it('never merges across another operation on the same entity', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'a' });
    r.outbox.submit('note.comment', { noteId: '1', tempId: r.outbox.newLocalRowId(), text: 'mid' });
    r.outbox.submit('note.update', { id: '1', title: 'b' });
    r.outbox.start();
    await drain(r);
    expect(r.service.requests).toEqual(['update 1 {"title":"a"}', 'comment 1 mid', 'update 1 {"title":"b"}']);
  });

  it('never merges into an entry already sent', async () => {
    let release!: () => void;
    r.service.gate = new Promise((done) => (release = done));
    r.outbox.submit('note.update', { id: '1', title: 'a' });
    r.outbox.start();
    expect(r.outbox.submit('note.update', { id: '1', title: 'b' }).merged).toBe(false);
    release();
    r.service.gate = undefined;
    await drain(r);
    expect(r.service.requests).toEqual(['update 1 {"title":"a"}', 'update 1 {"title":"b"}']);
  });
});

/**
 * Renames note 1 to 'first', held at the service, then to 'second': the first is on its way, so
 * the second is its own entry rather than merged into it. Answers the release of the service.
 */
async function twoRenames(r: Rig): Promise<() => void> {
  let release!: () => void;
  r.service.gate = new Promise<void>((resolve) => (release = resolve));
  r.outbox.submit('note.update', { id: '1', title: 'first' });
  r.outbox.start();
  await Promise.resolve();
  r.outbox.submit('note.update', { id: '1', title: 'second' });
  return release;
}

describe('Outbox: pending fields and conflicts (rule 7)', () => {
  let r: Rig;
  beforeEach(() => {
    r = rig();
    seedNote(r, '1', 'base', 'body');
  });

  it('reports the fields with a pending change until acknowledged', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'mine' });
    expect([...r.outbox.pendingFieldsFor('note', '1')]).toEqual(['title']);
    r.outbox.start();
    await drain(r);
    expect([...r.outbox.pendingFieldsFor('note', '1')]).toEqual([]);
  });

  it('remembers what was acknowledged after a mark: fields, created items, any change', async () => {
    const mark = r.outbox.ackMark();
    const tempId = r.outbox.newTempId();
    r.outbox.submit('note.update', { id: '1', title: 'mine' });
    r.outbox.submit('note.create', { tempId, title: 'new' });
    r.outbox.start();
    await drain(r);
    expect([...r.outbox.ackedSince('note', '1', mark)].sort()).toEqual(['#', 'title']);
    expect([...r.outbox.ackedSince('note', r.outbox.realIdOf(tempId), mark)].sort()).toEqual(['#', '*']);
    expect([...r.outbox.ackedSince('note', '1', r.outbox.ackMark())]).toEqual([]);
  });

  it('journals a conflict when the service moved the same field; keep mine sends mine', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'mine' });
    r.outbox.noteServerValues('note', '1', { title: 'theirs' });
    expect(r.outbox.listConflicts()).toMatchObject([
      {
        entity: 'note',
        entityId: '1',
        field: 'title',
        localValue: 'mine',
        remoteValue: 'theirs',
        resolution: null,
      },
    ]);
    r.outbox.resolveConflict(r.outbox.listConflicts()[0]!.id, 'mine');
    expect(r.outbox.listConflicts()).toEqual([]);
    r.outbox.start();
    await drain(r);
    expect(r.service.notes.get('1')?.title).toBe('mine');
  });

  it('take theirs puts the service value back in the view and on the service', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'mine' });
    r.service.notes.get('1')!.title = 'theirs';
    r.outbox.noteServerValues('note', '1', { title: 'theirs' });
    const [conflict] = r.outbox.listConflicts();
    r.outbox.resolveConflict(conflict!.id, 'theirs');
    expect(note(r.db, '1')?.title).toBe('theirs');
    expect(() => r.outbox.resolveConflict(conflict!.id, 'mine')).toThrow(/already resolved/);
    r.outbox.start();
    await drain(r);
    expect(r.service.notes.get('1')?.title).toBe('theirs');
  });

  it('a rollback after a remote change restores the service value seen last', async () => {
    r.outbox.submit('note.update', { id: '1', title: 'mine' });
    r.outbox.noteServerValues('note', '1', { title: 'newer' });
    r.service.faults.push('reject');
    r.outbox.start();
    await drain(r);
    expect(note(r.db, '1')?.title).toBe('newer');
  });

  // Campaign seed 6360: a client's own earlier change, acknowledged while a later change of the
  // same field waited, came back in a fetch and was journaled as someone else's.
  it("no conflict when the service shows this client's own acknowledged earlier change", async () => {
    const release = await twoRenames(r);
    r.service.faults.push('none', 'throttled');
    r.service.gate = undefined;
    release();
    await r.outbox.idle();
    expect(r.service.notes.get('1')?.title).toBe('first');
    expect(r.outbox.status().pending).toBe(1);
    r.outbox.noteServerValues('note', '1', { title: 'first' });
    expect(r.outbox.listConflicts()).toEqual([]);
    r.outbox.noteServerValues('note', '1', { title: 'theirs' });
    expect(r.outbox.listConflicts()).toMatchObject([{ localValue: 'second', remoteValue: 'theirs' }]);
  });

  // Campaign seed 8047: the earlier change's answer was lost (the service had applied it) and a
  // later change of the field waited behind it; a fetch showing the earlier value was journaled.
  it("no conflict when the service shows this client's own earlier change still awaiting its answer", async () => {
    const release = await twoRenames(r);
    r.outbox.noteServerValues('note', '1', { title: 'first' });
    expect(r.outbox.listConflicts()).toEqual([]);
    r.service.gate = undefined;
    release();
    await drain(r);
    expect(r.service.notes.get('1')?.title).toBe('second');
  });

  it('no conflict when the service value did not move', () => {
    r.outbox.submit('note.update', { id: '1', title: 'mine' });
    r.outbox.noteServerValues('note', '1', { title: 'base' });
    expect(r.outbox.listConflicts()).toEqual([]);
  });
});

// A fold that failed after a look-up was retried at the same
// short delay forever, since only a send counted an attempt. Every failed fold counts now.
describe('Outbox: attempts that keep failing (folds, look-ups, preparing a send)', () => {
  const backoff: BackoffPolicy = { baseMs: 1_000, maxMs: 8_000 };
  /** The wait the rig's jitter (0.5) gives the n-th attempt. */
  const waitFor = (attempt: number) => backoffDelay(attempt, () => 0.5, backoff);

  /** A rig whose folds throw (a cache write failing) while `failures.left` is above zero. */
  function flakyRig(failures: { left: number }): Rig {
    return rig({
      backoff,
      kinds: foldsFailing('disk I/O error', () => failures.left-- > 0),
    });
  }

  /** How long the only open entry waits from now. */
  const waitOf = (r: Rig): number => (r.outbox.entries()[0]?.nextAttemptAt ?? NaN) - r.clock.now();

  /**
   * Starts replay and lets the clock reach each next attempt until nothing is open; answers the
   * wait before each attempt after the first.
   */
  async function waitsUntilDone(r: Rig): Promise<number[]> {
    r.outbox.start();
    await r.outbox.idle();
    const waits: number[] = [];
    for (let i = 0; i < 20 && r.outbox.entries().length; i++) {
      waits.push(waitOf(r));
      r.timers.advance(waitOf(r));
      await r.outbox.idle();
    }
    return waits;
  }

  it('retries folds after a look-up at growing delays, up to the maximum, then acknowledges', async () => {
    const r = flakyRig({ left: 4 });
    const tempId = r.outbox.newTempId();
    // The service applies the create and its answer is lost: later attempts only look it up,
    // and the first four answers found fail to fold (a fifth would make it need attention).
    r.service.faults.push('drop-after');
    r.outbox.submit('note.create', { tempId, title: 'Folded' });
    const waits = await waitsUntilDone(r);
    expect(waits).toEqual([1, 2, 3, 4, 5].map(waitFor));
    expect(waits[2]).toBeGreaterThan(waits[1]!);
    expect(waits[3]).toBeGreaterThan(waits[2]!);
    expect(Math.max(...waits)).toBeLessThanOrEqual(backoff.maxMs);
    expect(r.outbox.status()).toMatchObject({ pending: 0, failed: 0 });
    expect(r.outbox.realIdOf(tempId)).toBe('100');
    expect(note(r.db, '100')?.title).toBe('Folded');
    expect(r.service.requests).toEqual(['create Folded !drop-after', ...Array<string>(5).fill('list')]);
  });

  // The first failure follows an answered send (which counted itself), the next ones look-ups.
  it('a fold failing after the send, then after look-ups, waits longer each time', async () => {
    const r = flakyRig({ left: 3 });
    r.outbox.submit('note.create', { tempId: r.outbox.newTempId(), title: 'Sent' });
    expect(await waitsUntilDone(r)).toEqual([1, 2, 3].map(waitFor));
    expect(r.service.requests).toEqual(['create Sent', 'list', 'list', 'list']);
    expect(r.service.notes.size).toBe(1);
    expect(note(r.db, '100')?.title).toBe('Sent');
  });

  // A kind with no look-up is sent again; each send counts once, the failed fold adds nothing.
  it('a kind with no look-up resends after a failed fold, each wait longer', async () => {
    const r = flakyRig({ left: 3 });
    seedNote(r, '1', 'old');
    r.outbox.submit('note.update', { id: '1', title: 'new' });
    expect(await waitsUntilDone(r)).toEqual([1, 2, 3].map(waitFor));
    expect(r.service.requests).toEqual(Array<string>(4).fill('update 1 {"title":"new"}'));
    expect(r.service.notes.get('1')?.title).toBe('new');
  });

  /** The wait before the n-th retry when the n-th failure was `fault` (a 429 asks for 2 s). */
  const waitAfter = (fault: Fault, attempt: number): number =>
    fault === 'throttled' ? Math.max(2_000, waitFor(attempt)) : waitFor(attempt);

  // The create was applied and its answer lost; then every look-up fails until the fourth.
  it.each<Fault>(['server-error', 'drop-before', 'throttled'])(
    'look-ups that keep failing (%s) wait longer each time',
    async (fault) => {
      const r = rig({ backoff });
      const tempId = r.outbox.newTempId();
      r.service.faults.push('drop-after', fault, fault, fault);
      r.outbox.submit('note.create', { tempId, title: 'Lost' });
      const waits = await waitsUntilDone(r);
      expect(waits).toEqual([waitFor(1), ...[2, 3, 4].map((n) => waitAfter(fault, n))]);
      expect(r.service.requests).toEqual([
        'create Lost !drop-after',
        ...Array<string>(3).fill(`list !${fault}`),
        'list',
      ]);
      expect(r.outbox.realIdOf(tempId)).toBe('100');
      expect(r.service.notes.size).toBe(1);
    },
  );

  /** A rig whose `kindName` lists the notes before each send, as CRM creates do (`prepare`). */
  const preparingRig = (kindName = 'note.create'): Rig =>
    rig({
      backoff,
      kinds: (kinds) =>
        kinds.map((kind) =>
          kind.name === kindName
            ? {
                ...kind,
                prepare: async (service: FakeService, payload: unknown) => {
                  await service.listNotes();
                  return payload;
                },
              }
            : kind,
        ),
    });

  // Nothing was sent: the entry is not "outcome unknown", so no look-up (which has no send time
  // to bound it) takes another user's matching note for the one this client never created.
  it('a failing prepare leaves the entry unsent and pending; it is sent, not looked up', async () => {
    const r = preparingRig();
    const tempId = r.outbox.newTempId();
    r.service.faults.push('server-error');
    r.outbox.submit('note.create', { tempId, title: 'Same' });
    r.outbox.start();
    await r.outbox.idle();
    expect(r.outbox.entries()).toMatchObject([{ state: 'pending', attempts: 1, sentAt: null }]);
    expect(r.outbox.status()).toMatchObject({ pending: 1, inFlight: 0 });
    await r.service.createNote('Same', '');
    r.service.requests.length = 0;
    await drain(r, 60_000);
    expect(r.service.requests).toEqual(['list', 'create Same']);
    expect(r.service.notes.size).toBe(2);
    expect(r.outbox.realIdOf(tempId)).toBe('101');
  });

  it('a prepare that keeps failing waits longer each time, the entry pending throughout', async () => {
    const r = preparingRig();
    const faults: Fault[] = ['server-error', 'throttled', 'drop-before'];
    r.service.faults.push(...faults);
    r.outbox.submit('note.create', { tempId: r.outbox.newTempId(), title: 'Later' });
    r.outbox.start();
    await r.outbox.idle();
    // Each failure leaves it pending (a loop that met it in flight would stop short).
    const waits: number[] = [];
    while (r.outbox.entries()[0]?.state === 'pending' && waits.length < 10) {
      waits.push(waitOf(r));
      r.timers.advance(waitOf(r));
      await r.outbox.idle();
    }
    expect(waits).toEqual(faults.map((f, i) => waitAfter(f, i + 1)));
    expect(r.outbox.entries()).toEqual([]);
    expect(r.service.requests).toEqual([...faults.map((f) => `list !${f}`), 'list', 'create Later']);
  });

  // An update has no look-up: after a lost answer it is simply sent again. Its prepare failing
  // changes nothing about the earlier send, which may have been applied.
  it('a failing prepare after a lost answer of a kind with no look-up leaves it in flight', async () => {
    const r = preparingRig('note.update');
    seedNote(r, '1', 'old');
    r.service.faults.push('none', 'drop-after', 'server-error');
    r.outbox.submit('note.update', { id: '1', title: 'new' });
    r.outbox.start();
    await r.outbox.idle();
    expect(r.outbox.entries()).toMatchObject([{ state: 'in_flight', attempts: 1 }]);
    r.timers.advance(waitOf(r));
    await r.outbox.idle();
    expect(r.outbox.entries()).toMatchObject([{ state: 'in_flight', attempts: 2, errorMessage: 'HTTP 503' }]);
    expect(waitOf(r)).toBe(waitFor(2));
    await drain(r, 60_000);
    expect(r.service.requests).toEqual([
      'list',
      'update 1 {"title":"new"} !drop-after',
      'list !server-error',
      'list',
      'update 1 {"title":"new"}',
    ]);
    expect(r.service.notes.get('1')?.title).toBe('new');
  });
});

// A change the service acknowledged whose answer cannot be folded into the cache was retried
// forever, shown as "sent without an answer". After MAX_FOLD_FAILURES failed folds it needs
// attention: out of automatic retry, its change kept, "try again" or "reload from the service".
describe('Outbox: answers that never fold need attention', () => {
  const backoff: BackoffPolicy = { baseMs: 1_000, maxMs: 8_000 };

  /** A rig whose folds throw while `failing.on` (a cache constraint that keeps failing). */
  function stuckRig(failing: { on: boolean }): Rig {
    return rig({ backoff, kinds: foldsFailing('UNIQUE constraint failed: notes.id', () => failing.on) });
  }

  /** Starts replay and lets the clock run far past every backoff (an hour). */
  async function runLong(r: Rig): Promise<void> {
    r.outbox.start();
    for (let i = 0; i < 60; i++) {
      await r.outbox.idle();
      r.timers.advance(60_000);
    }
    await r.outbox.idle();
  }

  /** Submits a create whose answers never fold, and runs until it is stuck. */
  async function stuckCreate(failing = { on: true }) {
    const r = stuckRig(failing);
    const tempId = r.outbox.newTempId();
    const { entryId } = r.outbox.submit('note.create', { tempId, title: 'Plan' });
    await runLong(r);
    return { r, tempId, entryId: entryId!, failing };
  }

  it(`after ${MAX_FOLD_FAILURES} failed folds leaves automatic retry, its change and error kept`, async () => {
    const { r, tempId } = await stuckCreate();
    // One create, then a look-up for each later fold: nothing more once it is stuck.
    expect(r.service.requests).toEqual(['create Plan', ...Array<string>(MAX_FOLD_FAILURES - 1).fill('list')]);
    expect(r.service.notes.size).toBe(1);
    expect(r.outbox.status()).toMatchObject({ pending: 0, inFlight: 0, failed: 0, stuck: 1 });
    expect(r.outbox.entries('stuck')).toMatchObject([
      {
        state: 'stuck',
        attempts: MAX_FOLD_FAILURES,
        foldFailures: MAX_FOLD_FAILURES,
        errorType: 'fold-failed',
        errorMessage: 'UNIQUE constraint failed: notes.id',
      },
    ]);
    // Accepted by the service: the optimistic row stays, and a pull leaves it alone.
    expect(note(r.db, tempId)?.title).toBe('Plan');
    expect(r.outbox.isPendingStructural('note', tempId)).toBe(true);
    // Nor does a restart or a reconnect bring it back.
    r.outbox.reconnected();
    await r.outbox.stop();
    const again = r.restart();
    again.start();
    r.timers.advance(600_000);
    await again.idle();
    expect(r.service.requests).toHaveLength(MAX_FOLD_FAILURES);
    expect(again.status().stuck).toBe(1);
  });

  it('holds back the later changes of its item, like a refused one', async () => {
    const { r, tempId } = await stuckCreate();
    r.outbox.submit('note.update', { id: tempId, body: 'later' });
    r.timers.advance(600_000);
    await r.outbox.idle();
    expect(r.service.requests.filter((q) => q.startsWith('update'))).toEqual([]);
    expect(r.outbox.status()).toMatchObject({ pending: 1, stuck: 1 });
  });

  it(`a fold that fails ${MAX_FOLD_FAILURES - 1} times, then folds, never needs attention`, async () => {
    let left = MAX_FOLD_FAILURES - 1;
    const r = rig({ backoff, kinds: foldsFailing('disk I/O error', () => left-- > 0) });
    seedNote(r, '1', 'old');
    r.outbox.submit('note.update', { id: '1', title: 'new' });
    await runLong(r);
    expect(r.service.requests).toHaveLength(MAX_FOLD_FAILURES);
    expect(r.outbox.entries()).toEqual([]);
    expect(r.outbox.status()).toMatchObject({ pending: 0, stuck: 0 });
    expect(note(r.db, '1')?.title).toBe('new');
  });

  it('"try again" looks the create up and folds it once: no second create, counts reset', async () => {
    const { r, tempId, entryId, failing } = await stuckCreate();
    failing.on = false;
    r.service.requests.length = 0;
    r.outbox.tryAgain(entryId);
    await r.outbox.idle();
    expect(r.service.requests).toEqual(['list']);
    expect(r.service.notes.size).toBe(1);
    expect(r.outbox.realIdOf(tempId)).toBe('100');
    expect(note(r.db, '100')?.title).toBe('Plan');
    expect(r.outbox.entries()).toEqual([]);
    expect(r.outbox.status()).toMatchObject({ pending: 0, stuck: 0 });
  });

  it('"try again" that fails again goes back to automatic retry with its counts reset', async () => {
    const { r, entryId } = await stuckCreate();
    r.outbox.tryAgain(entryId);
    await r.outbox.idle();
    expect(r.outbox.entries()).toMatchObject([
      { state: 'in_flight', attempts: 1, foldFailures: 1, errorType: 'fold-failed' },
    ]);
    expect(r.outbox.status()).toMatchObject({ pending: 1, stuck: 0 });
    // ... and needs attention again after as many failed folds.
    await runLong(r);
    expect(r.outbox.status().stuck).toBe(1);
    expect(r.service.notes.size).toBe(1);
  });

  it('an applied create its look-up no longer finds needs attention: never sent again', async () => {
    const { r, entryId, failing } = await stuckCreate();
    failing.on = false;
    // Someone renamed it on the service meanwhile: the look-up finds no match.
    r.service.notes.get('100')!.title = 'Plan (renamed)';
    r.service.requests.length = 0;
    r.outbox.tryAgain(entryId);
    await runLong(r);
    expect(r.service.requests).toEqual(['list']);
    expect(r.service.notes.size).toBe(1);
    expect(r.outbox.entries()).toMatchObject([
      { state: 'stuck', errorType: 'not-found', errorMessage: expect.stringMatching(/no longer be found/) },
    ]);
  });

  it('"reload" of an update settles it and drops the local value for the service to fill in', async () => {
    const failing = { on: true };
    const r = stuckRig(failing);
    seedNote(r, '1', 'old');
    const { entryId } = r.outbox.submit('note.update', { id: '1', title: 'new' });
    await runLong(r);
    expect(r.outbox.entries()).toMatchObject([{ id: entryId, state: 'stuck' }]);
    const sends = r.service.requests.length;
    expect(r.outbox.reload(entryId!)).toEqual({ entity: 'note', id: '1' });
    expect(r.outbox.entries()).toEqual([]);
    expect(r.outbox.pendingFieldsFor('note', '1').size).toBe(0);
    expect(note(r.db, '1')?.title).toBe('old');
    expect(r.outbox.status()).toMatchObject({ pending: 0, stuck: 0 });
    await r.outbox.idle();
    expect(r.service.requests).toHaveLength(sends);
    expect(r.service.notes.get('1')?.title).toBe('new');
  });

  it('"reload" of a create removes the local row; what needs it fails rolled back, kept for the user', async () => {
    const { r, tempId, entryId } = await stuckCreate();
    const commentId = r.outbox.newLocalRowId();
    const comment = r.outbox.submit('note.comment', { noteId: tempId, tempId: commentId, text: 'c' });
    const localComments = () => r.db.prepare('SELECT id FROM note_comments').all();
    expect(localComments()).toEqual([{ id: commentId }]);
    expect(r.outbox.reload(entryId)).toEqual({ entity: 'note', id: null });
    await r.outbox.idle();
    expect(note(r.db, tempId)).toBeUndefined();
    expect(r.outbox.entries()).toMatchObject([
      { id: comment.entryId, state: 'failed', errorType: 'blocked' },
    ]);
    // Like a refused change (rule 4): its comment on the note never created leaves the view.
    expect(localComments()).toEqual([]);
    r.outbox.discard(comment.entryId!);
    expect(localComments()).toEqual([]);
    expect(r.outbox.entries().filter((e) => e.state !== 'done')).toEqual([]);
    expect(r.service.notes.size).toBe(1);
    expect(r.service.comments).toEqual([]);
  });

  it('its actions refuse other entries, and other actions refuse it, naming the id', async () => {
    const { r, entryId } = await stuckCreate();
    for (const act of [() => r.outbox.retry(entryId), () => r.outbox.discard(entryId)]) {
      expect(act).toThrow(
        expect.objectContaining({ type: 'conflict', field: 'id', message: `Change ${entryId} is stuck` }),
      );
    }
    await r.outbox.stop();
    seedNote(r, '1', 'old');
    const { entryId: waiting } = r.outbox.submit('note.update', { id: '1', title: 'x' });
    expect(() => r.outbox.tryAgain(waiting!)).toThrow(/is pending/);
    expect(() => r.outbox.reload(waiting!)).toThrow(/is pending/);
    expect(() => r.outbox.reload(999)).toThrow(/No waiting change 999/);
    expect(r.outbox.entries().map((e) => e.state)).toEqual(['stuck', 'pending']);
  });
});
