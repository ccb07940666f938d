import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { describeZodError } from '../../../shared/errors';
import {
  createRangeRecorder,
  createRangeVerifier,
  prefixOf,
  type RangesDiffer,
  type AnswerRanges,
  type RangesPrefix,
  type VouchedSpans,
} from './answer-ranges';
import { createElementCutter, fingerprintOf, workSlice, yieldToLoop } from './list-elements';
import { nodeFetch } from './node-fetch';
import type { Answer } from './service-clock';
import {
  AbortedError,
  NetworkError,
  neverConnected,
  RejectedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from './errors';

/** What an upload PUT sends: bytes in memory, or a stream read as it goes (progress). */
export type UploadBody = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array<ArrayBuffer>>;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ConnectionSettings {
  /** The service address ending with `/2.0`. */
  baseUrl: string;
  token: string;
  /** `svc-api-token` (the spec) or `gd-api-token` (GoodDay). */
  tokenHeader?: string;
  timeoutMs?: number;
  fetch?: FetchLike;
  /** Told one line per failed request; never given the token. */
  log?: (message: string) => void;
  /**
   * Shown every 2xx answer's text with its `Date` header (the service clock learns from them);
   * one that throws is ignored, the answer stands. A long list read as it arrives is shown a
   * slice at a time: the elements read in each slice, as an array (those held as stored were
   * shown when they were first read).
   */
  onAnswer?: (answer: Answer) => void;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A long list is read a slice of this many elements not held at a time (parsed, checked and
 * handed over, then let go), and its held elements are checked for writes since every this many.
 */
const READ_SLICE = 250;
const HELD_SLICE = 5_000;
/** Bytes of an answer kept to name it when it is not JSON. */
const HEAD_BYTES = 320;
const EMPTY = new Uint8Array(0);
const MAX_REDIRECTS = 5;

/** An element of a list answer that did not match its schema: skipped, the rest still read. */
export interface UnreadableItem {
  /** Its place in the answer's array. */
  index: number;
  /** Its `id` when it has a string one. */
  id: string | null;
  /** The first field at fault inside the item, e.g. `status.name`. */
  field: string;
  /** Why, e.g. `status.name: Invalid input: expected string, received null`. */
  message: string;
}

/** What one list read gave: the items read and those skipped. */
export interface ListAnswer<T> {
  items: T[];
  skipped: UnreadableItem[];
}

/** A list answer that came whole and was fingerprinted, not read yet (see `unreadList`). */
export interface UnreadList<T> {
  /** SHA-1 of the answer's text: the same answer, the same fingerprint. */
  fingerprint: string;
  /** Parses and checks its elements, as `list` does (a body that is not an array throws). */
  read(): ListAnswer<T>;
  /** As `read`, the elements a slice at a time, the loop given back when the turn is spent. */
  readInSlices(): Promise<ListAnswer<T>>;
}

/** Elements of a list answer the caller already holds as they are, by fingerprint. */
export interface KnownElements {
  /** The id of the item stored from an element with this fingerprint, while it is stored so. */
  idOf(fingerprint: string): string | undefined;
  /**
   * The ids of the items of a whole answer with this fingerprint (`wholeFingerprintOf`), when
   * every one of them is still stored as that answer had it: nothing of it is read again.
   */
  wholeAnswer?(fingerprint: string): readonly string[] | undefined;
  /**
   * Asked after each run of look-ups, before the next slice is read: the ids `idOf` answered since
   * the last ask whose items are no longer held as stored (written while the answer was read).
   * Their elements are read after all.
   */
  lostSince?(): ReadonlySet<string>;
  /**
   * The elements `from` to `to` (exclusive) of `recorded` (the answer `ranges` gave) vouched for
   * at once, as `idOf` would one by one: true when each is still held as recorded (then they
   * count as answered for `lostSince`); false to look each up.
   */
  vouchRecorded?(recorded: AnswerRanges, from: number, to: number): boolean;
  /** Called once the answer is known not to be held whole, before the first `idOf`. */
  prepare?(): Promise<void>;
  /**
   * False when no answer of this list can be one `wholeAnswer` holds (none recorded for it):
   * then its elements are read as the bytes arrive, not once the answer is whole.
   */
  mayBeWhole?(): boolean;
  /**
   * The ranges of the answer `wholeAnswer` would hold (see `AnswerRanges`), when recorded: that
   * answer is then compared as it arrives rather than held until its last byte.
   */
  ranges?(): AnswerRanges | undefined;
}

/** Takes one slice of a list's items read (see `fingerprintedList`), with each one's fingerprint. */
export type ListSliceReader<T> = (slice: { items: T[]; fingerprints: string[] }) => void | Promise<void>;

/** A list read element by element with fingerprints (see `createHttp().fingerprintedList`). */
export interface FingerprintedListAnswer<T> extends ListAnswer<T> {
  /** The fingerprint of each of `items`, in order (both empty when `each` took them). */
  fingerprints: string[];
  /** Ids of the elements `known` holds already: neither parsed nor in `items`. */
  unchanged: string[];
  /** The fingerprint of the whole answer (null without `known`). */
  whole: string | null;
  /** How many elements the answer held. */
  total: number;
  /**
   * Ids of elements equal to those of the last answer, let go as they came, whose rows were
   * written while the answer was read: in the list, but not held as sent, and not read again.
   */
  unread: string[];
  /** The answer by ranges when read element by element with `known` (null otherwise). */
  ranges: AnswerRanges | null;
  /**
   * Spans of the last recorded answer among `unchanged`, vouched for at once and still held as
   * recorded when last asked (`KnownElements.vouchRecorded`, `lostSince`), and the ids of
   * `unchanged` outside them (null and empty when none was vouched for so).
   */
  vouched: VouchedSpans | null;
  unvouched: string[];
}

/**
 * One HTTP exchange with the service: adds the token header, applies the timeout and the
 * caller's AbortSignal, classifies failures into the error classes and parses the body with the
 * given schema. The token lives only in the header, so no URL, message or log line carries it.
 */
export function createHttp(settings: ConnectionSettings) {
  const base = settings.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = settings.fetch ?? nodeFetch;
  const header = settings.tokenHeader ?? 'svc-api-token';
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let requests = 0;

  /**
   * Sends one request; `init.url` overrides the service address (upload addresses). Requests
   * that carry the token never follow a redirect to another origin: fetch would send the token
   * header along (it drops only `authorization` and cookies), so such an answer is refused, naming
   * the address. A redirect within the service's origin is followed (at most 5).
   */
  async function send(
    method: string,
    path: string,
    options: RequestOptions,
    init: {
      url?: string;
      headers?: Record<string, string>;
      body?: UploadBody | string;
      /** The timeout covers the wait for the headers only (a download's body may take long). */
      headersOnly?: boolean;
      /** What the answer may be (default JSON). */
      accept?: string;
    } = {},
  ): Promise<{ res: Response; release: () => void; pause: () => void; resume: () => void }> {
    const url = new URL(init.url ?? base + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const lease = requestSignal(options.signal, timeoutMs);
    const { signal } = lease;
    const withToken = init.headers === undefined;
    const headers: Record<string, string> = init.headers ?? {
      [header]: settings.token,
      accept: init.accept ?? 'application/json',
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      let target = url;
      let currentMethod = method;
      let body: UploadBody | string | null =
        init.body ?? (options.body === undefined ? null : JSON.stringify(options.body));
      for (let hop = 0; ; hop++) {
        requests++;
        let res: Response;
        try {
          // A streamed body is sent with its length (no chunked encoding): upload stores want it.
          const streamed = body instanceof ReadableStream;
          res = await doFetch(target.toString(), {
            method: currentMethod,
            headers,
            body,
            signal,
            ...(withToken ? { redirect: 'manual' } : {}),
            ...(streamed ? { duplex: 'half' } : {}),
          } as RequestInit);
        } catch (err) {
          if (options.signal?.aborted) throw new AbortedError(method, path, 'cancelled');
          if (lease.timedOut) throw new TimeoutError(method, path, `no answer within ${timeoutMs} ms`);
          const cause =
            err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
          throw new NetworkError(method, path, cause, neverConnected(err));
        }
        const location = res.headers.get('location');
        if (!withToken || !REDIRECTS.has(res.status) || location === null)
          return { res, release: lease.release, pause: lease.pause, resume: lease.resume };
        const next = new URL(location, target);
        if (next.origin !== url.origin) {
          throw new RejectedError(
            method,
            path,
            res.status,
            `the service redirected to another address (${next.origin}); the token is not sent there. Check the account's service address`,
          );
        }
        if (hop >= MAX_REDIRECTS) throw new RejectedError(method, path, res.status, 'too many redirects');
        // As fetch does: 303, and 301/302 after a POST, go on as a GET without a body.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && currentMethod === 'POST')) {
          currentMethod = 'GET';
          body = null;
          delete headers['content-type'];
        }
        target = next;
      }
    } catch (err) {
      lease.release();
      throw err;
    } finally {
      if (init.headersOnly) lease.stopTimer();
    }
  }

  async function readText(
    method: string,
    path: string,
    res: Response,
    signal?: AbortSignal,
  ): Promise<string> {
    try {
      return await res.text();
    } catch (err) {
      if (signal?.aborted) throw new AbortedError(method, path, 'cancelled');
      throw new NetworkError(
        method,
        path,
        `response cut off: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  function errorMessageOf(text: string): string {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (
        parsed &&
        typeof parsed === 'object' &&
        typeof (parsed as { errorMessage?: unknown }).errorMessage === 'string'
      ) {
        return (parsed as { errorMessage: string }).errorMessage;
      }
    } catch {
      // not JSON: fall through to the text itself
    }
    return text.slice(0, 300) || 'no reason given';
  }

  /** Sends a request and checks the status; returns the body text of a 2xx. */
  async function exchange(
    method: string,
    path: string,
    options: RequestOptions,
    init?: Parameters<typeof send>[3],
  ): Promise<string> {
    const { res, release } = await send(method, path, options, init);
    try {
      if (!res.ok) return await exchangeFailed(method, path, res, options.signal);
      const text = await readText(method, path, res, options.signal);
      try {
        settings.onAnswer?.({ method, path, date: res.headers.get('date'), text });
      } catch {
        // An observer's failure is its own; the answer was read.
      }
      return text;
    } finally {
      release();
    }
  }

  /**
   * A large list answer read again and again (a project's tasks), element by element: see
   * `fingerprintedList`. Its bytes are fingerprinted as they arrive (SHA-1 of the UTF-8 text, so
   * equal to `wholeFingerprintOf` of the decoded text: the fingerprints kept from earlier reads
   * stay valid). When the answer may be one the caller holds whole (`known.wholeAnswer`), its
   * bytes are held until the last one came: an answer held whole is never cut, decoded or parsed. Otherwise, and once an answer held is known not
   * to be held whole, its elements are cut from the bytes as they come (`createElementCutter`;
   * the chunks held are let go as they are cut), and read and handed over a slice at a time: the
   * answer's text is never in memory whole, nor are its items unless the caller keeps the slices
   * it is handed. One does: a first pull's own lists (`pullMyLists`), read before the project
   * tree is stored, hold their parsed items until it is, bounded by those two lists (the acting
   * user's open tasks), never by the account's.
   */
  async function readFingerprintedList<S extends z.ZodType>(
    method: string,
    path: string,
    item: S,
    options: RequestOptions & { known?: KnownElements; each?: ListSliceReader<z.output<S>> },
  ): Promise<FingerprintedListAnswer<z.output<S>>> {
    const { known } = options;
    const { res, release, pause, resume } = await send(method, path, options);
    if (!res.ok) {
      try {
        return await exchangeFailed(method, path, res, options.signal);
      } finally {
        release();
      }
    }
    const holdWhole = known?.wholeAnswer !== undefined && known.mayBeWhole?.() !== false;
    const date = res.headers.get('date');
    /** Shows the observer (the service clock) a text, decoded only if it reads it (while it learns). */
    const observe = (text: () => string): void => {
      let decoded: string | undefined;
      try {
        settings.onAnswer?.({
          method,
          path,
          date,
          get text() {
            return (decoded ??= text());
          },
        });
      } catch {
        // An observer's failure is its own; the answer was read.
      }
    };
    const recorded = holdWhole ? known?.ranges?.() : undefined;
    /**
     * How the bytes are taken: compared by ranges with the recorded answer (let go as they match),
     * held whole (no record: after a start), or cut into elements and read as they come.
     */
    let mode: 'compare' | 'hold' | 'read' = recorded ? 'compare' : holdWhole ? 'hold' : 'read';
    let verifier = recorded && createRangeVerifier(recorded);
    let reader = listReader(method, path, item, known, options.each, mode === 'read' ? observe : undefined);
    /** The reader goes on from the recorded answer's ranges (once the first compare found one differ). */
    let resumed = false;
    /** Ranges found equal by a compare taken up again in the answer's middle, not yet vouched for. */
    const equalRanges: { range: number; pieces: Uint8Array[] }[] = [];
    const vouchEqual = async (): Promise<void> => {
      for (const { range, pieces } of equalRanges.splice(0)) await reader.vouchRange(range, pieces);
    };
    /** The answer differs from the recorded one from this range on: cut and read from there. */
    const readFrom = async (differs: RangesDiffer): Promise<readonly Uint8Array[]> => {
      mode = 'read';
      if (resumed) reader.cutFrom(differs.at);
      else {
        resumed = true;
        await known?.prepare?.();
        reader = listReader(method, path, item, known, options.each, observe, {
          recorded: recorded!,
          prefix: differs.prefix,
        });
        await reader.vouch();
      }
      return differs.held;
    };
    /**
     * Takes the answer's next bytes as the mode says: compared by ranges, or cut and read; the
     * read of a changed answer meets the end of a recorded range again (see `listReader`'s
     * `feed`) and compares from there, so only the parts around what changed are cut.
     */
    const take = async (bytes: Uint8Array): Promise<void> => {
      const pending = [bytes];
      for (let piece = pending.shift(); piece; piece = pending.shift()) {
        if (mode === 'compare') {
          const differs = verifier!.feed(piece);
          await vouchEqual();
          if (differs) pending.unshift(...(await readFrom(differs)));
        } else {
          const again = await reader.feed(piece);
          if (!again) continue;
          mode = 'compare';
          verifier = createRangeVerifier(recorded!, {
            range: again.range,
            at: again.at,
            equal: (range, pieces) => equalRanges.push({ range, pieces }),
          });
          pending.unshift(again.rest);
        }
      }
    };
    const digest = createHash('sha1');
    const chunks: Uint8Array[] = [];
    const slice = workSlice();
    /** A fault of the answer's elements, or of the caller storing them, as opposed to the network's. */
    let failed: { error: unknown } | undefined;
    try {
      if (mode === 'read') {
        // The caller's own work (reading what it holds, or waiting for another list it reads
        // first): not counted against the service's timeout, as the elements' storing is not.
        pause();
        try {
          await known?.prepare?.();
        } finally {
          resume();
        }
      }
      // An answer already received whole comes in many chunks without a wait between them.
      if (res.body)
        for await (const chunk of res.body) {
          if (mode === 'hold') {
            digest.update(chunk);
            chunks.push(chunk);
          } else {
            // The service is not waited for while the elements are read and stored.
            pause();
            try {
              await take(chunk);
            } catch (error) {
              failed = { error };
              // Leaving the loop stops the answer's read (its stream is cancelled).
              break;
            }
            resume();
          }
          if (slice.due()) {
            await yieldToLoop();
            slice.reset();
          }
        }
    } catch (err) {
      if (options.signal?.aborted) throw new AbortedError(method, path, 'cancelled');
      throw new NetworkError(
        method,
        path,
        `response cut off: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      release();
    }
    if (failed) throw failed.error;
    if (mode === 'compare' && !resumed) {
      // Not shown to the service clock: the same bytes were shown when the answer was recorded.
      const differs = verifier!.end();
      const same = differs ? undefined : known?.wholeAnswer?.(recorded!.whole);
      if (same) return reader.heldWhole(same, recorded!.whole, recorded!);
      // Equal bytes but rows of it written since the count was taken: every element is vouched
      // for by its fingerprint, as those before a range that differs are.
      const all = recorded!.ends.length;
      for (const piece of await readFrom(
        differs ?? { prefix: prefixOf(recorded!, all), range: all, at: recorded!.ends[all - 1]!, held: [] },
      ))
        await take(piece);
    }
    // A compare taken up again in the middle: the answer's end is the recorded one's, or is read.
    while (mode === 'compare') {
      const differs = verifier!.end();
      await vouchEqual();
      if (!differs) break;
      for (const piece of await readFrom(differs)) await take(piece);
    }
    if (mode === 'hold') {
      // Shown whole, before its chunks are let go (one read as it came was shown slice by slice).
      observe(() => new TextDecoder().decode(Buffer.concat(chunks)));
      const whole = digest.digest('base64');
      const same = known?.wholeAnswer?.(whole);
      if (same) return reader.heldWhole(same, whole, null);
      await known?.prepare?.();
      for (const [at, chunk] of chunks.entries()) {
        // Each chunk is let go once cut: the answer is not held twice over.
        chunks[at] = EMPTY;
        await reader.feed(chunk);
      }
    }
    return reader.finish();
  }

  /**
   * Reads the elements of one list answer as its bytes are fed: each is fingerprinted and looked
   * up in `known`; those not held are decoded, parsed and checked a slice at a time, and handed
   * to `each` (or kept for the answer) before the next slice is read.
   */
  function listReader<S extends z.ZodType>(
    method: string,
    path: string,
    item: S,
    known: KnownElements | undefined,
    each: ListSliceReader<z.output<S>> | undefined,
    /** Shown the text of the elements of each slice read (see `ConnectionSettings.onAnswer`). */
    observe: ((text: () => string) => void) | undefined,
    /** The bytes fed start after these first ranges of the recorded answer, equal to them. */
    resume?: { recorded: AnswerRanges; prefix: RangesPrefix },
  ) {
    type T = z.output<S>;
    let cutter = resume?.prefix.ranges ? createElementCutter(resume.prefix.end) : createElementCutter();
    /** The answer's offset of the next byte fed (a leading byte order mark counted). */
    let at = resume?.prefix.end ?? 0;
    /**
     * The ranges of the recorded answer, after the first, by the fingerprint of the element that
     * ends the range before each: such an element met again may be followed by that range.
     */
    const rangeAfter = new Map<string, number>();
    if (resume) {
      const { recorded } = resume;
      for (let range = 0; range < recorded.ends.length - 1; range++) {
        const count = recorded.counts[range]!;
        if (
          count > (range ? recorded.counts[range - 1]! : 0) &&
          !rangeAfter.has(recorded.fingerprints[count - 1]!)
        )
          rangeAfter.set(recorded.fingerprints[count - 1]!, range + 1);
      }
    }
    /** The answer's last range was vouched for as the recorded one's (its array's end with it). */
    let endVouched = false;
    /**
     * Compares taken up again whose first range differed, in a row, and how many range ends to
     * pass by before the next: in a list changed in every range each compare is in vain, and
     * costs a range's hash and the rest of a chunk cut twice, so they are tried ever more rarely
     * (after 1, 3, 7... ranges); a range found equal starts again from every range end.
     */
    let missed = 0;
    let passBy = 0;
    let vouchedSinceCompare = false;
    /** The answer by ranges, recorded as it is read when the caller keeps fingerprints. */
    const recorder = known ? createRangeRecorder(resume) : undefined;
    const items: T[] = [];
    const fingerprints: string[] = [];
    const skipped: UnreadableItem[] = [];
    const unchanged: string[] = [];
    const unread: string[] = [];
    /** Spans of the recorded answer held as vouched for (see `vouched`), and `unchanged`'s other ids. */
    const vouchedSpans: (readonly [from: number, to: number])[] = [];
    const unvouched: string[] = [];
    /**
     * Elements not held, waiting to be read; elements held, waiting for `lostSince` (without their
     * bytes when vouched for by a range equal to the recorded answer's: those were let go).
     */
    let toRead: { index: number; bytes: Uint8Array; fingerprint: string }[] = [];
    let held: { index: number; bytes: Uint8Array | undefined; id: string; fingerprint: string }[] = [];
    /**
     * Spans of the recorded answer's elements (`resume`) vouched for at once, the first at the
     * answer's `index`, waiting for `lostSince` as `held` does: no look-up or entry per element.
     */
    let heldSpans: { index: number; from: number; to: number }[] = [];
    let total = resume?.prefix.count ?? 0;
    /** The answer's first bytes, to name it when it is not JSON; all of them when not an array. */
    const head: Uint8Array[] = [];
    let headBytes = 0;
    const slice = workSlice();
    /**
     * Gives the loop back; call only when `slice.due()`, asked without an await: an await per
     * element costs a turn of the microtask queue each (20,000 of them for a list vouched for
     * whole were about as long as the rest of its read).
     */
    const breathe = async (): Promise<void> => {
      await yieldToLoop();
      slice.reset();
    };

    const flush = async (): Promise<void> => {
      if (held.length || heldSpans.length) {
        // Written while the answer was read: read after all, as if never stored.
        const lost = known?.lostSince?.();
        for (const { index, bytes, id, fingerprint } of held) {
          if (!lost?.has(id)) {
            unchanged.push(id);
            unvouched.push(id);
            recorder?.element(index, id, fingerprint);
          } else if (bytes) toRead.push({ index, bytes, fingerprint });
          else unread.push(id);
        }
        held = [];
        const recorded = resume?.recorded;
        for (const { index, from, to } of recorded ? heldSpans : []) {
          let whole = true;
          if (lost?.size)
            for (let at = from; at < to && whole; at++) if (lost.has(recorded!.ids[at]!)) whole = false;
          if (whole) {
            // Every one still held as recorded: copied over as a span, none looked at.
            vouchedSpans.push([from, to]);
            for (let at = from; at < to; at++) unchanged.push(recorded!.ids[at]!);
            recorder?.elements(index, recorded!, from, to);
            continue;
          }
          for (let at = from; at < to; at++) {
            const id = recorded!.ids[at]!;
            // Their bytes were let go: one written meanwhile is not read again (see `unread`).
            if (lost?.has(id)) unread.push(id);
            else {
              unchanged.push(id);
              unvouched.push(id);
              recorder?.element(index + at - from, id, recorded!.fingerprints[at]!);
            }
          }
        }
        heldSpans = [];
      }
      if (!toRead.length) return;
      const read: T[] = [];
      const readFingerprints: string[] = [];
      const texts: string[] = [];
      for (const { index, bytes, fingerprint } of toRead) {
        const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
        texts.push(text);
        const element = readElement(item, parseJsonBody(method, path, text), index);
        if ('skipped' in element) skipped.push(element.skipped);
        else {
          read.push(element.item);
          readFingerprints.push(fingerprint);
          const id = (element.item as { id?: unknown } | null)?.id;
          if (typeof id === 'string') recorder?.element(index, id, fingerprint);
        }
        if (slice.due()) await breathe();
      }
      toRead = [];
      observe?.(() => `[${texts.join(',')}]`);
      if (!read.length) return;
      if (each) await each({ items: read, fingerprints: readFingerprints });
      else
        for (const [at, one] of read.entries()) {
          items.push(one);
          fingerprints.push(readFingerprints[at]!);
        }
      slice.reset();
    };

    const nameOf = (): string => new TextDecoder().decode(Buffer.concat(head)).slice(0, 80);

    return {
      /**
       * The elements of the prefix `resume` names, equal to the recorded answer's: each is held
       * while its fingerprint still gives its task (looked up as a cut element is).
       */
      async vouch(): Promise<void> {
        if (!resume) return;
        const { recorded, prefix } = resume;
        if (prefix.count && known?.vouchRecorded?.(recorded, 0, prefix.count)) {
          heldSpans.push({ index: 0, from: 0, to: prefix.count });
          return;
        }
        for (let index = 0; index < prefix.count; index++) {
          const id = recorded.ids[index]!;
          const fingerprint = recorded.fingerprints[index]!;
          if (known?.idOf(fingerprint) === id) held.push({ index, bytes: undefined, id, fingerprint });
          else unread.push(id);
          if (held.length >= HELD_SLICE) await flush();
          else if (slice.due()) await breathe();
        }
      },
      /**
       * Cuts the answer's next bytes into elements and reads them. When an element ends that
       * ended a range of the recorded answer (`resume`), answers that range's successor, where it
       * would start here, and the bytes of the chunk after that element (not read): the caller
       * compares from there (`createRangeVerifier` with `from`), and hands back what is equal
       * (`vouchRange`) or where it differs (`cutFrom`).
       */
      async feed(chunk: Uint8Array): Promise<{ range: number; at: number; rest: Uint8Array } | null> {
        const chunkAt = at;
        at += chunk.length;
        const elements = cutter.feed(chunk);
        if (cutter.state === 'notArray' || headBytes < HEAD_BYTES) {
          head.push(chunk);
          headBytes += chunk.length;
        }
        if (cutter.state === 'broken')
          throw new ResponseShapeError(method, path, 'body', `body is not JSON: ${nameOf()}`);
        for (const [n, { bytes, end }] of elements.entries()) {
          const index = total++;
          const fingerprint = fingerprintOf(bytes);
          const id = known?.idOf(fingerprint);
          if (id === undefined) toRead.push({ index, bytes, fingerprint });
          else held.push({ index, bytes, id, fingerprint });
          const next = rangeAfter.get(fingerprint);
          if (next !== undefined && passBy > 0) passBy--;
          else if (next !== undefined) {
            vouchedSinceCompare = false;
            // The elements cut after this one in the chunk are let go: the compare takes their bytes.
            recorder?.chunk(
              chunk.subarray(0, end - chunkAt),
              elements.slice(0, n + 1).map((element) => element.end),
            );
            at = end;
            if (toRead.length >= READ_SLICE || held.length >= HELD_SLICE) await flush();
            return { range: next, at: end, rest: chunk.subarray(end - chunkAt) };
          }
          if (toRead.length >= READ_SLICE || held.length >= HELD_SLICE) await flush();
          else if (slice.due()) await breathe();
        }
        recorder?.chunk(
          chunk,
          elements.map((element) => element.end),
        );
        return null;
      },
      /**
       * Range `range` of the recorded answer met again whole at the bytes' offset, its bytes
       * `pieces`: its elements are the recorded ones, each held while its fingerprint still gives
       * its task (as `vouch`), none cut.
       */
      async vouchRange(range: number, pieces: readonly Uint8Array[]): Promise<void> {
        const { recorded } = resume!;
        recorder!.vouched(recorded, range, pieces);
        vouchedSinceCompare = true;
        missed = 0;
        at = recorder!.at;
        const from = range ? recorded.counts[range - 1]! : 0;
        const to = recorded.counts[range]!;
        if (to > from && known?.vouchRecorded?.(recorded, from, to)) {
          heldSpans.push({ index: total, from, to });
          total += to - from;
          endVouched = range === recorded.ends.length - 1;
          return;
        }
        for (let element = from; element < to; element++) {
          const index = total++;
          const id = recorded.ids[element]!;
          const fingerprint = recorded.fingerprints[element]!;
          if (known?.idOf(fingerprint) === id) held.push({ index, bytes: undefined, id, fingerprint });
          else unread.push(id);
          if (held.length >= HELD_SLICE) await flush();
          else if (slice.due()) await breathe();
        }
        endVouched = range === recorded.ends.length - 1;
      },
      /** The bytes fed next start at `offset`, just after an element's end: cut from there. */
      cutFrom(offset: number): void {
        // After each compare in vain in a row the next waits for 1, 3, 7... range ends: after
        // about seven in a row, a list of about 200 ranges (changed all over) is not compared
        // again to its end, only cut and read.
        if (!vouchedSinceCompare) passBy = 2 ** Math.min(++missed, 20) - 1;
        at = offset;
        cutter = createElementCutter(offset);
        endVouched = false;
      },
      /** The answer once every byte was fed: the last slice read, the whole checked. */
      async finish(): Promise<FingerprintedListAnswer<T>> {
        if (cutter.state === 'notArray') {
          // Not an array: read whole, which names the fault.
          parseJsonBody(method, path, await decodeInSlices(head));
          throw new ResponseShapeError(method, path, 'body', 'body: expected an array');
        }
        // Resumed after every recorded range: those bytes, the array's end included, were
        // compared equal to a whole answer, and the cutter was fed none of them.
        const wholeVouched = resume !== undefined && resume.prefix.ranges === resume.recorded.ends.length;
        if (!wholeVouched && !endVouched && !cutter.complete)
          throw new ResponseShapeError(method, path, 'body', `body is not JSON: ${nameOf()}`);
        await flush();
        logSkipped(method, path, skipped, total);
        // The whole answer's fingerprint, hashed with its ranges as it was read (with `known`).
        const done = recorder?.finish();
        const whole = done?.whole ?? null;
        return {
          items,
          skipped,
          fingerprints,
          unchanged,
          whole,
          total,
          unread,
          ranges: done?.ranges ?? null,
          vouched: resume && vouchedSpans.length ? { recorded: resume.recorded, spans: vouchedSpans } : null,
          unvouched: vouchedSpans.length ? unvouched : [],
        };
      },
      /** The answer held whole as `known` has it: nothing of it read. */
      heldWhole(
        ids: readonly string[],
        whole: string,
        ranges: AnswerRanges | null,
      ): FingerprintedListAnswer<T> {
        return {
          items: [],
          skipped: [],
          fingerprints: [],
          unchanged: [...ids],
          whole,
          total: ids.length,
          unread: [],
          ranges,
          vouched: null,
          unvouched: [],
        };
      },
    };
  }

  /** Classifies a non-2xx answer (or a 2xx with no body where one was needed) and throws. */
  async function exchangeFailed(
    method: string,
    path: string,
    res: Response,
    signal: AbortSignal | undefined,
  ): Promise<never> {
    const text = await readText(method, path, res, signal);
    if (res.ok) throw new ResponseShapeError(method, path, 'body', 'the answer has no body');
    const reason = errorMessageOf(text);
    settings.log?.(`${method} ${path} answered ${res.status}: ${reason}`);
    if (res.status === 401) throw new UnauthorizedError(method, path, reason);
    if (res.status === 429 || res.status >= 500) {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new ServerError(
        method,
        path,
        res.status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
        reason,
      );
    }
    throw new RejectedError(method, path, res.status, reason);
  }

  function logSkipped(method: string, path: string, skipped: readonly UnreadableItem[], total: number): void {
    if (skipped.length) {
      settings.log?.(
        `${method} ${path}: ${skipped.length} of ${total} items unreadable (${skipped[0]?.message})`,
      );
    }
  }

  /** A list answer's text as JSON, which must be an array. */
  function listBody(method: string, path: string, text: string): unknown[] {
    const body = parseJsonBody(method, path, text);
    if (!Array.isArray(body)) {
      throw new ResponseShapeError(method, path, 'body', 'body: expected an array');
    }
    return body;
  }

  /** A list answer's text read with `item`: each element that does not match is skipped and named. */
  function readList<S extends z.ZodType>(
    method: string,
    path: string,
    item: S,
    text: string,
  ): ListAnswer<z.output<S>> {
    const body = listBody(method, path, text);
    const answer: ListAnswer<z.output<S>> = { items: [], skipped: [] };
    body.forEach((element: unknown, index) => takeElement(answer, readElement(item, element, index)));
    logSkipped(method, path, answer.skipped, body.length);
    return answer;
  }

  /**
   * As `readList`, an element at a time between looks at the clock: the loop is given back once
   * the turn's budget is spent (a list of hundreds of items, its schemas built on first use, was
   * one stretch of 20-40 ms on a loaded machine).
   */
  async function readListInSlices<S extends z.ZodType>(
    method: string,
    path: string,
    item: S,
    text: string,
  ): Promise<ListAnswer<z.output<S>>> {
    const body = listBody(method, path, text);
    const answer: ListAnswer<z.output<S>> = { items: [], skipped: [] };
    const slice = workSlice();
    for (let index = 0; index < body.length; index++) {
      takeElement(answer, readElement(item, body[index], index));
      if (slice.due()) {
        await yieldToLoop();
        slice.reset();
      }
    }
    logSkipped(method, path, answer.skipped, body.length);
    return answer;
  }

  return {
    /** How many requests were sent (for tests and benchmarks). */
    get requestCount(): number {
      return requests;
    },

    /** A read or write whose 2xx body must match `schema`. */
    async json<S extends z.ZodType>(
      method: string,
      path: string,
      schema: S,
      options: RequestOptions = {},
    ): Promise<z.output<S>> {
      const text = await exchange(method, path, options);
      return readBody(method, path, text, schema);
    },

    /**
     * A GET whose 2xx body is streamed to the caller (an attachment's bytes), with its length
     * and type when the service sends them. The timeout covers the wait for the headers; the
     * caller's signal stops the body.
     */
    async download(
      path: string,
      signal?: AbortSignal,
    ): Promise<{ body: ReadableStream<Uint8Array>; size: number | null; mime: string | null }> {
      // Not released once it streams: the caller's signal stops the body for as long as it is read.
      const { res, release } = await send('GET', path, { signal }, { accept: '*/*', headersOnly: true });
      if (!res.ok || !res.body) {
        try {
          await exchangeFailed('GET', path, res, signal);
        } finally {
          release();
        }
      }
      const length = Number(res.headers.get('content-length'));
      return {
        body: res.body as ReadableStream<Uint8Array>,
        size: res.headers.has('content-length') && Number.isFinite(length) ? length : null,
        mime: res.headers.get('content-type'),
      };
    },

    /**
     * A create whose answer is the new item on one service and `OK` on another: the item
     * parsed with `schema`, or null for `OK` (plain or as a JSON string) or an empty body.
     */
    async itemOrOk<S extends z.ZodType>(
      method: string,
      path: string,
      schema: S,
      options: RequestOptions = {},
    ): Promise<z.output<S> | null> {
      const text = await exchange(method, path, options);
      const bare = text.trim();
      if (bare === '' || bare === 'OK' || bare === '"OK"') return null;
      return readBody(method, path, text, schema);
    },

    /**
     * A read whose 2xx body is a JSON array of `item`s. An element that does not match is
     * skipped and described, never the whole list: one odd record must not hide the others.
     */
    async list<S extends z.ZodType>(
      method: string,
      path: string,
      item: S,
      options: RequestOptions = {},
    ): Promise<ListAnswer<z.output<S>>> {
      return readList(method, path, item, await exchange(method, path, options));
    },

    /**
     * As `list`, its answer fingerprinted (SHA-1 of its text) and not read until
     * `read` is called: a caller that holds the answer with that fingerprint as stored leaves it
     * unparsed (a pull's lists that did not change).
     */
    async unreadList<S extends z.ZodType>(
      method: string,
      path: string,
      item: S,
      options: RequestOptions = {},
    ): Promise<UnreadList<z.output<S>>> {
      const text = await exchange(method, path, options);
      // Hashed here, not by `fingerprintOf`: its calls are the elements cut (a test counts them).
      const fingerprint = createHash('sha1').update(text).digest('base64');
      return {
        fingerprint,
        read: () => readList(method, path, item, text),
        readInSlices: () => readListInSlices(method, path, item, text),
      };
    },

    /**
     * As `list`, for a large list read again and again (a project's tasks): the answer is cut
     * into its elements as its bytes arrive, yielding to the event loop every few milliseconds
     * so no other call waits long behind it, and each element is fingerprinted. An element
     * `known` holds is neither parsed nor checked again: its id is answered in `unchanged`. The
     * others are read as `list` reads them, each with its fingerprint, a slice at a time: handed
     * to `each` when given (then not kept in the answer's `items`), so a long list is stored as
     * it is read. An answer that is not an array, or that is cut off or malformed part-way,
     * fails the read, naming the fault; slices handed to `each` before the fault stay handed.
     */
    fingerprintedList<S extends z.ZodType>(
      method: string,
      path: string,
      item: S,
      options: RequestOptions & { known?: KnownElements; each?: ListSliceReader<z.output<S>> } = {},
    ): Promise<FingerprintedListAnswer<z.output<S>>> {
      return readFingerprintedList(method, path, item, options);
    },

    /** A write whose response the spec does not show: `OK`, an empty body or any JSON is success. */
    async write(method: string, path: string, options: RequestOptions = {}): Promise<void> {
      await exchange(method, path, options);
    },

    /**
     * PUT raw bytes to an absolute upload address (no service header, as the spec shows). A
     * stream needs its `size`, sent as Content-Length.
     */
    async upload(
      uploadUrl: string,
      bytes: UploadBody,
      mime: string,
      signal?: AbortSignal,
      size?: number,
    ): Promise<void> {
      const headers: Record<string, string> = { 'content-type': mime };
      if (size !== undefined) headers['content-length'] = String(size);
      await exchange(
        'PUT',
        new URL(uploadUrl).pathname,
        { signal },
        { url: uploadUrl, headers, body: bytes },
      );
    },
  };
}

export type Http = ReturnType<typeof createHttp>;

/**
 * The text of an answer received in `chunks` (UTF-8, a leading byte order mark dropped, as
 * `Response.text()` reads it), decoded a chunk at a time with the event loop given back every
 * few milliseconds.
 */
async function decodeInSlices(chunks: readonly Uint8Array[]): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  const slice = workSlice();
  for (const chunk of chunks) {
    parts.push(decoder.decode(chunk, { stream: true }));
    if (slice.due()) {
      await yieldToLoop();
      slice.reset();
    }
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** One element of a list answer read with `item`: the item, or why it was skipped. */
function readElement<S extends z.ZodType>(
  item: S,
  element: unknown,
  index: number,
): { item: z.output<S> } | { skipped: UnreadableItem } {
  const parsed = item.safeParse(element);
  if (parsed.success) return { item: parsed.data };
  const raw = element && typeof element === 'object' ? (element as { id?: unknown }).id : undefined;
  const { field, message } = describeZodError(parsed.error, 'item');
  return { skipped: { index, id: typeof raw === 'string' ? raw : null, field, message } };
}

/** An element read (`readElement`) put in its list answer: its items or those skipped. */
function takeElement<T>(answer: ListAnswer<T>, read: { item: T } | { skipped: UnreadableItem }): void {
  if ('skipped' in read) answer.skipped.push(read.skipped);
  else answer.items.push(read.item);
}

/** A 2xx answer's text as JSON; a body that is not JSON is named as the fault. */
function parseJsonBody(method: string, path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseShapeError(method, path, 'body', `body is not JSON: ${text.slice(0, 80)}`);
  }
}

/** A 2xx answer's text read with `schema`; the first field that does not match is named. */
function readBody<S extends z.ZodType>(method: string, path: string, text: string, schema: S): z.output<S> {
  const parsed = schema.safeParse(parseJsonBody(method, path, text));
  if (!parsed.success) {
    const { field, message } = describeZodError(parsed.error, 'body');
    throw new ResponseShapeError(method, path, field, message);
  }
  return parsed.data;
}

/**
 * The signal one request is sent with: aborted by the caller's signal, or once `timeoutMs` have
 * passed (`timedOut` then says so), until `release()`; `stopTimer()` ends the timeout alone (a
 * download's body may take long). A plain controller, a timer and a listener that `release`
 * removes, so nothing refers to a request once its answer is read. `AbortSignal.any` over the
 * caller's signal and an `AbortSignal.timeout` did not let go as soon: each request's signal stays
 * registered with the caller's (the sync run's, thousands of requests long) and with its 30 s
 * timer until a full collection; 6,000 requests made one at a time with them kept about 4 MB more
 * alive and moved more to the old generation than the same requests without.
 */
function requestSignal(caller: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** What is left of the timeout while it is paused (`pause`), else undefined. */
  let left: number | undefined;
  let deadline = 0;
  const start = (ms: number): void => {
    deadline = performance.now() + ms;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
    }, ms);
    // As `AbortSignal.timeout`'s: a pending timeout does not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
  };
  start(timeoutMs);
  const onAbort = (): void => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort, { once: true });
  const stopTimer = (): void => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    get timedOut(): boolean {
      return timedOut;
    },
    stopTimer,
    /**
     * Stops the clock while the caller works on what arrived (a list stored as it is read), so
     * the timeout counts the time waiting for the service only; `resume` starts it again with
     * what was left.
     */
    pause(): void {
      if (timer === undefined) return;
      left = Math.max(0, deadline - performance.now());
      stopTimer();
    },
    resume(): void {
      if (left === undefined) return;
      start(left);
      left = undefined;
    },
    release(): void {
      stopTimer();
      left = undefined;
      caller?.removeEventListener('abort', onAbort);
    },
  };
}
