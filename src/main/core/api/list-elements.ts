import { createHash, hash } from 'node:crypto';
import { workSlice, yieldToLoop } from '../loop-turns';

/**
 * Reading a large list answer (a project's 20,000 tasks are 13 MB of JSON) without holding the
 * event loop: its bytes are cut into their elements by a scan that yields now and then, each
 * element is fingerprinted, and only the elements the caller does not already hold are decoded
 * and parsed (the answer is never decoded whole: that was 40-75 ms and a 26 MB string for a list
 * with one task changed). The scan finds where each element begins and ends; it does not check
 * the JSON itself, which the parse of each new element does (an element whose fingerprint is
 * known was read and stored before). The characters it looks for are ASCII, which never occur
 * inside a UTF-8 sequence of another character, so bytes can be scanned as they are.
 */

/** Where one element of the top-level array lies in the answer's text. */
export interface ElementSpan {
  start: number;
  end: number;
}

// The slices of work and the loop's turns they share (re-exported: the readers here use them).
export { SLICE_MS, workSlice, yieldToLoop } from '../loop-turns';

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/**
 * Index of the first quote at or after `from` that no backslash escapes, or -1 when the bytes end
 * first. The backslashes before a quote are counted back from it: they lie in the same string,
 * which the bytes hold from its opening quote.
 */
function closingQuoteFrom(bytes: Uint8Array, from: number): number {
  let at = from - 1;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** A byte that may start a number, `true`, `false` or `null`. */
function startsScalar(code: number): boolean {
  return code === 45 || (code >= 48 && code <= 57) || code === 116 || code === 102 || code === 110;
}

/** The byte order mark a UTF-8 answer may start with (as `Response.text()` drops it). */
const BOM = [0xef, 0xbb, 0xbf];

/** One element of the array, cut from the answer: its bytes, and where they lie in the answer. */
export interface CutElement {
  bytes: Uint8Array;
  /** Offsets in the answer's bytes (a leading byte order mark counted). */
  start: number;
  end: number;
}

/**
 * Where the cutter stands: before the array, at an element (after `[` or a comma), inside one,
 * after one, after the array; or it found the answer is not an array, or not valid where it cut.
 */
type CutState = 'start' | 'first' | 'next' | 'inside' | 'after' | 'end' | 'notArray' | 'broken';

/**
 * Cuts the elements of a JSON array out of its bytes as they arrive, chunk by chunk, so a long
 * list answer can be read a slice at a time without ever being whole in memory (as bytes, as
 * text or as parsed items). An element cut across chunks is handed over whole (the bytes of the
 * one element are carried over to the next chunk). Elements are found as the scan of a held
 * answer found them: strings are jumped over with `indexOf`, the rest read a byte at a time;
 * the JSON of each element is not checked here, but by the parse of each element read. The
 * characters looked for are ASCII, which never occur inside a UTF-8 sequence of another
 * character, so bytes are scanned as they are.
 */
export function createElementCutter(
  /** Where an element of the array ends: the bytes fed start after it (not at the answer's start). */
  after?: number,
) {
  let state: CutState = after === undefined ? 'start' : 'after';
  /** The bytes being scanned: the last chunk, after what is carried of an element cut across. */
  let buf: Uint8Array = new Uint8Array(0);
  /** The answer's offset of `buf[0]`. */
  let base = after ?? 0;
  /** Where the element being scanned starts in `buf` (state `inside`). */
  let elementStart = 0;
  /** Within the element: open braces and brackets, inside a string, inside a bare scalar. */
  let depth = 0;
  let inString = false;
  let scalar = false;
  let bomAt = 0;

  const cut = (end: number, found: CutElement[]): void => {
    found.push({ bytes: buf.subarray(elementStart, end), start: base + elementStart, end: base + end });
    state = 'after';
  };

  return {
    get state(): CutState {
      return state;
    },
    /** The elements the chunk completes, in order (none once not an array, or broken). */
    feed(chunk: Uint8Array): CutElement[] {
      const found: CutElement[] = [];
      if (state === 'notArray' || state === 'broken') return found;
      if (state === 'inside') {
        const carried = buf.subarray(elementStart);
        const joined = new Uint8Array(carried.length + chunk.length);
        joined.set(carried);
        joined.set(chunk, carried.length);
        base += elementStart;
        buf = joined;
      } else {
        base += buf.length;
        buf = chunk;
      }
      let at = state === 'inside' ? buf.length - chunk.length : 0;
      if (state === 'inside') elementStart = 0;
      const length = buf.length;
      while (at < length) {
        const code = buf[at]!;
        if (state === 'inside') {
          if (inString) {
            const close = closingQuoteFrom(buf, at);
            if (close < 0) break;
            inString = false;
            at = close + 1;
            if (depth === 0) cut(at, found);
          } else if (scalar) {
            if (code === COMMA || code === CLOSE_BRACKET || isSpace(code)) {
              scalar = false;
              cut(at, found);
            } else at++;
          } else {
            if (code === QUOTE) inString = true;
            else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
            else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) cut(at + 1, found);
            at++;
          }
          continue;
        }
        at++;
        if (isSpace(code)) continue;
        if (state === 'start') {
          if (bomAt < BOM.length && code === BOM[bomAt]) bomAt++;
          else if (code === OPEN_BRACKET) state = 'first';
          else state = 'notArray';
        } else if (state === 'first' || state === 'next') {
          if (code === CLOSE_BRACKET) state = state === 'first' ? 'end' : 'broken';
          else {
            state = 'inside';
            elementStart = at - 1;
            depth = code === OPEN_BRACE || code === OPEN_BRACKET ? 1 : 0;
            inString = code === QUOTE;
            scalar = startsScalar(code);
            if (depth === 0 && !inString && !scalar) state = 'broken';
          }
        } else if (state === 'after') {
          if (code === COMMA) state = 'next';
          else if (code === CLOSE_BRACKET) state = 'end';
          else state = 'broken';
        } else state = 'broken';
        if (state === 'notArray' || state === 'broken') break;
      }
      return found;
    },
    /** Whether the bytes fed so far are a whole array (closed, nothing but white space after it). */
    get complete(): boolean {
      return state === 'end';
    },
  };
}

export type ElementCutter = ReturnType<typeof createElementCutter>;

/** Bytes of a held answer fed to the cutter between looks at the clock. */
const HELD_PIECE = 1 << 16;

/**
 * The spans of the elements of `bytes`, a JSON array of objects (or arrays) in UTF-8 held whole,
 * yielding to the event loop every few milliseconds. Null when it is not such an array as far as
 * the scan can tell (another kind of element, text around it, an unclosed string).
 */
export async function elementSpans(bytes: Uint8Array): Promise<ElementSpan[] | null> {
  const cutter = createElementCutter();
  const spans: ElementSpan[] = [];
  const slice = workSlice();
  for (let at = 0; at < bytes.length; at += HELD_PIECE) {
    for (const { start, end } of cutter.feed(bytes.subarray(at, at + HELD_PIECE))) {
      const first = bytes[start];
      if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return null;
      spans.push({ start, end });
    }
    if (slice.due()) {
      await yieldToLoop();
      slice.reset();
    }
  }
  return cutter.complete ? spans : null;
}

/**
 * The fingerprint of an element's text, or of its bytes in UTF-8 (the same fingerprint): equal
 * texts, equal fingerprints (SHA-1, which CPUs with SHA instructions hash faster than MD5; no one
 * gains by making two elements collide).
 */
export function fingerprintOf(element: string | Uint8Array): string {
  return hash('sha1', element, 'base64');
}

/** Characters of a whole answer hashed between looks at the clock. */
const WHOLE_CHUNK = 1 << 20;

/**
 * The fingerprint of a whole answer, hashed a megabyte at a time with the event loop given back
 * between slices: a list that did not change at all is known by this alone.
 */
export async function wholeFingerprintOf(text: string): Promise<string> {
  const digest = createHash('sha1');
  const slice = workSlice();
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + WHOLE_CHUNK);
    // A pair of UTF-16 halves is hashed in one piece: apart, each would be read as U+FFFD.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    digest.update(text.slice(at, end));
    at = end;
    if (slice.due()) {
      await yieldToLoop();
      slice.reset();
    }
  }
  return digest.digest('base64');
}
