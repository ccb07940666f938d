// V8's heap settings for a process that runs the core: the desktop app's core process (given on
// its command line: core-process.ts, links.ts) and the web host, which runs the core in its own
// process (set as it starts: web.ts).
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets its heap grow past what the last full collection found alive, as a percentage
 * (V8's default lets it grow to about four times that). An initial sync of 20,000 tasks makes
 * one message read per task, each of whose few kilobytes of garbage V8 moves to the old
 * generation (it allocates the objects of sites whose objects often survived a young collection
 * there directly), while what stays alive is about 30 MB: with the default the heap, and the
 * process's resident memory with it, grew by 100 MB and more before each full collection. At 50 %
 * a full collection comes sooner; each one costs a few milliseconds at that live size.
 */
export const CORE_HEAP_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

/**
 * Sets `CORE_HEAP_FLAGS` in the running process, for a host whose command line is not ours
 * (`node out/web/web.mjs`, as `npm run web`, a user or a test starts it). V8 reads this flag
 * each time it sizes the heap after a full collection, so setting it as the process starts
 * applies it to the whole run. A flag of the same name given on the command line wins. Answers
 * the flags it set.
 */
export function applyCoreHeapFlags(
  execArgv: readonly string[] = process.execArgv,
  set: (flag: string) => void = setFlagsFromString,
): string[] {
  const given = new Set(execArgv.map(flagName));
  const applied = CORE_HEAP_FLAGS.filter((flag) => !given.has(flagName(flag)));
  for (const flag of applied) set(flag);
  return applied;
}

/**
 * A child's command line: `execArgv` with `CORE_HEAP_FLAGS` added, each unless `execArgv` names
 * it already (a flag given by whoever started the host wins, as in `applyCoreHeapFlags`).
 */
export function withCoreHeapFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.map(flagName));
  return [...execArgv, ...CORE_HEAP_FLAGS.filter((flag) => !given.has(flagName(flag)))];
}

/** A flag's name as V8 reads it: `--heap-growing-percent=50` and `--heap_growing_percent 50` alike. */
function flagName(arg: string): string {
  return (arg.split('=')[0] ?? arg).replace(/_/g, '-');
}
