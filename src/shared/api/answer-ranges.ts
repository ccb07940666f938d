/**
 * A long list answer by ranges of its bytes, each ending where an element ends, with a
 * fingerprint of each range and the elements that end in it: kept with a list's intact answer so
 * the next answer is compared as it arrives (see `src/main/core/api/answer-ranges.ts`, which makes
 * and reads it; the cache keeps it between pulls).
 */
export interface AnswerRanges {
  /** The fingerprint of the whole answer. */
  whole: string;
  /** Where each range ends in the answer's bytes; the last one at the answer's length. */
  ends: number[];
  /** The SHA-1 of each range's bytes. */
  digests: string[];
  /** How many elements end in each range or before it (the last: all of them). */
  counts: number[];
  /** Each element's id and fingerprint, in the answer's order. */
  ids: string[];
  fingerprints: string[];
  /**
   * The whole answer's SHA-1 as it stood at each range's end (held in memory only): an answer
   * whose first ranges are equal goes on hashing from there, so no byte is hashed twice.
   */
  states: HashState[];
}

/** A SHA-1 part-way (node's `Hash`): copied to go on from it. */
export interface HashState {
  copy(): HashState;
  update(data: Uint8Array): HashState;
  digest(encoding: 'base64'): string;
}

/**
 * Elements of a list answer vouched for by spans of a recorded answer (`from` to `to`, exclusive,
 * of its `ids`), each still held as recorded when the read last asked: handed to the store of the
 * list whole so it goes through the few ids outside them, not every element.
 */
export interface VouchedSpans {
  recorded: AnswerRanges;
  spans: readonly (readonly [from: number, to: number])[];
}
