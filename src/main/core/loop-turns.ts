/**
 * The core's work shares one budget per turn of the event loop. Each piece of long work (a list's
 * scan and parse, a list stored a slice at a time, the messages' write batcher) stops after a
 * slice and gives the loop back; but pieces running at once (six project lists streaming in, My
 * Work's two lists, the messages' writes) each had a slice of their own, and a piece that gave
 * the loop back with `setImmediate` ran again in the same turn, before the timers and I/O it
 * meant to let through. One turn then held several slices: a cheap IPC call waited for all of
 * them (up to about 100 ms during a first sync on a loaded machine).
 *
 * Here every slice counts against the turn's budget (`SLICE_MS` from the first slice of the turn),
 * and a piece that gives the loop back waits in one queue: at the end of each turn (the loop's
 * check phase) the first in the queue goes on, and the others after it while the budget lasts;
 * once it is spent, those left wait for the next turn, after its timers and I/O. So a turn holds
 * about one slice of the core's work, whatever runs at once, and every piece gets its turn in the
 * order it asked. The contract for callers: create a `workSlice` when starting work, stop when
 * `due()`, and `await yieldToLoop()` before going on; never hold a transaction across the await.
 */

/** Longest stretch of work before the loop is given back (other calls, timers, IPC answers). */
export const SLICE_MS = 8;

/** When this turn's work began (null: none yet), and whether the work began outside a drain. */
let turnStart: number | null = null;
let startedByWork = false;
/** The budget is spent: work asking to go on waits for the next turn. */
let closed = false;
let drainScheduled = false;
/** The last drain left its turn to I/O work: the next resumes one waiting whatever. */
let owed = false;
const waiting: (() => void)[] = [];

const spent = (): boolean => closed || (turnStart !== null && performance.now() - turnStart >= SLICE_MS);

function scheduleDrain(): void {
  if (drainScheduled) return;
  drainScheduled = true;
  setImmediate(drain);
}

/**
 * The end of a turn (the check phase, after its timers and I/O). When work that began in this
 * turn's I/O spent its budget, those waiting wait for the next turn (and the first of them then
 * goes on whatever that turn's I/O spent, so none waits for ever); otherwise the first waiting
 * goes on in this turn, and the others after it while the budget lasts (see `yieldToLoop`).
 * Another drain is set for the next turn, which forgets this one.
 */
function drain(): void {
  drainScheduled = false;
  const byWork = startedByWork;
  startedByWork = false;
  closed = false;
  if (!waiting.length) {
    turnStart = null;
    return;
  }
  if (byWork && !owed && turnStart !== null && performance.now() - turnStart >= SLICE_MS) {
    turnStart = null;
    owed = true;
    scheduleDrain();
    return;
  }
  owed = false;
  if (!byWork || turnStart === null) turnStart = performance.now();
  scheduleDrain();
  waiting.shift()!();
}

/**
 * Work that can wait (a request not sent yet) should wait for a later turn: this turn's budget is
 * spent, or work that asked before still waits for its turn (it goes first).
 */
export function turnSpent(): boolean {
  return spent() || waiting.length > 0;
}

/**
 * Gives the event loop back: goes on in this turn while its budget lasts and no other work asked
 * first, else once the timers and I/O waiting have run.
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (turnStart !== null && !spent()) {
      // Those that asked before go first; whoever is left waits for a drain.
      waiting.shift()!();
      if (waiting.length) scheduleDrain();
    } else {
      if (turnStart !== null) closed = true;
      scheduleDrain();
    }
  });
}

/**
 * A clock of the current slice of work: `due()` says when to yield: after `sliceMs` of its own, or
 * once the turn's budget is spent by all work in it. `reset()` starts its own clock again (after
 * the caller yielded).
 */
export function workSlice(sliceMs = SLICE_MS): { due(): boolean; reset(): void } {
  if (turnStart === null) {
    turnStart = performance.now();
    startedByWork = true;
    // The turn ends at this turn's check phase, which forgets it (or starts the next).
    scheduleDrain();
  }
  let since = performance.now();
  return {
    due: () => spent() || performance.now() - since >= sliceMs,
    reset: () => {
      since = performance.now();
    },
  };
}
