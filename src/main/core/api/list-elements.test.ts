import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttp } from './http';
import { createElementCutter, elementSpans, fingerprintOf, wholeFingerprintOf } from './list-elements';
import { z } from 'zod';

const utf8 = (text: string) => new TextEncoder().encode(text);
const texts = async (text: string) => {
  const bytes = utf8(text);
  return (await elementSpans(bytes))?.map((s) => new TextDecoder().decode(bytes.subarray(s.start, s.end)));
};

describe('elementSpans: a JSON array cut into its elements', () => {
  it('finds each element, whatever its strings hold', async () => {
    const elements = [
      { id: 'a', name: 'braces } ] { [ and "quotes" and \\ backslashes\\', nested: { list: [1, [2]] } },
      { id: 'b', name: 'ends in a backslash \\', empty: {} },
      { id: 'c', unicode: 'é ✓ 😀', arr: [] },
    ];
    const text = ` [ ${elements.map((e) => JSON.stringify(e)).join(' ,\n ')} ] `;
    const found = await texts(text);
    expect(found?.map((t) => JSON.parse(t) as unknown)).toEqual(elements);
    expect(await texts('[]')).toEqual([]);
    expect(await texts(' [ ] ')).toEqual([]);
  });

  it('yields to the event loop on a long list and still finds every element', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({ id: `t${i}`, text: 'x'.repeat(40) }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const found = await elementSpans(utf8(JSON.stringify(many)));
    clearInterval(timer);
    expect(found).toHaveLength(many.length);
    expect(ticks).toBeGreaterThan(0);
  });

  it('answers null for what is not an array of objects, so the plain read names the fault', async () => {
    for (const bad of ['{}', '[1, 2]', '[{"a":1} {"b":2}]', '[{"a":1},]', '[{"a":"open]', '[{"a":1}] x', 'x'])
      expect(await elementSpans(utf8(bad)), bad).toBeNull();
  });

  it('fingerprints a whole answer as one piece, halves of a character never apart', async () => {
    const text = `${'x'.repeat((1 << 20) - 1)}😀${'y'.repeat(10)}`;
    expect(await wholeFingerprintOf(text)).toBe(fingerprintOf(text));
  });

  it('fingerprints equal texts equally and different texts differently', () => {
    expect(fingerprintOf('{"id":"a"}')).toBe(fingerprintOf('{"id":"a"}'));
    expect(fingerprintOf('{"id":"a"}')).not.toBe(fingerprintOf('{"id":"b"}'));
  });

  it('fingerprints the bytes of an element in UTF-8 as it fingerprints its text (those kept stay valid)', () => {
    const element = '{"id":"é✓😀","name":"a \\"quoted\\" name"}';
    expect(fingerprintOf(utf8(element))).toBe(fingerprintOf(element));
  });
});

describe('fingerprintedList: a list read again', () => {
  const Item = z.object({ id: z.string(), n: z.number() });
  const answering = (body: string) =>
    createHttp({
      baseUrl: 'http://service.test/2.0',
      token: 't',
      fetch: () => Promise.resolve(new Response(body, { status: 200 })),
    });

  it('parses the elements not known and answers the known ones by id', async () => {
    const a = '{"id":"a","n":1}';
    const b = '{"id":"b","n":2}';
    const known = new Map([[fingerprintOf(a), 'a']]);
    const answer = await answering(`[${a},${b}]`).fingerprintedList('GET', '/x', Item, {
      known: { idOf: (f) => known.get(f) },
    });
    expect(answer.unchanged).toEqual(['a']);
    expect(answer.items).toEqual([{ id: 'b', n: 2 }]);
    expect(answer.fingerprints).toEqual([fingerprintOf(b)]);
  });

  it('cuts an answer that starts with a byte order mark, with or without elements it knows', async () => {
    const a = '{"id":"a","n":1}';
    for (const known of [undefined, { idOf: () => undefined, wholeAnswer: () => undefined }]) {
      const answer = await answering(`\uFEFF[${a}]`).fingerprintedList('GET', '/x', Item, {
        ...(known ? { known } : {}),
      });
      expect(answer.items).toEqual([{ id: 'a', n: 1 }]);
      expect(answer.fingerprints).toEqual([fingerprintOf(a)]);
    }
  });

  it('reads after all an element answered as known whose item was written while the answer was read', async () => {
    const a = '{"id":"a","n":1}';
    const b = '{"id":"b","n":2}';
    const c = '{"id":"c","n":3}';
    const known = new Map([
      [fingerprintOf(a), 'a'],
      [fingerprintOf(b), 'b'],
    ]);
    const answer = await answering(`[${a},${b},${c}]`).fingerprintedList('GET', '/x', Item, {
      known: { idOf: (f) => known.get(f), lostSince: () => new Set(['b']) },
    });
    expect(answer.unchanged).toEqual(['a']);
    expect(answer.items).toEqual([
      { id: 'c', n: 3 },
      { id: 'b', n: 2 },
    ]);
    expect(answer.fingerprints).toEqual([fingerprintOf(c), fingerprintOf(b)]);
    expect(answer.total).toBe(3);
  });

  it('answers a whole answer known as it is by its ids alone, without cutting it', async () => {
    const text = '[{"id":"a","n":1},{"id":"b","n":2}]';
    const asked: string[] = [];
    const answer = await answering(text).fingerprintedList('GET', '/x', Item, {
      known: {
        idOf: (f) => (asked.push(f), undefined),
        wholeAnswer: (f) => (f === fingerprintOf(text) ? ['a', 'b'] : undefined),
      },
    });
    expect(answer).toMatchObject({ items: [], unchanged: ['a', 'b'], total: 2, whole: fingerprintOf(text) });
    expect(asked).toEqual([]);
    // Another text is cut and read element by element, with its whole fingerprint to record.
    const other = await answering('[{"id":"a","n":1}]').fingerprintedList('GET', '/x', Item, {
      known: { idOf: () => undefined, wholeAnswer: () => undefined },
    });
    expect(other).toMatchObject({
      items: [{ id: 'a', n: 1 }],
      total: 1,
      whole: fingerprintOf('[{"id":"a","n":1}]'),
    });
  });

  it('fingerprints the bytes as they arrive as it fingerprints the text, a character cut between chunks', async () => {
    const text = '[{"id":"é✓","n":1},{"id":"😀","n":2}]';
    const bytes = new TextEncoder().encode(text);
    // Cut inside the 4-byte emoji and inside the 2-byte é: each chunk alone is not valid UTF-8.
    const cuts = [0, 9, bytes.indexOf(0xf0) + 2, bytes.length];
    const http = createHttp({
      baseUrl: 'http://service.test/2.0',
      token: 't',
      fetch: () =>
        Promise.resolve(
          new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                for (let i = 1; i < cuts.length; i++) controller.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
                controller.close();
              },
            }),
            { status: 200 },
          ),
        ),
    });
    const asked: string[] = [];
    const answer = await http.fingerprintedList('GET', '/x', Item.extend({ id: z.string() }), {
      known: { idOf: () => undefined, wholeAnswer: (f) => (asked.push(f), undefined) },
    });
    expect(asked).toEqual([await wholeFingerprintOf(text)]);
    expect(answer.whole).toBe(fingerprintOf(text));
    expect(answer.items).toEqual([
      { id: 'é✓', n: 1 },
      { id: '😀', n: 2 },
    ]);
  });

  it('hands the observer an answer known whole, its text decoded only when read', async () => {
    const text = '[{"id":"a","n":1}]';
    const seen: { date: string | null; lazy: string }[] = [];
    const http = createHttp({
      baseUrl: 'http://service.test/2.0',
      token: 't',
      fetch: () =>
        Promise.resolve(
          new Response(text, { status: 200, headers: { date: 'Thu, 26 Nov 2026 10:00:00 GMT' } }),
        ),
      // The service clock reads the text only while it learns; this observer never does.
      onAnswer: (answer) =>
        seen.push({ date: answer.date, lazy: typeof Object.getOwnPropertyDescriptor(answer, 'text')?.get }),
    });
    const answer = await http.fingerprintedList('GET', '/x', Item, {
      known: { idOf: () => undefined, wholeAnswer: () => ['a'] },
    });
    expect(answer).toMatchObject({ items: [], unchanged: ['a'], total: 1 });
    expect(seen).toEqual([{ date: 'Thu, 26 Nov 2026 10:00:00 GMT', lazy: 'function' }]);
    // An observer that reads the text gets it whole.
    let read = '';
    await createHttp({
      baseUrl: 'http://service.test/2.0',
      token: 't',
      fetch: () => Promise.resolve(new Response(text, { status: 200 })),
      onAnswer: (a) => (read = a.text),
    }).fingerprintedList('GET', '/x', Item, { known: { idOf: () => undefined, wholeAnswer: () => ['a'] } });
    expect(read).toBe(text);
  });

  it('skips and describes an element that does not match, as the plain list does', async () => {
    const answer = await answering('[{"id":"a","n":"one"},{"id":"b","n":2}]').fingerprintedList(
      'GET',
      '/x',
      Item,
    );
    expect(answer.items).toEqual([{ id: 'b', n: 2 }]);
    expect(answer.skipped).toEqual([expect.objectContaining({ index: 0, id: 'a', field: 'n' })]);
  });

  it('reads a body the scan cannot cut the plain way, naming the fault', async () => {
    await expect(answering('{"not":"a list"}').fingerprintedList('GET', '/x', Item)).rejects.toThrow(
      /expected an array/,
    );
    await expect(answering('[{"id":"a","n":1},').fingerprintedList('GET', '/x', Item)).rejects.toThrow(
      /not JSON/,
    );
    const answer = await answering('[1]').fingerprintedList('GET', '/x', Item);
    expect(answer.skipped).toHaveLength(1);
  });
});

describe('createElementCutter: elements cut as the bytes arrive', () => {
  /** The elements' texts as the cutter hands them over, the text fed in pieces cut at `cuts`. */
  const cutAt = (text: string, cuts: number[]) => {
    const bytes = utf8(text);
    const cutter = createElementCutter();
    const found: string[] = [];
    const at = [0, ...cuts, bytes.length];
    for (let i = 1; i < at.length; i++)
      for (const e of cutter.feed(bytes.slice(at[i - 1], at[i]))) {
        // The offsets name the element's place in the whole answer.
        expect(new TextDecoder().decode(bytes.subarray(e.start, e.end))).toBe(
          new TextDecoder().decode(e.bytes),
        );
        found.push(new TextDecoder().decode(e.bytes));
      }
    return { found, complete: cutter.complete, state: cutter.state };
  };

  it('hands over each element whole, wherever the chunks cut it (strings, escapes, characters)', () => {
    const elements = [
      '{"id":"a","name":"braces } ] { [ and \\"quotes\\" and \\\\ backslashes\\\\"}',
      '{"id":"b","t":"ends in a backslash \\\\","n":[1,[2]]}',
      '{"id":"é✓😀","empty":{}}',
      '"a string"',
      '-12.5e3',
      'null',
    ];
    const text = `\uFEFF [ ${elements.join(' ,\n')} ] `;
    const length = utf8(text).length;
    // Every place a cut can fall, one at a time, and every byte a chunk of its own.
    for (let cut = 1; cut < length; cut++) expect(cutAt(text, [cut]).found).toEqual(elements);
    const everyByte = cutAt(
      text,
      Array.from({ length: length - 1 }, (_, i) => i + 1),
    );
    expect(everyByte).toEqual({ found: elements, complete: true, state: 'end' });
  });

  it('tells an empty list, one not an array, one cut off and one malformed apart', () => {
    expect(cutAt(' [ ] ', [2])).toMatchObject({ found: [], complete: true });
    expect(cutAt('{"not":"a list"}', [])).toMatchObject({ found: [], state: 'notArray' });
    expect(cutAt('[{"a":1},{"b":', [5])).toMatchObject({
      found: ['{"a":1}'],
      complete: false,
      state: 'inside',
    });
    expect(cutAt('[{"a":1},]', [])).toMatchObject({ found: ['{"a":1}'], state: 'broken' });
    expect(cutAt('[{"a":1}] x', [])).toMatchObject({ found: ['{"a":1}'], state: 'broken' });
  });
});

describe('fingerprintedList: a long list read a slice at a time as it arrives', () => {
  const Item = z.object({ id: z.string(), n: z.number() });
  /** An answer streamed in chunks of `size` bytes (the last ones cut off when `cutOff`). */
  const streaming = (text: string, size: number, cutOff = 0) => {
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
                if (sent >= bytes.length - cutOff) {
                  if (cutOff) controller.error(new Error('socket hang up'));
                  else controller.close();
                  return;
                }
                const end = Math.min(bytes.length - cutOff, sent + size);
                controller.enqueue(bytes.slice(sent, end));
                sent = end;
              },
            }),
            { status: 200 },
          ),
        ),
    });
  };
  const elements = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `t${i}`, n: i }));

  it('hands every item over in slices, each before the rest of the answer is read, none kept', async () => {
    const all = elements(1_000);
    // Chunks of 100 bytes: most elements are cut across two chunks.
    const http = streaming(`[${all.join(',')}]`, 100);
    const slices: { items: number[]; fingerprints: string[] }[] = [];
    const answer = await http.fingerprintedList('GET', '/x', Item, {
      each: (slice) => {
        slices.push({ items: slice.items.map((t) => t.n), fingerprints: slice.fingerprints });
      },
    });
    expect(slices.length).toBeGreaterThan(1);
    expect(Math.max(...slices.map((s) => s.items.length))).toBeLessThan(all.length);
    expect(slices.flatMap((s) => s.items)).toEqual(all.map((_, i) => i));
    expect(slices.flatMap((s) => s.fingerprints)).toEqual(all.map((e) => fingerprintOf(e)));
    expect(answer).toMatchObject({ items: [], fingerprints: [], skipped: [], unchanged: [], total: 1_000 });
  });

  it('reads elements as the bytes arrive when no whole answer can be held, and holds them otherwise', async () => {
    const all = elements(600);
    const text = `[${all.join(',')}]`;
    for (const mayBeWhole of [false, true]) {
      let handed = 0;
      /** How many items were handed over when the answer's whole fingerprint was asked for. */
      let handedAtWhole = -1;
      await streaming(text, 64).fingerprintedList('GET', '/x', Item, {
        known: {
          idOf: () => undefined,
          wholeAnswer: () => ((handedAtWhole = handed), undefined),
          mayBeWhole: () => mayBeWhole,
        },
        each: ({ items }) => {
          handed += items.length;
        },
      });
      expect(handed).toBe(600);
      // Read as it arrives: no whole answer is asked for; held: asked before any item is read.
      expect(handedAtWhole).toBe(mayBeWhole ? 0 : -1);
    }
  });

  it('skips an unreadable element in the middle and reads the others, answered as known or not', async () => {
    const all = elements(300);
    all[150] = '{"id":"t150","n":"one hundred fifty"}';
    const known = new Map([[fingerprintOf(all[10]!), 't10']]);
    const read: number[] = [];
    const answer = await streaming(`[${all.join(',')}]`, 50).fingerprintedList('GET', '/x', Item, {
      known: { idOf: (f) => known.get(f), mayBeWhole: () => false },
      each: ({ items }) => {
        for (const t of items) read.push(t.n);
      },
    });
    expect(answer.skipped).toEqual([expect.objectContaining({ index: 150, id: 't150', field: 'n' })]);
    expect(answer.unchanged).toEqual(['t10']);
    expect(read).toHaveLength(298);
    expect(read).not.toContain(10);
    expect(read).not.toContain(150);
    expect(answer.total).toBe(300);
  });

  it('reads an empty list as empty, in one chunk or many', async () => {
    for (const size of [1, 100]) {
      const answer = await streaming(' [ ] ', size).fingerprintedList('GET', '/x', Item, {
        each: () => {
          throw new Error('nothing to hand over');
        },
      });
      expect(answer).toMatchObject({ items: [], skipped: [], total: 0 });
    }
  });

  it('fails a list whose end is cut off or malformed, naming it, after handing over what came before', async () => {
    const all = elements(600);
    const text = `[${all.join(',')}]`;
    let handed = 0;
    const each = ({ items }: { items: unknown[] }) => {
      handed += items.length;
    };
    // The service's answer ends part-way, its JSON unclosed.
    await expect(
      streaming(text.slice(0, text.length - 40), 256).fingerprintedList('GET', '/x', Item, { each }),
    ).rejects.toThrow(/body is not JSON: \[\{"id":"t0","n":0\}/);
    expect(handed).toBeGreaterThan(0);
    expect(handed).toBeLessThan(600);
    // The connection is cut part-way: a network failure, not a fault of the answer.
    handed = 0;
    await expect(streaming(text, 256, 40).fingerprintedList('GET', '/x', Item, { each })).rejects.toThrow(
      /response cut off/,
    );
    expect(handed).toBeLessThan(600);
    // A list whose separator is wrong part-way fails as soon as it is found.
    handed = 0;
    await expect(
      streaming(`[${all.slice(0, 300).join(',')} ${all.slice(300).join(',')}]`, 256).fingerprintedList(
        'GET',
        '/x',
        Item,
        { each },
      ),
    ).rejects.toThrow(/body is not JSON/);
    expect(handed).toBeLessThan(600);
  });

  it('stops reading the answer when the items handed over cannot be stored', async () => {
    const all = elements(1_000);
    let slices = 0;
    await expect(
      streaming(`[${all.join(',')}]`, 100).fingerprintedList('GET', '/x', Item, {
        each: () => {
          slices++;
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(slices).toBe(1);
  });
});

describe("fingerprintedList: the service's timeout", () => {
  it("counts no time of the caller's own before the read (what it holds, another list it waits for)", async () => {
    const Item = z.object({ id: z.string(), n: z.number() });
    // A real connection and `fetch`, whose abort (the timeout's) stops the answer's read.
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":"a","n":1},{"id":"b","n":2}]');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    try {
      const http = createHttp({
        baseUrl: `http://127.0.0.1:${port}/2.0`,
        token: 't',
        timeoutMs: 1_000,
        fetch: (input, init) => fetch(input, init),
      });
      const answer = await http.fingerprintedList('GET', '/x', Item, {
        known: {
          idOf: () => undefined,
          mayBeWhole: () => false,
          // Longer than the whole timeout: the service answered long before.
          prepare: () => new Promise((done) => setTimeout(done, 1_500)),
        },
      });
      expect(answer.items.map((t) => t.id)).toEqual(['a', 'b']);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

describe('fingerprintedList: the observer of a list read as it arrives', () => {
  it('is shown the elements read, a slice at a time, as arrays of their texts', async () => {
    const all = Array.from({ length: 600 }, (_, i) => JSON.stringify({ id: `t${i}`, n: i }));
    const bytes = new TextEncoder().encode(`[${all.join(',')}]`);
    const shown: string[] = [];
    const http = createHttp({
      baseUrl: 'http://service.test/2.0',
      token: 't',
      fetch: () =>
        Promise.resolve(
          new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                for (let at = 0; at < bytes.length; at += 1_000)
                  controller.enqueue(bytes.slice(at, at + 1_000));
                controller.close();
              },
            }),
            { status: 200, headers: { date: 'Thu, 26 Nov 2026 10:00:00 GMT' } },
          ),
        ),
      onAnswer: (answer) => shown.push(answer.text),
    });
    const known = new Map([[fingerprintOf(all[0]!), 't0']]);
    await http.fingerprintedList('GET', '/x', z.object({ id: z.string(), n: z.number() }), {
      known: { idOf: (f) => known.get(f), mayBeWhole: () => false },
      each: () => undefined,
    });
    expect(shown.length).toBeGreaterThan(1);
    // Every element read is shown once; the one held as stored was shown when first read.
    expect(shown.flatMap((text) => (JSON.parse(text) as { n: number }[]).map((t) => t.n))).toEqual(
      all.slice(1).map((_, i) => i + 1),
    );
  });
});
