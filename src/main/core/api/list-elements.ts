import { createHash, hash } from 'node:crypto';

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

/** Longest stretch of work before the loop is given back (other calls, timers, IPC answers). */
export const SLICE_MS = 8;

/** Gives the event loop back: the I/O and timers waiting run before the work goes on. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock of the current slice of work: `due()` says when to yield. */
export function workSlice(sliceMs = SLICE_MS): { due(): boolean; reset(): void } {
  let since = performance.now();
  return {
    due: () => performance.now() - since >= sliceMs,
    reset: () => {
      since = performance.now();
    },
  };
}

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

/** Index of the quote that closes the string opened at `open`, or -1 when the bytes end first. */
function closingQuote(bytes: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** Index of the first byte at or after `from` that is not white space. */
function skipSpace(bytes: Uint8Array, from: number): number {
  let at = from;
  while (at < bytes.length && isSpace(bytes[at]!)) at++;
  return at;
}

/**
 * Index just past the object or array that opens at `start`, or -1 when the bytes end first.
 * Strings are jumped over with `indexOf` (most of the answer is inside them); the rest is read a
 * byte at a time, which V8 runs faster than a regular expression's matches.
 */
function valueEnd(bytes: Uint8Array, start: number): number {
  let depth = 0;
  for (let at = start; at < bytes.length; at++) {
    const code = bytes[at]!;
    if (code === QUOTE) {
      at = closingQuote(bytes, at);
      if (at < 0) return -1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return at + 1;
  }
  return -1;
}

/**
 * The spans of the elements of `bytes`, a JSON array of objects (or arrays) in UTF-8, yielding to
 * the event loop every few milliseconds. Null when it is not such an array as far as the scan
 * can tell (another kind of element, text around it, an unclosed string): the caller reads it the
 * plain way, which names the fault.
 */
export async function elementSpans(bytes: Uint8Array): Promise<ElementSpan[] | null> {
  const spans: ElementSpan[] = [];
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_BRACKET) return null;
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === CLOSE_BRACKET) return skipSpace(bytes, at + 1) === bytes.length ? spans : null;
  const slice = workSlice();
  for (;;) {
    // `at` is the first byte of an element.
    const first = bytes[at];
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return null;
    const end = valueEnd(bytes, at);
    if (end < 0) return null;
    spans.push({ start: at, end });
    at = skipSpace(bytes, end);
    const next = bytes[at];
    if (next === CLOSE_BRACKET) return skipSpace(bytes, at + 1) === bytes.length ? spans : null;
    if (next !== COMMA) return null;
    at = skipSpace(bytes, at + 1);
    if (slice.due()) {
      await yieldToLoop();
      slice.reset();
    }
  }
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
