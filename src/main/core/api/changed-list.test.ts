import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createRangeVerifier, type AnswerRanges } from './answer-ranges';
import type * as RangesModule from './answer-ranges';
import { createHttp, type KnownElements } from './http';
import { fingerprintOf } from './list-elements';
import type * as ListElementsModule from './list-elements';

type ListElements = typeof ListElementsModule;
type AnswerRangesModule = typeof RangesModule;

// Every element cut from an answer is fingerprinted once: the count of fingerprints taken is the
// count of elements cut, which a changed answer compared by ranges keeps to the parts that changed.
vi.mock('./list-elements', async (importOriginal) => {
  const actual = await importOriginal<ListElements>();
  return { ...actual, fingerprintOf: vi.fn(actual.fingerprintOf) };
});
const fingerprinted = vi.mocked(fingerprintOf);
// Each compare by ranges (the first, and each one taken up again) is a verifier.
vi.mock('./answer-ranges', async (importOriginal) => {
  const actual = await importOriginal<AnswerRangesModule>();
  return { ...actual, createRangeVerifier: vi.fn(actual.createRangeVerifier) };
});
const verifiers = vi.mocked(createRangeVerifier);

const Item = z.object({ id: z.string(), n: z.number(), text: z.string() });
/** A list of `count` elements of about 300 bytes (a range of the answer holds about 220). */
const COUNT = 2_000;
const elementOf = (i: number, text = 'x'.repeat(270)) => JSON.stringify({ id: `t${i}`, n: i, text });
const ids = (count = COUNT) => Array.from({ length: count }, (_, i) => i);

/** An answer streamed in chunks of `size` bytes. */
function streaming(text: string, size = 4_096) {
  const bytes = new TextEncoder().encode(text);
  let sent = 0;
  return createHttp({
    baseUrl: 'http://service.test/2.0',
    token: 't',
    fetch: () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent >= bytes.length) return controller.close();
              const end = Math.min(bytes.length, sent + size);
              controller.enqueue(bytes.slice(sent, end));
              sent = end;
            },
          }),
          { status: 200 },
        ),
      ),
  });
}

/** What a caller holds of the list: its elements stored as sent, and its last intact answer. */
interface Held {
  byFingerprint: Map<string, string>;
  whole: string;
  ids: string[];
  ranges: AnswerRanges;
}

/** Reads `text` as a pull does: compared by ranges with what is held (when held), then held. */
async function read(text: string, before?: Held) {
  const byFingerprint = new Map(before?.byFingerprint);
  const known: KnownElements = {
    idOf: (fp) => byFingerprint.get(fp),
    wholeAnswer: (fp) => (before && fp === before.whole ? before.ids : undefined),
    mayBeWhole: () => before !== undefined,
    ranges: () => before?.ranges,
  };
  fingerprinted.mockClear();
  const answer = await streaming(text).fingerprintedList('GET', '/x', Item, { known });
  const cut = fingerprinted.mock.calls.length;
  answer.items.forEach((item, at) => byFingerprint.set(answer.fingerprints[at]!, item.id));
  const held: Held = {
    byFingerprint,
    whole: answer.whole!,
    ids: [...answer.unchanged, ...answer.items.map((t) => t.id)],
    ranges: answer.ranges!,
  };
  return { answer, cut, held };
}

const textOf = (order: number[], changed: Record<number, string> = {}) =>
  `[${order.map((i) => elementOf(i, changed[i])).join(',')}]`;

describe('a changed long list compared by ranges: only the parts around a change are cut', () => {
  const cases: { name: string; order: number[]; changed?: Record<number, string>; read: string[] }[] = [
    { name: 'a task changed in the first range', order: ids(), changed: { 3: 'changed' }, read: ['t3'] },
    { name: 'a task changed in the middle', order: ids(), changed: { 1_000: 'changed' }, read: ['t1000'] },
    {
      name: 'a task changed in the last range',
      order: ids(),
      changed: { 1_998: 'changed' },
      read: ['t1998'],
    },
    {
      name: 'three tasks changed, ranges apart',
      order: ids(),
      changed: { 300: 'changed', 1_000: 'changed too', 1_700: 'and this' },
      read: ['t300', 't1000', 't1700'],
    },
    {
      name: 'a task added in the middle',
      order: [...ids(1_000), COUNT, ...ids().slice(1_000)],
      read: [`t${COUNT}`],
    },
    { name: 'a task gone from the middle', order: ids().filter((i) => i !== 1_000), read: [] },
    {
      name: "a task's element sent twice, the second time in the middle",
      order: [...ids(1_000), 500, ...ids().slice(1_000)],
      read: [],
    },
    {
      name: 'a task moved from the middle to the end',
      order: [...ids().filter((i) => i !== 700), 700],
      read: [],
    },
  ];

  for (const { name, order, changed, read: readIds } of cases) {
    it(`${name}: every task of the new answer is answered, and recorded for the next compare`, async () => {
      const first = await read(textOf(ids()));
      expect(first.cut).toBe(COUNT);
      expect(first.held.ranges.ends.length).toBeGreaterThan(8);
      const text = textOf(order, changed);
      const { answer, cut, held } = await read(text, first.held);
      // The tasks changed or new are read; every other is answered as held, none twice.
      expect(answer.items.map((t) => t.id).sort()).toEqual([...readIds].sort());
      expect([...answer.unchanged, ...answer.items.map((t) => t.id)].sort()).toEqual(
        order.map((i) => `t${i}`).sort(),
      );
      expect(answer.unread).toEqual([]);
      expect(answer.total).toBe(order.length);
      // Cut: a range or two about each change, not the answer from the first change on.
      expect(cut).toBeLessThan(3 * 250 * Math.max(1, readIds.length));
      expect(cut).toBeLessThan(order.length / 2);
      // Recorded in the new answer's order, with its whole fingerprint, every byte in a range.
      expect(answer.whole).toBe(fingerprintOf(text));
      expect(held.ranges.ids).toEqual(order.map((i) => `t${i}`));
      expect(held.ranges.fingerprints).toEqual(order.map((i) => fingerprintOf(elementOf(i, changed?.[i]))));
      expect(held.ranges.ends.at(-1)).toBe(new TextEncoder().encode(text).length);
      expect(held.ranges.counts.at(-1)).toBe(order.length);
      // The same answer again is known whole by that record, nothing cut.
      const again = await read(text, held);
      expect(again.cut).toBe(0);
      expect(again.answer.items).toEqual([]);
      expect(again.answer.unchanged).toEqual(held.ids);
    });
  }

  it('a list changed in every range is compared again ever more rarely, and still read whole', async () => {
    const first = await read(textOf(ids()));
    const ranges = first.held.ranges.ends.length;
    // A change every 50 elements: every range (about 55 elements) holds one.
    const changed = Object.fromEntries(ids(COUNT / 50).map((i) => [i * 50 + 25, 'changed']));
    const text = textOf(ids(), changed);
    verifiers.mockClear();
    const { answer, held } = await read(text, first.held);
    expect(answer.items.map((t) => t.id).sort()).toEqual(
      Object.keys(changed)
        .map((i) => `t${i}`)
        .sort(),
    );
    expect(held.ranges.ids).toEqual(ids().map((i) => `t${i}`));
    // The first compare, then one after 1, 3, 7... ranges: not one at every range's end.
    expect(ranges).toBeGreaterThan(8);
    expect(verifiers.mock.calls.length).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(ranges)));
  });

  it('a task changed costs the read of about 16 KB around it, not of a 64 KB range', async () => {
    const first = await read(textOf(ids()));
    const { answer, cut } = await read(textOf(ids(), { 1_000: 'changed' }), first.held);
    expect(answer.items.map((t) => t.id)).toEqual(['t1000']);
    // About 55 elements of 300 bytes in a range of 16 KB; a range of 64 KB held about 220.
    expect(cut).toBeGreaterThan(0);
    expect(cut).toBeLessThan(120);
  });

  it('vouches for the elements of equal ranges in one run, not a turn of the microtask queue each', async () => {
    const first = await read(textOf(ids()));
    // A look-up after the microtask queue turned since the last one starts a new run.
    let runs = 0;
    let inRun = false;
    const known: KnownElements = {
      idOf: (fp) => {
        if (!inRun) {
          runs++;
          inRun = true;
          queueMicrotask(() => (inRun = false));
        }
        return first.held.byFingerprint.get(fp);
      },
      wholeAnswer: () => undefined,
      mayBeWhole: () => true,
      ranges: () => first.held.ranges,
    };
    const text = textOf(ids(), { 1_000: 'changed' });
    const answer = await streaming(text).fingerprintedList('GET', '/x', Item, { known });
    expect(answer.unchanged).toHaveLength(COUNT - 1);
    expect(answer.items.map((t) => t.id)).toEqual(['t1000']);
    // A run per chunk cut and per range vouched for (and per slice of time spent), not per element.
    expect(runs).toBeLessThan(COUNT / 10);
  });

  it('a changed answer that ends in a range equal to the recorded one is complete; one cut there is not', async () => {
    const first = await read(textOf(ids()));
    const text = textOf(ids(), { 10: 'changed' });
    const { answer } = await read(text, first.held);
    expect(answer.total).toBe(COUNT);
    // The same change, the answer's last bytes missing: its end was never compared equal.
    await expect(read(text.slice(0, -1), first.held)).rejects.toThrow(/not JSON/);
  });
});
