import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';

const pad = (n: number): string => String(n).padStart(2, '0');
const dayString = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** This week's Monday and Tuesday, as My Time shows them. */
function mondayAndTuesday(): [string, string] {
  const monday = new Date();
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  const tuesday = new Date(monday);
  tuesday.setDate(monday.getDate() + 1);
  return [dayString(monday), dayString(tuesday)];
}

/**
 * A task created offline has a local id until its create is sent; then its reports move to the
 * id the service gave it. A duration typed meanwhile into an empty day of its My Time row follows
 * the row to the real id: it is never left on a row of the local id, called "deleted elsewhere"
 * (the core no longer holds the local id) with Enter refused.
 */
describe('My Time: typing on the row of a task created offline, when the task is sent', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 900 } });

  it('moves the typing to the row of the real id, which logs it on Enter', async () => {
    const { app, page, ui } = suite;
    const [monday, tuesday] = mondayAndTuesday();
    await app.stopService();
    await page.getByTestId('sync-now').click();
    await ui.waitForOnline(false);
    const created = await app.core.dispatch('tasks.create', { projectId: 'g7-p1', title: 'Offline notes' });
    if (!created.ok) throw new Error(created.error.message);
    const localId = (created.value as { id: string }).id;
    expect(localId).toMatch(/^local-/);
    expect(await app.core.dispatch('time.log', { taskId: localId, minutes: 30, date: monday })).toMatchObject(
      {
        ok: true,
      },
    );

    await page.getByTestId('nav-mytime').click();
    const view = page.getByTestId('mytime');
    const rows = view.locator('[data-testid="mytime-row"]').filter({ hasText: 'Offline notes' });
    await rows.first().waitFor();
    expect(await rows.first().getAttribute('data-task')).toBe(localId);
    const cellOf = (day: string) => rows.first().locator(`[data-testid="mytime-cell"][data-day="${day}"]`);
    await cellOf(tuesday).click();
    await cellOf(tuesday).pressSequentially('45m');

    // Back online: the create and the report are sent, and the task gets its real id.
    await app.restartService();
    await ui.waitForOnline(true);
    await ui.waitForPendingCount(0);
    await expect.poll(() => rows.first().getAttribute('data-task')).not.toBe(localId);
    const realId = (await rows.first().getAttribute('data-task'))!;
    expect(realId).not.toMatch(/^local-/);

    // One row, the real one: Monday's 30m logged, Tuesday's typing in its box, no "gone" note.
    // Before, the typing stayed on a second row of the local id, said to be deleted elsewhere.
    await expect.poll(() => rows.count()).toBe(1);
    expect(await cellOf(monday).getAttribute('data-minutes')).toBe('30');
    expect(await cellOf(tuesday).inputValue()).toBe('45m');
    expect(await view.getByTestId('mytime-row-gone').count()).toBe(0);
    expect(await view.getByTestId('mytime-cell-note').innerText()).toBe('');
    await screenshot(page, 'my-time-created-offline');

    await cellOf(tuesday).press('Enter');
    await expect.poll(() => rows.first().getByTestId('mytime-row-total').innerText()).toBe('1h 15m');
    await ui.waitForPendingCount(0);
    expect(await app.core.dispatch('outbox.failed', {})).toEqual({ ok: true, value: [] });
    expect(await view.getByTestId('mytime-cell-error').innerText()).toBe('');
  });
});
