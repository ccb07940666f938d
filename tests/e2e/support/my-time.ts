// My Time's week in the e2e tests: a day's string as the grid names it, and an empty day to type
// into (one up to today, since a pull reads the reports up to today).
import type { Locator } from 'playwright-core';

const pad = (n: number): string => String(n).padStart(2, '0');

/** A local date as the grid's `data-day` (YYYY-MM-DD). */
export const dayString = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The first cell of the week with no time, on a day up to today: its row's task and its day. */
export async function emptyDayUpToToday(view: Locator): Promise<{ taskId: string; day: string }> {
  const empty = await view.locator('[data-testid="mytime-cell"][data-minutes="0"]').evaluateAll(
    (cells, last) =>
      cells
        .map((c) => ({
          taskId: c.closest('tr')?.dataset['task'] ?? '',
          day: c.getAttribute('data-day') ?? '',
        }))
        .filter((c) => c.day <= last),
    dayString(new Date()),
  );
  if (!empty[0]) throw new Error('the demo seed leaves a day up to today without time this week');
  return empty[0];
}
