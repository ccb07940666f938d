/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';

/** Where the first-paint clock stops: a row of My Work painted (Action required is an inbox). */
export const TASK_ROW = '[data-testid="inbox-row"], [data-testid="task-row"]';

export interface FirstRows {
  /** Navigation start to the app frame (sidebar) shown, by the page's clock. */
  frameMs: number;
  /** Navigation start to the first task rows of My Work painted (home, then My Work). */
  rowsMs: number;
}

/**
 * Loads the app in `page` and opens My Work, resolving once its first rows, read from the
 * cache, are painted; the times are the page's own clock (navigation start = 0).
 */
export async function showMyWork(page: Page, url: string, timeoutMs = 120_000): Promise<FirstRows> {
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Sidebar' }).waitFor({ timeout: timeoutMs });
  const frameMs = await page.evaluate(() => performance.now());
  await page.getByTestId('nav-action-required').click();
  await page.waitForSelector(TASK_ROW, { timeout: timeoutMs });
  // The frame after the rows entered the DOM: they are painted by then.
  const rowsMs = await page.evaluate(
    () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))),
  );
  return { frameMs, rowsMs };
}

/** `showMyWork` in a fresh page, closed after. */
export async function firstRows(browser: Browser, url: string): Promise<FirstRows> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    return await showMyWork(page, url);
  } finally {
    await page.close();
  }
}
