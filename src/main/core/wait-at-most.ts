// Waiting for something that should end soon, never longer than a bound: a close waiting for the
// calls already made or for a start under way, the first-screen reads at a close. The bound's
// timer is cleared either way, so it never keeps the process alive after the wait.

/** Waits for `work` to settle (a rejection counts), at most `ms`; answers whether it did in time. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((done) => (timer = setTimeout(() => done(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s value, or a rejection with `late`'s error once it has taken over `ms`. */
export async function valueWithin<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, fail) => (timer = setTimeout(() => fail(late()), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
