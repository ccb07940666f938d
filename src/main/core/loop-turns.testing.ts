import type * as loopTurns from './loop-turns';

/**
 * For tests of work done a slice at a time: switches that make every slice spent (a slow, loaded
 * machine) or none (a fast, idle one), a count of the times the loop was given back, and work to
 * run once at the next give-back (another piece of work's turn). A test mocks `loop-turns` with
 * `loopTurnsDouble` and sets these; `resetTurns` puts them back (call it in `afterEach`).
 *
 *     vi.mock('../loop-turns', async (importOriginal) =>
 *       (await import('../loop-turns.testing')).loopTurnsDouble(await importOriginal()),
 *     );
 */
export const turns = {
  /** Every slice of work is spent at each look at the clock. */
  spentAlways: false,
  /** No slice of work is ever spent (wins over `spentAlways`). */
  neverSpent: false,
  /** Times `yieldToLoop` was called. */
  givenBack: 0,
  /** Run once, the next time the loop is given back. */
  atGiveBack: undefined as (() => void) | undefined,
};

export function resetTurns(): void {
  turns.spentAlways = false;
  turns.neverSpent = false;
  turns.givenBack = 0;
  turns.atGiveBack = undefined;
}

/** `loop-turns` as it is, but for the switches above. */
export function loopTurnsDouble(actual: typeof loopTurns): typeof loopTurns {
  return {
    ...actual,
    workSlice: (sliceMs?: number) => {
      const slice = actual.workSlice(sliceMs);
      return {
        ...slice,
        due: (...args: Parameters<typeof slice.due>) =>
          !turns.neverSpent && (turns.spentAlways || slice.due(...args)),
      };
    },
    yieldToLoop: () => {
      turns.givenBack++;
      const other = turns.atGiveBack;
      turns.atGiveBack = undefined;
      other?.();
      return actual.yieldToLoop();
    },
  };
}

/**
 * Runs `work` while an immediate that reschedules itself notes `clock` once per turn of the loop
 * (a fake clock that only the work moves, so what is counted is the work done, not the machine's
 * speed); answers the work done between each two turns, once it was all started.
 */
export async function workPerTurn(work: () => Promise<unknown>, clock: () => number): Promise<number[]> {
  const marks: number[] = [];
  let running = true;
  const mark = (): void => {
    marks.push(clock());
    if (running) setImmediate(mark);
  };
  const done = work();
  setImmediate(mark);
  await done;
  running = false;
  marks.push(clock());
  return marks.slice(1).map((m, i) => m - marks[i]!);
}
