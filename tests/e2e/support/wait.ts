/** Polls `read` until `check` passes on its value (the service catching up with the outbox). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  { timeout = 30_000, interval = 200 }: { timeout?: number; interval?: number } = {},
): Promise<T> {
  const until = Date.now() + timeout;
  let last: T | undefined;
  let error: unknown;
  while (Date.now() < until) {
    try {
      last = await read();
      if (check(last)) return last;
    } catch (err) {
      error = err;
    }
    await new Promise((done) => setTimeout(done, interval));
  }
  throw new Error(
    `condition not met within ${timeout} ms; last value: ${JSON.stringify(last)?.slice(0, 500)}${error ? `; last error: ${String(error)}` : ''}`,
  );
}
