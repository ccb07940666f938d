import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { emptyDayUpToToday } from './support/my-time';

/**
 * My Time's week grid: a row is there for a task's time this week. When a colleague deletes the
 * task (its reports go with it) while the user types a duration into an empty day of its row,
 * the pull leaves the row without a report: the row, and what was typed, stay with a note that
 * the task is gone; Enter logs nothing there (the service would refuse it), Escape gives it up.
 */
describe('My Time keeps a row with typing whose reports were deleted elsewhere', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 900 } });

  it('keeps the row and its typing, says its task is gone, does not log it on Enter, and lets Escape give it up', async () => {
    const { app, page, ui } = suite;
    await page.getByTestId('nav-mytime').click();
    const view = page.getByTestId('mytime');
    await view.getByTestId('mytime-row').first().waitFor();
    // An empty day up to today in a row that has time on another day.
    const { taskId, day } = await emptyDayUpToToday(view);
    const row = view.locator(`[data-testid="mytime-row"][data-task="${taskId}"]`);
    const cell = row.locator(`[data-testid="mytime-cell"][data-day="${day}"]`);
    await cell.click();
    await cell.pressSequentially('30m');
    const weekTotal = view.getByTestId('mytime-week-total');
    const before = await weekTotal.innerText();

    // A colleague deletes the task; its reports go with it, and a pull brings that.
    await app.api(`/task/${taskId}`, { method: 'DELETE' });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await expect.poll(() => weekTotal.innerText()).not.toBe(before);

    // Before, the row went with its reports, and the 30m typed with it.
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId('mytime-row-total').innerText()).toBe('0m');
    expect(await cell.inputValue()).toBe('30m');
    expect(await cell.evaluate((el) => el === document.activeElement)).toBe(true);
    // The task is gone, not only its time: the row says so, and nothing offers Enter.
    await expect
      .poll(() => row.getByTestId('mytime-row-gone').innerText())
      .toBe('This task was deleted elsewhere; what you typed is kept');
    const note = view.getByTestId('mytime-cell-note');
    expect(await note.innerText()).toMatch(
      /^.+ was deleted elsewhere: time cannot be logged on it\. What you typed stays \(copy it to log it on another task\) until Escape gives it up\.$/,
    );
    expect(await cell.getAttribute('aria-describedby')).toBe('mytime-cell-note');
    await screenshot(page, 'my-time-row-kept');

    // Enter queues nothing (before, it queued a report the service refused, shown under Changes):
    // it says why in place, and the typing stays.
    await cell.press('Enter');
    await expect
      .poll(() => view.getByTestId('mytime-cell-error').innerText())
      .toMatch(/^Not logged: .+ no longer exists\.$/);
    await ui.waitForPendingCount(0);
    expect(await app.core.dispatch('outbox.pending', {})).toEqual({ ok: true, value: [] });
    expect(await app.core.dispatch('outbox.failed', {})).toEqual({ ok: true, value: [] });
    expect(await cell.inputValue()).toBe('30m');
    expect(await row.count()).toBe(1);
    await screenshot(page, 'my-time-row-kept-enter');

    await cell.press('Escape');
    await expect.poll(() => row.count()).toBe(0);
    expect(await view.getByTestId('mytime-cell-note').innerText()).toBe('');
    expect(await view.getByTestId('mytime-cell-error').innerText()).toBe('');
  });
});
