// A long list drawn in slices, on a fake browser whose frames the test turns: each frame runs the
// animation callbacks asked for before it, then paints (the test notes how many rows are drawn
// then); tasks posted meanwhile run between frames. The first screenful is painted alone, wherever
// the list was opened; every further slice is built in a task after a paint, never in a frame's
// callbacks (where it would hold back that frame's paint and every callback queued after it).
// Runes stood in for by plain values; the one effect is run again, as Svelte would, when the
// count or the total it read has changed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface Effect {
  fn: () => void | (() => void);
  teardown?: (() => void) | void;
}
const effects = vi.hoisted(() => {
  const plain = <T>(value: T): T => value;
  const registry: Effect[] = [];
  Object.assign(globalThis as Record<string, unknown>, {
    $state: Object.assign(plain, { raw: plain }),
    $effect: (fn: () => void | (() => void)) => registry.push({ fn }),
  });
  return registry;
});

const { drawnInSlices } = await import('./drawn-in-slices.svelte');

/** Where the test's code runs: in a frame's callbacks, or in a task between frames. */
type Phase = 'frame' | 'task';

class FakeBrowser {
  #callbacks = new Map<number, () => void>();
  #nextId = 1;
  #tasks: (() => void)[] = [];
  phase: Phase = 'task';
  /** Called after each callback and task: Svelte's flush of the effects. */
  afterEach: () => void = () => {};

  install(): void {
    const tasks = this.#tasks;
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => {
      const id = this.#nextId++;
      this.#callbacks.set(id, fn);
      return id;
    });
    vi.stubGlobal('cancelAnimationFrame', (id: number) => this.#callbacks.delete(id));
    vi.stubGlobal(
      'MessageChannel',
      class {
        #closed = false;
        port1 = {
          onmessage: undefined as (() => void) | undefined,
          close: () => {
            this.#closed = true;
          },
        };
        port2 = {
          postMessage: () => {
            tasks.push(() => {
              if (!this.#closed) this.port1.onmessage?.();
            });
          },
        };
      },
    );
  }

  /** One frame: the callbacks asked for before it, then its paint (`paint()` is noted). */
  frame(paint: () => void): void {
    const due = [...this.#callbacks];
    this.#callbacks.clear();
    this.phase = 'frame';
    for (const [, fn] of due) {
      fn();
      this.afterEach();
    }
    paint();
    this.phase = 'task';
  }

  /** Runs the tasks posted so far (and those they post). */
  tasks(): void {
    while (this.#tasks.length) {
      this.#tasks.shift()!();
      this.afterEach();
    }
  }

  /** A frame then the tasks after its paint, `n` times. */
  turn(n: number, paint: () => void): void {
    for (let i = 0; i < n; i++) {
      this.frame(paint);
      this.tasks();
    }
  }

  get waiting(): number {
    return this.#callbacks.size + this.#tasks.length;
  }
}

let browser: FakeBrowser;
beforeEach(() => {
  effects.length = 0;
  browser = new FakeBrowser();
  browser.install();
});
afterEach(() => vi.unstubAllGlobals());

/**
 * Opens a list of `total()` items as a component would, and follows it: the rows drawn at each
 * paint, and where each change of the count was made.
 */
function open(total: () => number, first?: number, perFrame?: number) {
  const drawn = drawnInSlices(total, first, perFrame);
  const effect = effects.at(-1)!;
  let seen: [number, number] | undefined;
  const changes: Phase[] = [];
  let lastCount = drawn.count;
  const flush = (): void => {
    if (drawn.count !== lastCount) changes.push(browser.phase);
    lastCount = drawn.count;
    const now: [number, number] = [drawn.count, total()];
    if (seen && seen[0] === now[0] && seen[1] === now[1]) return;
    seen = now;
    if (typeof effect.teardown === 'function') effect.teardown();
    effect.teardown = effect.fn();
  };
  browser.afterEach = flush;
  flush();
  const painted: number[] = [];
  // The view shows at most every item (the count may pass the total).
  const paint = (): void => void painted.push(Math.min(drawn.count, total()));
  return {
    drawn,
    painted,
    paint,
    changes,
    flush,
    destroy: () => {
      if (typeof effect.teardown === 'function') effect.teardown();
      browser.afterEach = () => {};
    },
  };
}

describe('a list drawn in slices', () => {
  it('opened outside a frame (a click, an answer): paints its first screenful alone, then a slice more after each paint, to the end', () => {
    const list = open(() => 200);
    browser.turn(5, list.paint);
    expect(list.painted).toEqual([24, 84, 144, 200, 200]);
    expect(browser.waiting).toBe(0);
  });

  it("builds no slice in a frame's callbacks: the frame's paint and the callbacks after the list's wait for none", () => {
    const list = open(() => 200);
    // A callback asked for after the list's in each frame (another view's, or a clock reading
    // when the rows are painted): it must find the rows that frame paints already drawn.
    const seenInFrame: number[] = [];
    for (let i = 0; i < 4; i++) {
      requestAnimationFrame(() => seenInFrame.push(Math.min(list.drawn.count, 200)));
      browser.frame(list.paint);
      browser.tasks();
    }
    expect(list.changes).toEqual(['task', 'task', 'task']);
    expect(seenInFrame).toEqual(list.painted);
    expect(list.painted).toEqual([24, 84, 144, 200]);
  });

  it("opened in a frame's own callbacks: that frame paints the first screenful alone", () => {
    let list: ReturnType<typeof open> | undefined;
    requestAnimationFrame(() => {
      list = open(() => 100);
    });
    browser.frame(() => list!.paint());
    browser.tasks();
    browser.turn(3, () => list!.paint());
    expect(list!.painted[0]).toBe(24);
    expect(list!.painted.at(-1)).toBe(100);
    expect(list!.changes.every((phase) => phase === 'task')).toBe(true);
  });

  it('a list that grows goes on in slices; all() draws every item at once; a list closed asks for nothing more', () => {
    let total = 30;
    const list = open(() => total, 12, 10);
    browser.turn(3, list.paint);
    expect(list.painted).toEqual([12, 22, 30]);
    total = 100;
    list.flush();
    browser.turn(2, list.paint);
    // The grown list's next slice too comes after a paint.
    expect(list.painted.slice(3)).toEqual([32, 42]);
    list.drawn.all();
    list.flush();
    expect(list.drawn.count).toBe(100);
    total = 500;
    list.flush();
    list.destroy();
    browser.turn(2, list.paint);
    expect(list.drawn.count).toBe(100);
    expect(browser.waiting).toBe(0);
  });
});
