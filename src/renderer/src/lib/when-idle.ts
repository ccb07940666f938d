/**
 * Work the first screen does not need (a whole list behind its first page, the day's due-task
 * check) waits until the page's main thread is idle: the frames that draw what the user looks at
 * come first, and a large answer's parsing and rendering do not delay them. `timeoutMs` bounds
 * the wait on a page that is never idle. Without `requestIdleCallback` (outside a window), a
 * short timer stands in.
 */
export function whenIdle(timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 16);
  });
}

/**
 * How long work behind the first screen waits after it is asked for, before it waits for the
 * page to be idle: the page is idle while it waits for the core's first answers too, and a user's
 * first click after start (My Work, a project) should not queue behind a megabyte to parse.
 */
export const AFTER_FIRST_SCREEN_MS = 1000;

/** `delayMs`, then the page idle: when to do what the first screen does not show. */
export async function afterFirstScreen(delayMs = AFTER_FIRST_SCREEN_MS): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  await whenIdle();
}
