import { describe, expect, it } from 'vitest';
import { createRangeRecorder, createRangeVerifier, RANGE_BYTES, type AnswerRanges } from './answer-ranges';
import { createElementCutter, fingerprintOf } from './list-elements';

const bytesOf = (text: string) => new TextEncoder().encode(text);
/** A list of `count` elements of about 300 bytes each. */
const listOf = (count: number, changed: Record<number, string> = {}) =>
  `[${Array.from({ length: count }, (_, i) => JSON.stringify({ id: `e${i}`, text: changed[i] ?? 'x'.repeat(280) })).join(',')}]`;

/** Chunks of `size` bytes (the last one shorter). */
function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
  return chunks;
}

/** Records `text` as read element by element, in chunks of `size` bytes. */
function record(text: string, size: number): AnswerRanges {
  const cutter = createElementCutter();
  const recorder = createRangeRecorder();
  let index = 0;
  for (const chunk of chunksOf(bytesOf(text), size)) {
    const elements = cutter.feed(chunk);
    recorder.chunk(
      chunk,
      elements.map((e) => e.end),
    );
    for (const e of elements) {
      const { id } = JSON.parse(new TextDecoder().decode(e.bytes)) as { id: string };
      recorder.element(index++, id, fingerprintOf(e.bytes));
    }
  }
  return recorder.finish().ranges!;
}

describe('a list answer by ranges', () => {
  const text = listOf(1_000);

  it('records ranges of about RANGE_BYTES, each ending where an element ends, whatever the chunks', () => {
    const a = record(text, 500);
    const b = record(text, 7_777);
    expect(b).toEqual(a);
    expect(a.ends.length).toBeGreaterThan(3);
    expect(a.ends.at(-1)).toBe(bytesOf(text).length);
    expect(a.counts.at(-1)).toBe(1_000);
    expect(a.ids[999]).toBe('e999');
    for (const end of a.ends.slice(0, -1)) expect(text[end - 1]).toBe('}');
    expect(a.ends[0]).toBeGreaterThanOrEqual(RANGE_BYTES);
    expect(a.ends[0]).toBeLessThan(RANGE_BYTES + 400);
  });

  it('records spans of a recorded answer at once, before or after elements met one by one', () => {
    const recorded = record(text, 4_000);
    const recorder = createRangeRecorder();
    const cutter = createElementCutter();
    for (const chunk of chunksOf(bytesOf(text), 4_000))
      recorder.chunk(
        chunk,
        cutter.feed(chunk).map((e) => e.end),
      );
    // Elements 500 to 509 met one by one first, then the spans around them.
    for (let at = 500; at < 510; at++) recorder.element(at, recorded.ids[at]!, recorded.fingerprints[at]!);
    recorder.elements(0, recorded, 0, 500);
    recorder.elements(510, recorded, 510, 1_000);
    expect(recorder.finish().ranges).toEqual(recorded);
  });

  it('knows the same answer whole, holding no more than a range and a chunk while it comes', () => {
    const recorded = record(text, 1_000);
    const verifier = createRangeVerifier(recorded);
    for (const chunk of chunksOf(bytesOf(text), 3_000)) {
      expect(verifier.feed(chunk)).toBeNull();
      expect(verifier.heldBytes).toBeLessThanOrEqual(RANGE_BYTES + 400 + 3_000);
    }
    expect(verifier.end()).toBeNull();
  });

  it('at the first range that differs, answers the equal ranges before it and the bytes from there', () => {
    const recorded = record(text, 1_000);
    const changed = listOf(1_000, { 600: 'changed' });
    const at = bytesOf(changed);
    const verifier = createRangeVerifier(recorded);
    let differs = null;
    for (const chunk of chunksOf(at, 3_000)) if ((differs = verifier.feed(chunk))) break;
    expect(differs).not.toBeNull();
    const { prefix, held } = differs!;
    // Element 600 lies in the range after the prefix: the prefix's elements are all before it.
    expect(prefix.count).toBeLessThanOrEqual(600);
    expect(recorded.counts[prefix.ranges]).toBeGreaterThan(600);
    expect(prefix.end).toBe(recorded.ends[prefix.ranges - 1]);
    // The bytes held start where the prefix ends and run on to what came so far.
    const heldText = new TextDecoder().decode(Buffer.concat(held));
    expect(changed.slice(prefix.end).startsWith(heldText)).toBe(true);
    expect(heldText.startsWith(',')).toBe(true);
  });

  it('an answer shorter or longer than the recorded one is not the same', () => {
    const recorded = record(text, 1_000);
    for (const other of [listOf(999), listOf(1_001), `${text} `]) {
      const verifier = createRangeVerifier(recorded);
      let differs = null;
      for (const chunk of chunksOf(bytesOf(other), 4_096)) if ((differs = verifier.feed(chunk))) break;
      differs ??= verifier.end();
      expect(differs).not.toBeNull();
    }
  });

  it('an answer grown far past the recorded one is found to differ as it comes, not held to its end', () => {
    for (const recorded of [record(listOf(100), 1_000), record(text, 1_000)]) {
      const verifier = createRangeVerifier(recorded);
      const grown = bytesOf(listOf(5_000));
      let fedBytes = 0;
      let differs = null;
      for (const chunk of chunksOf(grown, 4_096)) {
        fedBytes += chunk.length;
        if ((differs = verifier.feed(chunk))) break;
        expect(verifier.heldBytes).toBeLessThanOrEqual(RANGE_BYTES + 400 + 4_096);
      }
      expect(differs).not.toBeNull();
      expect(fedBytes).toBeLessThan(recorded.ends.at(-1)! + 2 * 4_096);
    }
  });
});
