import { createHash, type Hash } from 'node:crypto';
import type { AnswerRanges, HashState } from '../../../shared/api/answer-ranges';

export type { AnswerRanges };

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

/** Bytes in a range at least (it ends with the first element that ends past them). */
export const RANGE_BYTES = 1 << 16;

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
    /** The id and fingerprint of the element at `index` (every element's, for a record). */
    element(index: number, id: string, fingerprint: string): void {
      ids[index] = id;
      fingerprints[index] = fingerprint;
    },
    /**
     * Once every byte came: the whole answer's fingerprint, and its record (null when an
     * element's id is not known: one skipped).
     */
    finish(): { whole: string; ranges: AnswerRanges | null } {
      // Every range equal to the recorded answer's: that record is this answer's.
      if (from && from.prefix.ranges === from.recorded.ends.length)
        return { whole: from.recorded.whole, ranges: from.recorded };
      ends.push(hashedTo);
      digests.push(digest.digest('base64'));
      counts.push(elements);
      states.push(whole.copy());
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

/**
 * Compares an answer's bytes, as they come, with a recorded answer's ranges. `feed` answers null
 * while every range so far is equal (their bytes let go), or, at the first that is not, the
 * prefix of equal ranges and the bytes after it (held since that range began). The last range is
 * held until `end`, which tells whether the whole answer is the recorded one.
 */
export function createRangeVerifier(recorded: AnswerRanges) {
  const last = recorded.ends.length - 1;
  /** The range being compared, its bytes so far, and where the bytes fed so far end. */
  let range = 0;
  let held: Uint8Array[] = [];
  let at = 0;
  let digest: Hash = createHash('sha1');
  const differs = (): { prefix: RangesPrefix; held: Uint8Array[] } => {
    const answer = { prefix: prefixOf(recorded, range), held };
    held = [];
    return answer;
  };
  return {
    /** Bytes held now (for tests). */
    get heldBytes(): number {
      return held.reduce((sum, piece) => sum + piece.length, 0);
    },
    feed(bytes: Uint8Array): { prefix: RangesPrefix; held: Uint8Array[] } | null {
      let from = 0;
      // A range ends in this chunk: compared there, and let go when equal.
      while (range < last && recorded.ends[range]! <= at + bytes.length) {
        const cut = recorded.ends[range]! - at;
        const piece = bytes.subarray(from, cut);
        digest.update(piece);
        if (digest.digest('base64') !== recorded.digests[range]) {
          held.push(bytes.subarray(from));
          at += bytes.length;
          return differs();
        }
        held = [];
        from = cut;
        range++;
        digest = createHash('sha1');
      }
      const rest = bytes.subarray(from);
      digest.update(rest);
      held.push(rest);
      at += bytes.length;
      // Longer than the recorded answer: the last range cannot be equal, so the rest is read as
      // it comes rather than held to the end.
      if (range === last && at > recorded.ends[last]!) return differs();
      return null;
    },
    /** Null when the whole answer is the recorded one; else as `feed` at a range that differs. */
    end(): { prefix: RangesPrefix; held: Uint8Array[] } | null {
      if (range === last && at === recorded.ends[last] && digest.digest('base64') === recorded.digests[last])
        return null;
      return differs();
    },
  };
}
