// A start on My Work paints its first rows before formatting any full date: a page's first date
// format loads the browser's date data (tens of milliseconds, more at start-up), and the rows'
// full dates are only their times' tooltips. Once the first rows are painted the tooltips come,
// each with its full date. Noted in the page: the frame that paints the first inbox row (its
// animation callbacks, which run before its paint) and when the page first built a date format.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';

interface Notes {
  /** The animation callbacks of the frame that paints the first row. */
  rowFrame?: number;
  firstDateFormat?: number;
}

describe('the first rows of a start on My Work', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('are painted before any full date is formatted; the times then carry their full dates', async () => {
    const { page, ui } = suite;
    await ui.waitForTitle('Home');
    await ui.goToActionRequired();
    await page.getByTestId('inbox-row').first().waitFor();

    await page.addInitScript(() => {
      const notes: Notes = {};
      (window as unknown as { notes: Notes }).notes = notes;
      // Both `new Intl.DateTimeFormat()` and a plain call build one.
      const note = (): void => void (notes.firstDateFormat ??= performance.now());
      Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
        construct: (target, args: unknown[]) => (note(), Reflect.construct(target, args) as object),
        apply: (target, self: unknown, args: unknown[]) => (
          note(),
          Reflect.apply(target, self, args) as unknown
        ),
      });
      const observer = new MutationObserver(() => {
        if (!document.querySelector('[data-testid="inbox-row"]')) return;
        observer.disconnect();
        // The frame that paints the row: its callbacks run before its paint.
        requestAnimationFrame(() => (notes.rowFrame = performance.now()));
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await ui.waitForTitle('My Work');
    const firstTime = page.getByTestId('inbox-handed').first().locator('time');
    // The tooltip's full date: the month's short name and the year, e.g. "Nov 28, 2026, 9:30 AM".
    await expect.poll(() => firstTime.getAttribute('title')).toMatch(/\d{4}/);
    const notes = await page.evaluate(() => (window as unknown as { notes: Notes }).notes);
    expect(notes.rowFrame).toBeDefined();
    expect(notes.firstDateFormat).toBeDefined();
    expect(notes.firstDateFormat!).toBeGreaterThan(notes.rowFrame!);
    // Every time shown, and every row's, has its full date by now.
    const titles = await page
      .getByTestId('inbox-row')
      .locator('time')
      .evaluateAll((times) => times.map((t) => t.getAttribute('title') ?? ''));
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(title).toMatch(/\d{4}/);
    await screenshot(page, 'first-rows-paint');
  });
});
