import { createHash, type Hash } from 'node:crypto';
import type { AnswerRanges, HashState, VouchedSpans } from '../../../shared/api/answer-ranges';

export type { AnswerRanges, VouchedSpans };

/**
 * A long list answer compared with the last one as its bytes arrive, so a list that did not
 * change is known so without holding its bytes (a project's 20,000 tasks are 13 MB). The answer
 * read element by element is recorded by ranges of its bytes, each ending where an element ends,
 * about `RANGE_BYTES` long, with a fingerprint of each range and the elements that end in it. The
 * next answer is hashed by the same ranges as it comes: a range equal to the one recorded is let
 * go at once (its elements are the ones recorded), so at most one range and one chunk are held.
 * At the first range that differs, what came before it is known to be the recorded answer's first
 * elements, and the rest is cut into elements from that range's start, which is just after an
 * element's end. Hashing ranges costs about what hashing the whole answer does; cutting it into
 * elements costs ten times more, so an answer that matches is never cut.
 */

/**
 * Bytes in a range at least (it ends with the first element that ends past them). A changed
 * element costs the cut and read of about its range (16 KB: about 25 tasks of the live service's
 * size); an equal range costs a digest more than the bytes' hash (about 800 for 13 MB).
 */
export const RANGE_BYTES = 1 << 14;

/** The first ranges of a recorded answer, its elements in them, and where they end. */
export interface RangesPrefix {
  ranges: number;
  /** The answer's offset where the last of those ranges ends (0 for none). */
  end: number;
  /** How many elements end in them. */
  count: number;
}

export function prefixOf(recorded: AnswerRanges, ranges: number): RangesPrefix {
  return {
    ranges,
    end: ranges ? recorded.ends[ranges - 1]! : 0,
    count: ranges ? recorded.counts[ranges - 1]! : 0,
  };
}

/**
 * Records an answer by ranges as it is read element by element: `chunk` with each chunk of bytes
 * and the ends of the elements cut from it, `element` with each element's id once known. Starts at
 * the answer's first byte, or after a prefix of ranges already known equal to a recorded answer's.
 */
export function createRangeRecorder(from?: { recorded: AnswerRanges; prefix: RangesPrefix }) {
  const ends: number[] = from ? from.recorded.ends.slice(0, from.prefix.ranges) : [];
  const digests: string[] = from ? from.recorded.digests.slice(0, from.prefix.ranges) : [];
  const counts: number[] = from ? from.recorded.counts.slice(0, from.prefix.ranges) : [];
  const ids: (string | undefined)[] = from ? from.recorded.ids.slice(0, from.prefix.count) : [];
  const fingerprints: string[] = from ? from.recorded.fingerprints.slice(0, from.prefix.count) : [];
  const states: HashState[] = from ? from.recorded.states.slice(0, from.prefix.ranges) : [];
  /** The whole answer's SHA-1 (from where the prefix ends). */
  const whole: HashState = states.at(-1)?.copy() ?? createHash('sha1');
  /** Bytes hashed so far (into `digest`, the range being read). */
  let hashedTo = from?.prefix.end ?? 0;
  let rangeStart = hashedTo;
  let elements = from?.prefix.count ?? 0;
  let digest: Hash = createHash('sha1');
  return {
    /** A chunk of the answer (the next bytes) and the ends of the elements that end in it. */
    chunk(bytes: Uint8Array, elementEnds: readonly number[]): void {
      const chunkStart = hashedTo;
      for (const end of elementEnds) {
        elements++;
        if (end - rangeStart < RANGE_BYTES) continue;
        const piece = bytes.subarray(hashedTo - chunkStart, end - chunkStart);
        digest.update(piece);
        whole.update(piece);
        states.push(whole.copy());
        ends.push(end);
        digests.push(digest.digest('base64'));
        counts.push(elements);
        digest = createHash('sha1');
        hashedTo = rangeStart = end;
      }
      const rest = bytes.subarray(hashedTo - chunkStart);
      digest.update(rest);
      whole.update(rest);
      hashedTo = chunkStart + bytes.length;
    },
    /**
     * A range of the recorded answer met again whole, its bytes `pieces` (they start where an
     * element ends, the next byte to hash): recorded as that range, its elements the recorded
     * ones (their ids and fingerprints still given by `element`). The range being read ends first.
     */
    vouched(recorded: AnswerRanges, range: number, pieces: readonly Uint8Array[]): void {
      if (hashedTo > rangeStart) {
        ends.push(hashedTo);
        digests.push(digest.digest('base64'));
        counts.push(elements);
        states.push(whole.copy());
        digest = createHash('sha1');
      }
      for (const piece of pieces) {
        whole.update(piece);
        hashedTo += piece.length;
      }
      elements += recorded.counts[range]! - (range ? recorded.counts[range - 1]! : 0);
      ends.push(hashedTo);
      digests.push(recorded.digests[range]!);
      counts.push(elements);
      states.push(whole.copy());
      rangeStart = hashedTo;
    },
    /** Where the bytes given so far end (the answer's offset of the next byte). */
    get at(): number {
      return hashedTo;
    },
    /** The id and fingerprint of the element at `index` (every element's, for a record). */
    element(index: number, id: string, fingerprint: string): void {
      // Elements come out of order (those vouched for by spans, those read, those looked up): the
      // arrays are filled up to `index` first, so a write far past their end leaves no hole (a
      // sparse array falls back to a dictionary, slow to fill and to go through).
      while (ids.length < index) {
        ids.push(undefined);
        fingerprints.push('');
      }
      ids[index] = id;
      fingerprints[index] = fingerprint;
    },
    /**
     * As `element` for the elements `from` to `to` of `recorded`, the first at `index`: a span
     * vouched for is recorded without a call per element (spans and elements looked up come
     * out of order, so it may land before the arrays' end).
     */
    elements(index: number, recorded: AnswerRanges, from: number, to: number): void {
      while (ids.length < index) {
        ids.push(undefined);
        fingerprints.push('');
      }
      for (let at = from, into = index; at < to; at++, into++) {
        ids[into] = recorded.ids[at]!;
        fingerprints[into] = recorded.fingerprints[at]!;
      }
    },
    /**
     * Once every byte came: the whole answer's fingerprint, and its record (null when an
     * element's id is not known: one skipped).
     */
    finish(): { whole: string; ranges: AnswerRanges | null } {
      // Every range equal to the recorded answer's: that record is this answer's.
      if (from && from.prefix.ranges === from.recorded.ends.length)
        return { whole: from.recorded.whole, ranges: from.recorded };
      // The last range is open unless the answer ended with a range vouched for.
      if (hashedTo > rangeStart || !ends.length) {
        ends.push(hashedTo);
        digests.push(digest.digest('base64'));
        counts.push(elements);
        states.push(whole.copy());
      }
      const fingerprint = whole.digest('base64');
      if (ids.length !== elements) return { whole: fingerprint, ranges: null };
      for (let at = 0; at < elements; at++)
        if (ids[at] === undefined) return { whole: fingerprint, ranges: null };
      const ranges = {
        whole: fingerprint,
        ends,
        digests,
        counts,
        ids: ids as string[],
        fingerprints,
        states,
      };
      return { whole: fingerprint, ranges };
    },
  };
}

export type RangeRecorder = ReturnType<typeof createRangeRecorder>;

/** Where a compare by ranges found the answer to differ from the recorded one. */
export interface RangesDiffer {
  /**
   * The first ranges, equal to the recorded answer's, from the answer's start. A compare started
   * with `from` (see `createRangeVerifier`) names none here (an empty prefix): the ranges it
   * found equal were handed to its `equal` as they passed.
   */
  prefix: RangesPrefix;
  /** The range that differs, and where it starts in this answer (just after an element's end). */
  range: number;
  at: number;
  /** This answer's bytes from `at` on, as far as they came. */
  held: Uint8Array[];
}

/**
 * Compares an answer's bytes, as they come, with a recorded answer's ranges. `feed` answers null
 * while every range so far is equal (their bytes let go), or, at the first that is not, where it
 * starts and the bytes from there (held since that range began). The last range is held until
 * `end`, which tells whether the rest of the answer is the recorded one's.
 *
 * By default the compare starts at the answer's first byte with the first range, and equal
 * ranges are let go unseen (`prefix` of what differs names them). With `from`, it starts at an
 * answer's offset `at`, where an element just ended that ended range `range - 1` of the recorded
 * answer: the ranges from there are compared shifted by as many bytes as the answer's part
 * before them grew or shrank (a changed task, one added or gone), and each range found equal is
 * handed to `equal` with its bytes (its elements are the recorded ones), so a changed list is cut
 * only around what changed.
 */
export function createRangeVerifier(
  recorded: AnswerRanges,
  from?: { range: number; at: number; equal: (range: number, pieces: Uint8Array[]) => void },
) {
  const last = recorded.ends.length - 1;
  /** The range being compared, its bytes so far, and where the bytes fed so far end. */
  let range = from?.range ?? 0;
  let held: Uint8Array[] = [];
  let at = from?.at ?? 0;
  /** Where the recorded answer's range `r` ends in this one: `recorded.ends[r] + shift`. */
  const shift = from ? from.at - (from.range ? recorded.ends[from.range - 1]! : 0) : 0;
  let digest: Hash = createHash('sha1');
  const startOf = (r: number): number => (r ? recorded.ends[r - 1]! : 0) + shift;
  const differs = (): RangesDiffer => {
    const answer = { prefix: prefixOf(recorded, from ? 0 : range), range, at: startOf(range), held };
    held = [];
    return answer;
  };
  const equal = (): void => {
    from?.equal(range, held);
    held = [];
  };
  return {
    /** Bytes held now (for tests). */
    get heldBytes(): number {
      return held.reduce((sum, piece) => sum + piece.length, 0);
    },
    feed(bytes: Uint8Array): RangesDiffer | null {
      let cutFrom = 0;
      // A range ends in this chunk: compared there, and let go when equal.
      while (range < last && recorded.ends[range]! + shift <= at + bytes.length) {
        const cut = recorded.ends[range]! + shift - at;
        const piece = bytes.subarray(cutFrom, cut);
        digest.update(piece);
        if (digest.digest('base64') !== recorded.digests[range]) {
          held.push(bytes.subarray(cutFrom));
          at += bytes.length;
          return differs();
        }
        held.push(piece);
        equal();
        cutFrom = cut;
        range++;
        digest = createHash('sha1');
      }
      const rest = bytes.subarray(cutFrom);
      digest.update(rest);
      held.push(rest);
      at += bytes.length;
      // Longer than the recorded answer: the last range cannot be equal, so the rest is read as
      // it comes rather than held to the end.
      if (range === last && at > recorded.ends[last]! + shift) return differs();
      return null;
    },
    /** Null when the rest of the answer is the recorded one's; else as `feed` at a range that differs. */
    end(): RangesDiffer | null {
      if (
        range === last &&
        at === recorded.ends[last]! + shift &&
        digest.digest('base64') === recorded.digests[last]
      ) {
        equal();
        return null;
      }
      return differs();
    },
  };
}
