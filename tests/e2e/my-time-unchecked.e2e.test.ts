import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { emptyDayUpToToday } from './support/my-time';

/**
 * My Time keeps a row with typing whose reports went, and asks the service whether its task is
 * gone. When that ask fails (the service answers 500) while online, the row must not say the
 * task was deleted: it says it could not check, and "Check again" asks once more.
 */
describe('My Time: a kept row whose task could not be checked', () => {
  const suite = appSuite({ service: { seed: 'demo', faults: true }, viewport: { width: 1280, height: 900 } });

  it('says it could not check (not "deleted") while the service fails, and tells the truth on Check again', async () => {
    const { app, page } = suite;
    await page.getByTestId('nav-mytime').click();
    const view = page.getByTestId('mytime');
    await view.getByTestId('mytime-row').first().waitFor();
    const { taskId, day } = await emptyDayUpToToday(view);
    const row = view.locator(`[data-testid="mytime-row"][data-task="${taskId}"]`);
    const cell = row.locator(`[data-testid="mytime-cell"][data-day="${day}"]`);
    await cell.click();
    await cell.pressSequentially('30m');
    const weekTotal = view.getByTestId('mytime-week-total');
    const before = await weekTotal.innerText();

    // The service fails every read of this task (its detail, messages, dependencies); a colleague deletes it, and a pull brings that.
    const escaped = taskId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    app.faults!.set({
      serverError: { rate: 1, status: 500, match: new RegExp(`^GET \\S*/task/${escaped}([/?]|$)`) },
    });
    await app.api(`/task/${taskId}`, { method: 'DELETE' });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await expect.poll(() => weekTotal.innerText()).not.toBe(before);

    // The row and its typing stay; the ask about the task failed, so it is not called deleted.
    // Before, the core answered "not found" after the failed ask, and the row said deleted.
    await expect.poll(() => row.getByTestId('mytime-row-unchecked').count()).toBe(1);
    expect(await row.getByTestId('mytime-row-unchecked').innerText()).toBe(
      'Could not check whether this task still exists; what you typed is kept',
    );
    expect(await row.getByTestId('mytime-row-gone').count()).toBe(0);
    expect(await cell.inputValue()).toBe('30m');
    expect(await view.getByTestId('mytime-cell-note').innerText()).toMatch(
      /^Whether .+ still exists could not be checked with the service: what you typed is kept; Check again asks once more, and Enter logs it once the task is found\.$/,
    );
    expect(await cell.getAttribute('aria-describedby')).toBe('mytime-cell-note');
    await screenshot(page, 'my-time-unchecked');
    // Enter logs nothing on a task the core does not hold, and says why; the typing stays.
    const shown = await weekTotal.innerText();
    await cell.press('Enter');
    await expect
      .poll(() => view.getByTestId('mytime-cell-error').innerText())
      .toMatch(
        /^Not logged: whether .+ still exists could not be checked\. Check again first; what you typed is kept\.$/,
      );
    expect(await cell.inputValue()).toBe('30m');
    expect(await weekTotal.innerText()).toBe(shown);

    // The service answers again: Check again finds the task gone, and the row says so.
    app.faults!.set({ serverError: undefined });
    await row.getByTestId('mytime-row-recheck').click();
    await expect
      .poll(() => row.getByTestId('mytime-row-gone').innerText())
      .toBe('This task was deleted elsewhere; what you typed is kept');
    expect(await row.getByTestId('mytime-row-unchecked').count()).toBe(0);
    expect(await cell.inputValue()).toBe('30m');
    await screenshot(page, 'my-time-unchecked-checked-again');
  });
});
