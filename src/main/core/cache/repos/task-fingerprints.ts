import type { AnswerRanges, VouchedSpans } from '../../../../shared/api/answer-ranges';
import type { CacheDb } from '../db';
import { workSlice, yieldToLoop } from '../../loop-turns';

/**
 * The fingerprints of the task list elements the cache holds exactly as the service sent them
 * (see `FingerprintedListAnswer`): a pull that meets the same element again leaves its row alone,
 * so a steady pull costs what changed. A row written since it was stored from its element (a local
 * edit, a detail, a removal) loses its fingerprint through a trigger, and its element is read
 * again. Kept in the cache file (`task_fingerprints`, `task_list_answers`, migration 014), so the
 * first pull after a start costs what any later one does.
 */
export interface TaskFingerprints {
  /** The id of the task stored from an element with this fingerprint, while its row is unchanged. */
  idOf(fingerprint: string): string | undefined;
  /**
   * Records that these tasks were just stored exactly as their elements: call after the write
   * (a write forgets the row's fingerprint, so one recorded before it would be lost).
   */
  stored(entries: readonly (readonly [id: string, fingerprint: string])[]): void;
  /** The ids of the list whose whole answer had this fingerprint, while all its rows are as stored. */
  wholeAnswer(fingerprint: string): readonly string[] | undefined;
  /**
   * Records that the list `key` (a project's) answered `fingerprint` and that every one of its
   * elements is stored as it was (call after `stored`). Its tasks join the list a slice at a
   * time, the event loop given back between slices (20,000 of them were one 100-250 ms write).
   * `ranges`, the answer by ranges, is kept in memory with it, for the next read to compare.
   * With `vouched` (the spans of the last record a read vouched for), `ids` are the answer's ids
   * outside those spans: the spans' tasks are not gone through one by one. Resolves with how
   * many distinct tasks the answer holds when the list is recorded intact (its rows are then
   * exactly those tasks), else undefined: a caller need not count the answer's ids again.
   */
  storedWhole(
    key: string,
    fingerprint: string,
    ids: readonly string[],
    ranges?: AnswerRanges,
    vouched?: VouchedSpans,
  ): Promise<number | undefined>;
  /**
   * What a read of the list `key` knows already: as `idOf` and `wholeAnswer`, with the elements
   * of that list's last whole answer looked up in memory rather than one query each (see
   * `ListMembers`), and `lostSince` telling which of those it answered lost their row meanwhile.
   * Those members are read from the cache file a slice at a time when not already held (after
   * a start, or a write elsewhere), by `prepare`, once the answer is known not to be the last
   * whole one (a list unchanged needs only its ids, read as before).
   */
  forList(key: string): ListElementsKnown;
  /** How many tasks are held (for tests). */
  readonly size: number;
  /** How many times a list's rows were counted in the cache file (for tests). */
  readonly countReads: number;
  /** How many of an answer's ids `storedWhole` looked up among the list's members (for tests). */
  readonly idsLookedUp: number;
  /** The most ids `storedWhole` went through without giving the loop back (for tests). */
  readonly longestStretch: number;
}

/** What a list read asks of what the cache holds (the shape of the API client's `KnownElements`). */
export interface ListElementsKnown {
  idOf(fingerprint: string): string | undefined;
  wholeAnswer(fingerprint: string): readonly string[] | undefined;
  /** The ids answered by `idOf` since the last ask whose rows were written meanwhile. */
  lostSince(): ReadonlySet<string>;
  /**
   * As `idOf` for the elements `from` to `to` (exclusive) of `recorded` (the answer `ranges`
   * gave) at once, when each is still the list's member with its recorded fingerprint as far as
   * the members in memory tell (none left them since the record was kept): they then count as
   * answered for `lostSince`, as `idOf`'s do. False when that is not known: look each up.
   */
  vouchRecorded(recorded: AnswerRanges, from: number, to: number): boolean;
  /** Called before the first `idOf`: the list's members are read now if not held. */
  prepare(): Promise<void>;
  /**
   * False when the list has no whole answer recorded as intact: its next answer is then read as
   * it arrives (one the same as another list's intact answer is only read element by element).
   */
  mayBeWhole(): boolean;
  /** The list's intact answer by ranges, when kept since it was stored (not after a start). */
  ranges(): AnswerRanges | undefined;
}

/**
 * The tasks of one list's last whole answer (`list_key`), by fingerprint, kept in memory between
 * pulls so a list read again looks its elements up in a map (20,000 queries were 90-150 ms of a
 * changed list's read) and joins only the tasks new to it. It is true while the count of rows
 * with that `list_key` is its size: a row only ever leaves a list (a write or removal of the
 * task, a new fingerprint, another list taking it: the count falls) except by `storedWhole` of
 * this key, which updates it; otherwise it is read again from the cache file.
 */
interface ListMembers {
  byFingerprint: Map<string, string>;
  /** The fingerprint of each member, by task id. */
  ofTask: Map<string, string>;
  /**
   * The list's answer by ranges kept when these members were exactly its elements (set by
   * `storedWhole`), and the tasks that left the members since: every other element of it is
   * still a member as recorded (members read again are a new object, with no record).
   */
  record?: { ranges: AnswerRanges; left: Set<string> };
}

/** A list's members read from the cache file per statement (see `TaskFingerprints.forList`). */
const LOAD_SLICE = 2_000;
/** Tasks joined to their list per statement (a few milliseconds each). */
const JOIN_SLICE = 2_000;
/**
 * Ids `storedWhole` goes through between looks at the clock: a list of 20,000 tasks stored whole
 * (a first sync's) was gone through in one stretch before its first join and another after its
 * last, 20-50 ms each, which every other call waited for.
 */
export const PACE_IDS = 500;

/**
 * Gives the loop back, in `storedWhole`'s passes over a list's ids, once this turn's budget is
 * spent: `step()` is called per id and answers true when the caller must `await breathe()` (so
 * no id costs an await of its own). `stretch` tells the most ids gone through between two
 * givings-back so far (for tests).
 */
function createPacer(stretch: { longest: number }) {
  const slice = workSlice();
  let since = 0;
  let run = 0;
  return {
    /** Whether the loop was given back in this pass (another list may have stored meanwhile). */
    gaveBack: false,
    step(): boolean {
      run++;
      if (++since < PACE_IDS) return false;
      since = 0;
      return slice.due();
    },
    async breathe(): Promise<void> {
      stretch.longest = Math.max(stretch.longest, run);
      run = 0;
      this.gaveBack = true;
      await yieldToLoop();
      slice.reset();
    },
    /** The pass is over: its last stretch counted. */
    end(): void {
      stretch.longest = Math.max(stretch.longest, run);
      run = 0;
    },
  };
}

/**
 * The tasks of a list (the first parameter) among some ids (the second, a JSON array), and the
 * statement making those of them in the list leave it. Each id is looked up by its key
 * (`+list_key` keeps the planner off the list's index): a few tasks joining or leaving a list of
 * 20,000 read a few rows, not the whole list (4-5 ms a statement).
 */
export const JOINED_OF = `SELECT fingerprint, task_id FROM task_fingerprints
  WHERE +list_key = ? AND task_id IN (SELECT value FROM json_each(?))`;
export const LEAVE_EXTRAS = `UPDATE task_fingerprints SET list_key = NULL
  WHERE +list_key = ? AND task_id IN (SELECT value FROM json_each(?))`;

/** The spans in order when none overlaps another (each id of them then named once), else undefined. */
function disjoint(spans: VouchedSpans['spans']): VouchedSpans['spans'] | undefined {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  for (let at = 1; at < sorted.length; at++) if (sorted[at]![0] < sorted[at - 1]![1]) return undefined;
  return sorted;
}

export function createTaskFingerprints(db: CacheDb): TaskFingerprints {
  const idOf = db.prepare('SELECT task_id FROM task_fingerprints WHERE fingerprint = ?').pluck();
  // A task stored again from another element leaves its list's answer (no longer as held) and
  // is proved part of a list again by `storedWhole`. Two tasks with the same text cannot be (the
  // text holds the id): a stale row with the fingerprint is dropped the same way.
  const leaveAnswer = db.prepare(
    `UPDATE task_list_answers SET intact = 0 WHERE intact = 1 AND list_key IN
       (SELECT list_key FROM task_fingerprints WHERE task_id = @id OR fingerprint = @fingerprint)`,
  );
  const drop = db.prepare('DELETE FROM task_fingerprints WHERE task_id = @id OR fingerprint = @fingerprint');
  const put = db.prepare('INSERT INTO task_fingerprints (task_id, fingerprint) VALUES (?, ?)');
  const answerOf = db.prepare('SELECT fingerprint, intact FROM task_list_answers WHERE list_key = ?');
  const intactKey = db
    .prepare('SELECT list_key FROM task_list_answers WHERE fingerprint = ? AND intact = 1 LIMIT 1')
    .pluck();
  const countOfList = db.prepare('SELECT count(*) FROM task_fingerprints WHERE list_key = ?').pluck();
  // This connection's changes, and the version of the file these tables are in (the cache file,
  // attached as `cache` beside the outbox's; `main` in a cache held in memory), which moves when
  // another connection (another process on the same data folder) commits a change to it.
  const inCacheFile =
    db.prepare("SELECT 1 FROM pragma_database_list WHERE name = 'cache'").get() !== undefined;
  const ownChanges = db.prepare('SELECT total_changes()').pluck();
  const fileVersion = db.prepare(`PRAGMA ${inCacheFile ? 'cache.' : ''}data_version`).pluck();
  const totalChanges = { get: (): string => `${ownChanges.get() as number}:${fileVersion.get() as number}` };
  /**
   * Each list's row count as last read, with the connection's count of rows changed then (every
   * row inserted, updated or deleted, triggers' included) and the file's data version: neither
   * moved since, the count holds. A count of 20,000 rows costs 1-2 ms, and a changed list's
   * read asks a dozen times. Not kept from inside a transaction, which may yet be rolled back.
   */
  const counts = new Map<string, { changes: string; count: number }>();
  let countReads = 0;
  const countOf = (key: string): number => {
    const changes = totalChanges.get() as string;
    const known = counts.get(key);
    if (known?.changes === changes) return known.count;
    countReads++;
    const count = countOfList.get(key) as number;
    if (db.inTransaction) counts.delete(key);
    else counts.set(key, { changes, count });
    return count;
  };
  const idsOfList = db.prepare('SELECT task_id FROM task_fingerprints WHERE list_key = ?').pluck();
  const membersOfList = db
    .prepare('SELECT fingerprint, task_id FROM task_fingerprints WHERE list_key = ?')
    .raw();
  const membersAfter = db
    .prepare(
      `SELECT rowid, fingerprint, task_id FROM task_fingerprints
         WHERE list_key = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
    )
    .raw();
  const fingerprintOfTask = db.prepare('SELECT fingerprint FROM task_fingerprints WHERE task_id = ?').pluck();
  /** The fingerprints of many tasks in one statement (`ids` a JSON array), as [id, fingerprint] rows. */
  const fingerprintsOfTasks = db
    .prepare(
      `SELECT task_id, fingerprint FROM task_fingerprints
         WHERE task_id IN (SELECT value FROM json_each(?))`,
    )
    .raw();
  // A row taken from another list (its answer named the task too: a folder moved between roots,
  // a task moved since that answer was read) leaves that list short: its answer is no longer
  // intact, or the same answer next time would be taken as whole without the row.
  const othersLose = db.prepare(
    `UPDATE task_list_answers SET intact = 0 WHERE intact = 1 AND list_key IN
       (SELECT list_key FROM task_fingerprints WHERE task_id IN (SELECT value FROM json_each(@ids))
          AND list_key IS NOT NULL AND list_key IS NOT @key)`,
  );
  const joinMissing = db.prepare(
    `UPDATE task_fingerprints SET list_key = @key
       WHERE task_id IN (SELECT value FROM json_each(@ids)) AND list_key IS NOT @key`,
  );
  const joinedOf = db.prepare(JOINED_OF).raw();
  const leaveExtras = db.prepare(LEAVE_EXTRAS);
  const setIntact = db.prepare(
    'UPDATE task_list_answers SET intact = 1 WHERE list_key = ? AND fingerprint = ?',
  );
  const putAnswer = db.prepare(
    `INSERT INTO task_list_answers (list_key, fingerprint, intact) VALUES (?, ?, ?)
     ON CONFLICT (list_key) DO UPDATE SET fingerprint = excluded.fingerprint, intact = excluded.intact`,
  );
  const count = db.prepare('SELECT count(*) FROM task_fingerprints').pluck();

  /** The members of lists read or stored since the cache opened (see `ListMembers`). */
  const lists = new Map<string, ListMembers>();
  /** The intact answer of each list by ranges (see `AnswerRanges`), as last stored. */
  const rangesOf = new Map<string, AnswerRanges>();
  /** Which of `lists` holds each task (a row is in one list at most). */
  const holder = new Map<string, ListMembers>();
  /** Takes a task out of the members kept in memory (its row left the list in the cache file). */
  const leave = (members: ListMembers, id: string): void => {
    const fingerprint = members.ofTask.get(id);
    if (fingerprint === undefined) return;
    members.ofTask.delete(id);
    members.byFingerprint.delete(fingerprint);
    members.record?.left.add(id);
    if (holder.get(id) === members) holder.delete(id);
  };
  /** Puts a task in these members (its row joined their list), out of any other's. */
  const join = (members: ListMembers, fingerprint: string, id: string): void => {
    const other = holder.get(id);
    if (other && other !== members) leave(other, id);
    members.byFingerprint.set(fingerprint, id);
    members.ofTask.set(id, fingerprint);
    holder.set(id, members);
  };
  /** Forgets the members of list `key` (read again from the cache file when next needed). */
  const forget = (key: string): void => {
    const members = lists.get(key);
    if (!members) return;
    for (const id of members.ofTask.keys()) if (holder.get(id) === members) holder.delete(id);
    lists.delete(key);
  };
  /** Holds `rows` (fingerprint, task id) as the members of list `key`. */
  const hold = (key: string, rows: Iterable<readonly [string, string]>): ListMembers => {
    forget(key);
    const members: ListMembers = { byFingerprint: new Map(), ofTask: new Map() };
    for (const [fingerprint, id] of rows) join(members, fingerprint, id);
    lists.set(key, members);
    return members;
  };
  const stored = db.transaction((entries: readonly (readonly [string, string])[]) => {
    for (const [id, fingerprint] of entries) {
      // Its row leaves its list: so it does in memory, which stays true (the write that stored
      // the task dropped its old row through the trigger). Another task's row with the same
      // fingerprint cannot be (the text holds the id); were it, the count would tell.
      const members = holder.get(id);
      if (members) leave(members, id);
      leaveAnswer.run({ id, fingerprint });
      drop.run({ id, fingerprint });
      put.run(id, fingerprint);
    }
  });
  // The answer is recorded not intact while its tasks join it: a row written meanwhile loses its
  // fingerprint (the triggers) and with it its place in the list, so the count at the end, in the
  // same transaction as the mark, tells whether every task is still held as stored.
  const beginWhole = db.transaction((key: string, fingerprint: string) => {
    const old = answerOf.get(key) as { fingerprint: string; intact: number } | undefined;
    if (old?.intact === 1 && old.fingerprint === fingerprint) return false;
    putAnswer.run(key, fingerprint, 0);
    return true;
  });
  // Rows of the list that the answer no longer holds (a task moved to another list, or gone from
  // the service and not yet removed) leave it: then every row of the list is one of the answer's,
  // and the count proves the list exact.
  /** Joins a slice of an answer's tasks (`ids`, a JSON array) to list `key`, out of any other. */
  const joinSlice = db.transaction((args: { key: string; ids: string }) => {
    othersLose.run(args);
    joinMissing.run(args);
  });
  const endWhole = db.transaction(
    (key: string, fingerprint: string, extras: readonly string[], total: number) => {
      if (extras.length) leaveExtras.run(key, JSON.stringify(extras));
      if (countOf(key) === total) setIntact.run(key, fingerprint);
    },
  );

  /** Whether list `key`'s answer recorded as intact is the one with this fingerprint. */
  const intact = (key: string, fingerprint: string): boolean => {
    const answer = answerOf.get(key) as { fingerprint: string; intact: number } | undefined;
    return answer?.intact === 1 && answer.fingerprint === fingerprint;
  };
  /** The members of list `key` as the cache holds them now (read again when they may have changed). */
  const membersOf = (key: string): ListMembers => {
    const known = lists.get(key);
    if (known && countOf(key) === known.ofTask.size) return known;
    return hold(key, membersOfList.all(key) as [string, string][]);
  };
  /**
   * As `membersOf`, read a slice at a time when not held (20,000 rows at once were a 25-100 ms
   * block). Kept only when the count at the end matches: nothing but this key's `storedWhole`
   * (not running meanwhile: the list is read before it is stored) adds a row to the list.
   */
  const loadMembers = async (key: string): Promise<void> => {
    const known = lists.get(key);
    if (known && countOf(key) === known.ofTask.size) return;
    forget(key);
    const read: (readonly [string, string])[] = [];
    for (let after = 0; ;) {
      const rows = membersAfter.all(key, after, LOAD_SLICE) as [number, string, string][];
      for (const [, fingerprint, id] of rows) read.push([fingerprint, id]);
      if (rows.length < LOAD_SLICE) break;
      after = rows[rows.length - 1]![0];
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (countOf(key) === read.length) hold(key, read);
  };
  const wholeAnswer = (fingerprint: string) => {
    const key = intactKey.get(fingerprint) as string | undefined;
    if (key === undefined) return undefined;
    const known = lists.get(key);
    // The members held when still true; otherwise only the ids (no fingerprints, no maps).
    return known && countOf(key) === known.ofTask.size
      ? [...known.ofTask.keys()]
      : (idsOfList.all(key) as string[]);
  };

  let idsLookedUp = 0;
  const stretch = { longest: 0 };
  /**
   * The answer's distinct ids as `storedWhole` needs them: how many, those not members yet
   * (`joining`), how many are members, and (only when some member may have left the answer) all
   * of them. With `vouched`, `ids` are those outside its spans, and the spans' ids, each a
   * member as recorded unless it left the members since (`record.left`), are gone through
   * against the few ids that left or lie outside the spans: no look-up among the members and no
   * set entry per element, but still a pass over every span element when some id lies outside
   * the spans (a check in each of two small sets). The loop is given back as `pace` says; the
   * members may lose tasks meanwhile (stored from another list), so a member counted here may
   * be one no more: `storedWhole` then goes through the members for those the answer lacks.
   */
  const distinctAnswer = async (
    members: ListMembers,
    ids: readonly string[],
    vouched: VouchedSpans | undefined,
    pace: ReturnType<typeof createPacer>,
  ) => {
    const rest = new Set<string>();
    const joining: string[] = [];
    let inMembers = 0;
    for (const id of ids) {
      if (pace.step()) await pace.breathe();
      if (rest.has(id)) continue;
      rest.add(id);
      idsLookedUp++;
      if (members.ofTask.has(id)) inMembers++;
      else joining.push(id);
    }
    const record = members.record;
    const spans = vouched && record?.ranges === vouched.recorded ? disjoint(vouched.spans) : undefined;
    if (vouched && !spans) {
      // Not the record these members keep (read again meanwhile): each id is looked up.
      for (const [from, to] of vouched.spans)
        for (let at = from; at < to; at++) {
          if (pace.step()) await pace.breathe();
          const id = vouched.recorded.ids[at]!;
          if (rest.has(id)) continue;
          rest.add(id);
          idsLookedUp++;
          if (members.ofTask.has(id)) inMembers++;
          else joining.push(id);
        }
    }
    let size = rest.size;
    if (spans) {
      const { left } = record!;
      const recordedIds = vouched!.recorded.ids;
      for (const [from, to] of spans) {
        if (!rest.size && !left.size) {
          size += to - from;
          inMembers += to - from;
          continue;
        }
        for (let at = from; at < to; at++) {
          if (pace.step()) await pace.breathe();
          const id = recordedIds[at]!;
          // Named outside the spans too: counted there.
          if (rest.has(id)) continue;
          size++;
          // Every task that left the members since the record is in `left`; one that joined
          // again since is a member.
          if (!left.has(id) || members.ofTask.has(id)) inMembers++;
          else {
            idsLookedUp++;
            joining.push(id);
          }
        }
      }
    }
    return {
      size,
      joining,
      members: inMembers,
      async all(): Promise<ReadonlySet<string>> {
        if (!spans) return rest;
        const all = new Set(rest);
        for (const [from, to] of spans)
          for (let at = from; at < to; at++) {
            if (pace.step()) await pace.breathe();
            all.add(vouched!.recorded.ids[at]!);
          }
        return all;
      },
    };
  };

  const repo: TaskFingerprints = {
    idOf: (fingerprint) => idOf.get(fingerprint) as string | undefined,
    stored(entries) {
      if (entries.length) stored(entries);
    },
    wholeAnswer,
    async storedWhole(key, fingerprint, ids, ranges, vouched) {
      if (!beginWhole(key, fingerprint)) {
        // The same answer as the intact one: its ranges, when read by ranges, are those too.
        if (ranges?.whole === fingerprint && !rangesOf.has(key)) rangesOf.set(key, ranges);
        // Intact: the list's rows were counted equal to the answer's distinct tasks when it was
        // recorded so, and none has left since (a row leaving marks the answer not intact).
        return countOf(key);
      }
      rangesOf.delete(key);
      // Only the tasks not in the list yet join it (those just stored, those of another list):
      // the members as last known, when still true, say which; otherwise every id is looked up.
      const members = membersOf(key);
      const pace = createPacer(stretch);
      const answered = await distinctAnswer(members, ids, vouched, pace);
      const { joining } = answered;
      let joined = 0;
      /** The fingerprint of each row that joined: it may hold another copy than the answer's. */
      const joinedAs = new Map<string, string>();
      for (let at = 0; at < joining.length; at += JOIN_SLICE) {
        // The loop given back in the core's shared turns (loop-turns.ts): timers and I/O waiting,
        // and the other work's turn, run before the next slice.
        if (at > 0) await pace.breathe();
        const slice = JSON.stringify(joining.slice(at, at + JOIN_SLICE));
        joinSlice({ key, ids: slice });
        for (const [fp, id] of joinedOf.all(key, slice) as [string, string][]) {
          join(members, fp, id);
          joinedAs.set(id, fp);
          joined++;
        }
      }
      // A row joined by its task id may hold another copy than this answer's element (another
      // list's read stored an older one after this list's read stored its own, or another process
      // did): it leaves the list again, so the count is short, the list is not intact, no record
      // vouches for it, and the next pull reads that element again. Told only when the answer's
      // elements are known (read by ranges).
      // An answer naming a task twice (with two texts) holds both: the row is one of its copies
      // if it holds either.
      const otherCopies: string[] = [];
      if (joinedAs.size && ranges?.whole === fingerprint) {
        const answeredAs = new Map<string, string[]>();
        for (let at = 0; at < ranges.ids.length; at++) {
          if (pace.step()) await pace.breathe();
          const id = ranges.ids[at]!;
          if (!joinedAs.has(id)) continue;
          const fps = answeredAs.get(id);
          if (fps) fps.push(ranges.fingerprints[at]!);
          else answeredAs.set(id, [ranges.fingerprints[at]!]);
        }
        for (const [id, fps] of answeredAs) if (!fps.includes(joinedAs.get(id)!)) otherCopies.push(id);
      }
      for (const id of otherCopies) leave(members, id);
      joined -= otherCopies.length;
      // The members in memory hold every row of the list in the cache file (and maybe rows
      // written since, which the file no longer counts): those not in the answer leave it. The
      // answer's ids among them are those that were members and those that just joined; when
      // they are all the members, none is to leave and the members are not gone through. Only
      // when the loop was never given back: meanwhile another list's store may have taken a
      // member counted in `inAnswer` (one too many) while one the answer lacks is still held
      // (one too few), and the counts would agree with that task in the list.
      const inAnswer = answered.members + joined;
      const extras: string[] = [];
      if (pace.gaveBack || members.ofTask.size !== inAnswer) {
        const all = await answered.all();
        for (const id of [...members.ofTask.keys()]) {
          if (pace.step()) await pace.breathe();
          if (!all.has(id)) extras.push(id);
        }
      }
      pace.end();
      for (const id of extras) leave(members, id);
      endWhole(key, fingerprint, otherCopies.length ? [...extras, ...otherCopies] : extras, answered.size);
      if (!intact(key, fingerprint)) return undefined;
      if (ranges?.whole === fingerprint && ranges.ids.length === answered.size) {
        rangesOf.set(key, ranges);
        // The members are now the answer's elements, each once (its ids distinct, the count
        // proved): a range of it met again can be vouched for whole (`vouchRecorded`).
        if (lists.get(key) === members) members.record = { ranges, left: new Set() };
      }
      return answered.size;
    },
    forList(key) {
      let members: ListMembers | undefined;
      /**
       * Tasks answered from the members in memory, with their fingerprints (for `lostSince`), in
       * two arrays rather than a pair each: one per element of a list read.
       */
      const answeredIds: string[] = [];
      const answeredFingerprints: string[] = [];
      /** Spans of the recorded answer vouched for at once (`vouchRecorded`), for `lostSince`. */
      const answeredSpans: { recorded: AnswerRanges; from: number; to: number }[] = [];
      /** Tasks answered from outside the members (another list's row), with their fingerprints. */
      const answeredElsewhere: (readonly [id: string, fingerprint: string])[] = [];
      return {
        idOf(fp) {
          members ??= membersOf(key);
          const id = members.byFingerprint.get(fp);
          if (id === undefined) {
            const other = repo.idOf(fp);
            if (other !== undefined) answeredElsewhere.push([other, fp]);
            return other;
          }
          answeredIds.push(id);
          answeredFingerprints.push(fp);
          return id;
        },
        vouchRecorded(recorded, from, to) {
          members ??= membersOf(key);
          const record = members.record;
          if (record?.ranges !== recorded || lists.get(key) !== members) return false;
          const { left } = record;
          // A few tasks left (those stored again in this read, their elements elsewhere): none of
          // them may be among these elements. One pass over the ids, no look-up by fingerprint.
          if (left.size) for (let at = from; at < to; at++) if (left.has(recorded.ids[at]!)) return false;
          answeredSpans.push({ recorded, from, to });
          return true;
        },
        wholeAnswer: (fp) => repo.wholeAnswer(fp),
        prepare: () => loadMembers(key),
        mayBeWhole: () => (answerOf.get(key) as { intact: number } | undefined)?.intact === 1,
        ranges() {
          const kept = rangesOf.get(key);
          if (!kept) return undefined;
          if (intact(key, kept.whole)) return kept;
          // No longer the list as stored: never of use again, so its memory is given back.
          rangesOf.delete(key);
          return undefined;
        },
        lostSince() {
          const ids = answeredIds.splice(0);
          const fingerprints = answeredFingerprints.splice(0);
          const spans = answeredSpans.splice(0);
          const lost = new Set<string>();
          // Another list's rows, read back in one statement: a task moving between lists, or
          // every element of a list whose rows were stored but never joined to it (a list with
          // an element the reader skips is never stored whole: its tasks stay outside it).
          const elsewhere = answeredElsewhere.splice(0);
          if (elsewhere.length) {
            const now = new Map(
              fingerprintsOfTasks.all(JSON.stringify(elsewhere.map(([id]) => id))) as [string, string][],
            );
            for (const [id, fp] of elsewhere) if (now.get(id) !== fp) lost.add(id);
          }
          if (!members) return lost;
          // A task answered that left the members since (stored meanwhile from another element,
          // another list's or this one's: its row left the list and the members with it, so the
          // counts below still agree) is lost. A span with a task already left is never vouched
          // for, so each one of a span here left after.
          if (lists.get(key) === members)
            for (let at = 0; at < ids.length; at++)
              if (members.ofTask.get(ids[at]!) !== fingerprints[at]) lost.add(ids[at]!);
          const left = members.record?.left;
          if (left?.size)
            for (const { recorded, from, to } of spans)
              for (let at = from; at < to; at++) if (left.has(recorded.ids[at]!)) lost.add(recorded.ids[at]!);
          // None left the list since it was read: every task answered from it is still as stored.
          if (countOf(key) === members.ofTask.size) return lost;
          forget(key);
          for (let at = 0; at < ids.length; at++)
            if (fingerprintOfTask.get(ids[at]!) !== fingerprints[at]) lost.add(ids[at]!);
          for (const { recorded, from, to } of spans)
            for (let at = from; at < to; at++)
              if (fingerprintOfTask.get(recorded.ids[at]!) !== recorded.fingerprints[at])
                lost.add(recorded.ids[at]!);
          return lost;
        },
      };
    },
    get size() {
      return count.get() as number;
    },
    get countReads() {
      return countReads;
    },
    get idsLookedUp() {
      return idsLookedUp;
    },
    get longestStretch() {
      return stretch.longest;
    },
  };
  return repo;
}
