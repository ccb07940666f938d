/**
 * Work the first screen does not need (a whole list behind its first page, the day's due-task
 * check) waits until the page's main thread is idle: the frames that draw what the user looks at
 * come first, and a large answer's parsing and rendering do not delay them. `timeoutMs` bounds
 * the wait on a page that is never idle. Without `requestIdleCallback` (outside a window), a
 * short timer stands in.
 */
export function whenIdle(timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 16);
  });
}
