// A fling (a dragged scrollbar thumb, a fast trackpad swipe) brings a dozen rows or more into a
// list's view at every frame: more than a whole row of the task grid can be filled in a frame on a
// slow machine. While one lasts, a list shows `lite` rows, only what identifies each (the grid:
// the short id and the name), and fills the rest once the scrolling stops, as a spreadsheet fills
// its cells. One large step (a jump to the end, a page key) is not a fling: it takes two steps in
// a row of more than FLING_ROWS rows, so a jump shows whole rows at once.

/** Rows a scroll step may bring into view and still get whole rows. */
export const FLING_ROWS = 6;
/** How long the list must be still before a fling's rows are filled whole. */
export const SETTLE_MS = 80;

export interface FlingTimers {
  set: (run: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const realTimers: FlingTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Watches a list's scroll steps and says when its rows should be lite (`onchange`). */
export class FlingWatch {
  #lite = false;
  #offset = 0;
  #fastSteps = 0;
  #settle: unknown;

  constructor(
    private readonly onchange: (lite: boolean) => void,
    private readonly timers: FlingTimers = realTimers,
  ) {}

  get lite(): boolean {
    return this.#lite;
  }

  /** A scroll step to `offset` (px) in a list of rows `rowHeight` px high. */
  scrolled(offset: number, rowHeight: number): void {
    const fast = Math.abs(offset - this.#offset) > FLING_ROWS * rowHeight;
    this.#offset = offset;
    this.#fastSteps = fast ? this.#fastSteps + 1 : 0;
    if (this.#fastSteps >= 2) this.#set(true);
    this.timers.clear(this.#settle);
    if (this.#lite) this.#settle = this.timers.set(() => this.#set(false), SETTLE_MS);
  }

  dispose(): void {
    this.timers.clear(this.#settle);
  }

  #set(lite: boolean): void {
    if (!lite) this.#fastSteps = 0;
    if (lite === this.#lite) return;
    this.#lite = lite;
    this.onchange(lite);
  }
}
