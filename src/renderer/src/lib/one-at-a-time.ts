// A view's read of the core, run one at a time. A view reads again after each burst of cache
// changes; during a sync those come every few tens of milliseconds, and a read that takes the
// core longer than that (the whole Action required inbox: about 150 ms at 20,000 tasks) was
// asked for again before the last had ended, so several ran at once and the core did little else.

/**
 * Wraps `read` so that it runs one call at a time. A call made while a run is under way is
 * answered by one more run once it ends, shared by every call made meanwhile (with the last
 * one's arguments). Each call's promise settles when a run that began after the call has ended:
 * a caller that has just written reads what it wrote. A failed run fails the calls it answers;
 * the next run starts all the same.
 */
export function oneAtATime<A extends unknown[]>(
  read: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: { args: A; promise: Promise<void> } | undefined;
  const start = (args: A): Promise<void> => {
    const run = read(...args).finally(() => {
      if (running === run) running = undefined;
    });
    running = run;
    return run;
  };
  return (...args: A): Promise<void> => {
    if (!running) return start(args);
    if (queued) {
      queued.args = args;
      return queued.promise;
    }
    const next: { args: A; promise: Promise<void> } = {
      args,
      promise: running
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return start(next.args);
        }),
    };
    queued = next;
    return next.promise;
  };
}
