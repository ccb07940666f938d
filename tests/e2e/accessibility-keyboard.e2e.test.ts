/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { CalendarPage } from './pages/calendar';
import { TaskListPage } from './pages/task-list';

interface ServiceEvent {
  id: string;
  name: string;
  startDate: string;
  endDate?: string | null;
}

/** The element with the focus: its test id, its day (a month cell) and whether it is in a task row. */
function focused(page: Page): Promise<{ testid: string | null; day: string | null; inRow: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return {
      testid: el?.getAttribute('data-testid') ?? null,
      day: el?.getAttribute('data-day') ?? null,
      inRow: !!el?.closest('[data-testid="task-row"]'),
    };
  });
}

/**
 * How many pixels differ between two PNG screenshots of the same size, decoded by the page's
 * own canvas (a channel differing by more than 8 counts).
 */
function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([first, second]) => {
      // From the bytes themselves: the app's CSP lets no data: address be fetched.
      const decode = async (base64: string): Promise<ImageData> => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        return context.getImageData(0, 0, bitmap.width, bitmap.height);
      };
      const [x, y] = [await decode(first), await decode(second)];
      if (x.width !== y.width || x.height !== y.height) return -1;
      let count = 0;
      for (let i = 0; i < x.data.length; i += 4)
        for (let c = 0; c < 3; c++)
          if (Math.abs(x.data[i + c]! - y.data[i + c]!) > 8) {
            count++;
            break;
          }
      return count;
    },
    [a.toString('base64'), b.toString('base64')] as const,
  );
}

function dayString(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

describe('accessibility by keyboard: where the focus is shows, the skip link, the month grid', () => {
  const suite = appSuite({ service: { seed: 'demo' } });

  it('skips from the top of the page to the list, whose focus and active row then show', async () => {
    const { page, ui } = suite;
    // The app just opened, nothing focused: the first Tab stop is the skip link, shown once focused.
    await page.keyboard.press('Tab');
    expect((await focused(page)).testid).toBe('skip-link');
    const link = (await page.getByTestId('skip-link').boundingBox())!;
    expect(link.y).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'accessibility-skip-link');

    const list = new TaskListPage(page);
    await ui.openDemoProject('Customer portal 4');
    await list.waitForRows();
    // Nothing focused, as after a click on nothing.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const table = list.table;
    const box = (await table.boundingBox())!;
    const unfocused = await page.screenshot({ clip: box });
    await screenshot(page, 'accessibility-list-unfocused');
    // The list has no focus: no row is marked as where the keys act.
    const activeMark = () =>
      page.evaluate(() => {
        const row = document.querySelector<HTMLElement>('[data-testid="task-row"].active');
        return row
          ? { shadow: getComputedStyle(row).boxShadow, outline: getComputedStyle(row).outlineStyle }
          : null;
      });
    expect(await activeMark()).toEqual({ shadow: 'none', outline: 'none' });

    // Back to the skip link (it is just before the sidebar's search box); Enter: the list.
    await page.locator('#global-search').focus();
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).testid).toBe('skip-link');
    await page.keyboard.press('Enter');
    expect((await focused(page)).testid).toBe('task-table');

    const focusedShot = await page.screenshot({ clip: box });
    await screenshot(page, 'accessibility-list-focused');
    const changed = await differingPixels(page, unfocused, focusedShot);
    // The ring around the list (~2 x (width + height) x 2 px) and the active row's mark.
    expect(changed).toBeGreaterThan(2 * (box.width + box.height));
    const mark = await activeMark();
    expect(mark?.outline).toBe('solid');
    expect(mark?.shadow).not.toBe('none');

    // The mark follows the keys.
    const before = await page.locator('[data-testid="task-row"].active').getAttribute('data-task-id');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const after = await page.locator('[data-testid="task-row"].active').getAttribute('data-task-id');
    expect(after).not.toBe(before);
    expect((await activeMark())?.outline).toBe('solid');
    await screenshot(page, 'accessibility-list-focused-moved');
  });

  it('keeps the focus and the selection visible in a high-contrast theme, and stops motion when asked', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    await page.emulateMedia({ forcedColors: 'active', reducedMotion: 'reduce' });
    try {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const box = (await list.table.boundingBox())!;
      const unfocused = await page.screenshot({ clip: box });
      await page.locator('#global-search').focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Space');
      const styles = await page.evaluate(() => {
        const row = document.querySelector<HTMLElement>('[data-testid="task-row"].active');
        const style = row && getComputedStyle(row);
        return {
          outline: style?.outlineStyle,
          selected: row?.getAttribute('aria-selected'),
          // The status bar's progress has a transition: cut to nothing.
          transition: getComputedStyle(document.body).transitionDuration,
        };
      });
      // The shadow mark is dropped by such a theme: the active row has a dashed ring instead.
      expect(styles.outline).toBe('dashed');
      expect(styles.selected).toBe('true');
      expect(parseFloat(styles.transition)).toBeLessThan(0.001);
      const focusedShot = await page.screenshot({ clip: box });
      expect(await differingPixels(page, unfocused, focusedShot)).toBeGreaterThan(
        2 * (box.width + box.height),
      );
      await screenshot(page, 'accessibility-forced-colors-list-focused');
      await page.keyboard.press('Space');
    } finally {
      await page.emulateMedia({ forcedColors: 'none', reducedMotion: 'no-preference' });
    }
  });

  it('leaves a row’s status cell out of the Tab order once its picker closed', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    const row = list.rows.first();
    const task = {
      id: (await row.getAttribute('data-task-id'))!,
      name: await row.locator('.task-name').innerText(),
    };
    const current = await row.getByTestId('cell-status').innerText();
    await list.setStatusInline(task, current.includes('In Progress') ? 'On Hold' : 'In Progress');
    // The picker's trigger stays in the row (it keeps the focus): it is not a Tab stop.
    await expect.poll(() => list.row(task).getByTestId('cell-status').getAttribute('tabindex')).toBe('-1');
    await list.table.focus();
    await page.keyboard.press('Tab');
    const next = await focused(page);
    expect(next.inRow).toBe(false);
    expect(next.testid).not.toBe('cell-status');
  });

  it('moves through the month by keys and opens a day’s first event with Enter', async () => {
    const { app, page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    const today = new Date();
    const month = dayString(today).slice(0, 7);
    const events = await app.api<ServiceEvent[]>(
      `/events?startDate=${month}-01&endDate=${dayString(new Date(today.getFullYear(), today.getMonth() + 1, 0))}`,
    );
    await calendar.chips.first().waitFor();

    // One Tab stop: from the last type filter into the grid, on today; the next Tab leaves it.
    await page.locator('[data-testid^="type-filter-"]').last().focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ testid: 'day-cell', day: dayString(today) });
    await screenshot(page, 'accessibility-calendar-focused-day');

    const shift = (days: number): string =>
      dayString(new Date(today.getFullYear(), today.getMonth(), today.getDate() + days));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const movedTo = shift(8);
    if (movedTo.startsWith(month)) expect((await focused(page)).day).toBe(movedTo);
    // Back to today, then Home and End: the week's Monday and Sunday.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    expect((await focused(page)).day).toBe(dayString(today));
    const weekday = (today.getDay() + 6) % 7;
    await page.keyboard.press('Home');
    const monday = shift(-weekday);
    await page.keyboard.press('End');
    const sunday = shift(6 - weekday);
    expect((await focused(page)).day).toBe(sunday);
    expect(monday < sunday).toBe(true);

    // Page Down: the same day of the next month, shown; Page Up back.
    const title = await page.getByTestId('view-title').textContent();
    await page.keyboard.press('PageDown');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="view-title"]')?.textContent !== before,
      title,
    );
    const nextMonthDay = (await focused(page)).day;
    expect(nextMonthDay?.slice(0, 7)).not.toBe(sunday.slice(0, 7));
    expect((await focused(page)).testid).toBe('day-cell');
    await page.keyboard.press('PageUp');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="view-title"]')?.textContent === before,
      title,
    );
    expect((await focused(page)).day).toBe(sunday);

    // Enter on a day with events opens its first; Escape brings the focus back to the day.
    const target = events
      .map((event) => event.startDate)
      .filter((day) => day.startsWith(month))
      .sort()[0]!;
    await page.locator(`[data-testid="day-cell"][data-day="${target}"]`).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    expect((await focused(page)).day).toBe(target);
    const firstChip = page
      .locator(`[data-testid="day-cell"][data-day="${target}"] [data-testid="event-chip"]`)
      .first();
    const firstName = (await firstChip.innerText()).trim();
    await page.keyboard.press('Enter');
    await calendar.detail.waitFor();
    await expect.poll(() => calendar.detail.innerText()).toContain(firstName);
    await screenshot(page, 'accessibility-calendar-enter-opens-event');
    await page.keyboard.press('Escape');
    await calendar.detail.waitFor({ state: 'hidden' });
    expect((await focused(page)).day).toBe(target);

    // N: a new event on the focused day.
    await page.keyboard.press('ArrowRight');
    const day = (await focused(page)).day!;
    await page.keyboard.press('n');
    await calendar.newEvent.waitFor();
    await expect.poll(() => page.getByTestId('event-start').inputValue()).toBe(day);
    await page.keyboard.press('Escape');
    await calendar.newEvent.waitFor({ state: 'hidden' });
  });
});
