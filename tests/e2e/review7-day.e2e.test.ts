/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { PalettePage } from './pages/palette';
import { handOver } from './support/hand-over';

// Session 7 review: a working day in the app, end to end, by keyboard first
// (/work/notes/s7-review.md).

/** Where the keyboard focus is: test id, else tag and label. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return 'body';
    return (
      active.dataset['testid'] ?? `${active.tagName.toLowerCase()} ${active.getAttribute('aria-label') ?? ''}`
    );
  });
}

interface ServiceTask {
  id: string;
  name: string;
  actionRequiredUserId: string | null;
}

describe('a working day by keyboard', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('keeps the frame in the window when a task opens and its message box takes the focus', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.openHit('Ship login flow', 'Tasks');
    await page.getByTestId('detail-panel').waitFor();
    // Before: a visually hidden label in the panel's scrolling body was placed against the page,
    // 1000 px below the window, so the document itself could scroll: a focus or scroll into view
    // then moved the whole frame up, under a blank band, with no way back.
    const extent = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(extent).toBe(800);
    await page.keyboard.press('c');
    await page.locator('textarea[id^="composer-"]:focus').waitFor();
    await page.evaluate(() => document.querySelector('[id^="composer-"]')?.scrollIntoView());
    expect(await page.evaluate(() => document.documentElement.scrollTop)).toBe(0);
    const bar = await page.getByTestId('status-bar').boundingBox();
    expect(bar && bar.y + bar.height).toBe(800);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
  });

  it('takes the focus into what the palette opens, not back to the sidebar', async () => {
    const { page, ui } = suite;
    const palette = new PalettePage(page);
    await ui.goToActionRequired();
    await page.getByTestId('nav-action-required').focus();
    await palette.openHit('Ship login flow', 'Tasks');
    // Before: the focus went back to "Action required" in the sidebar.
    await page.locator('[data-testid="detail-panel"]:focus').waitFor();
    // The task keys act on the task the palette opened; Escape closes it, the list takes the focus.
    await page.keyboard.press('p');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="detail-panel"] [data-testid="field-priority"]:focus').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('detail-panel').waitFor({ state: 'hidden' });
    expect(await focused(page)).toBe('inbox');

    // "calendar" goes there (before: it opened a New event dialog, listed first).
    expect(await palette.runCommand('calendar')).toBe('Go to Calendar');
    await ui.waitForTitle('Calendar');
    await page.locator('[data-testid="view-title"]:focus').waitFor();

    // A contact: its record takes the focus, Tab goes on to its Edit button.
    await palette.openHit('Maya', 'Contacts');
    await page.locator('[data-testid="crm-detail"]:focus').waitFor();
    await screenshot(page, 'review7-focus-after-palette');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="crm-detail"]'))).toBe(
      true,
    );
  });

  it('never leaves the focus on the page body after a view change or a dialog', async () => {
    const { page, ui } = suite;
    const palette = new PalettePage(page);
    await ui.goToAssigned();
    await page.getByTestId('task-table').focus();
    // The list goes with the view: before, the focus fell to <body> and Tab started over.
    await page.keyboard.press('Control+,');
    await ui.waitForTitle('Settings');
    await page.locator('[data-testid="view-title"]:focus').waitFor();
    await page.keyboard.press('Alt+ArrowLeft');
    await page.locator('[data-testid="task-table"]:focus').waitFor();

    // A dialog opened from the palette has nothing to hand the focus back to on Escape.
    await palette.runCommand('New calendar event');
    await page.getByTestId('event-type').waitFor();
    await page.getByTestId('event-start').fill('2026-11-24');
    await page.getByRole('button', { name: 'Clear Start date' }).focus();
    await page.keyboard.press('Enter');
    // The Clear button goes with the date; the focus goes to the date field, not <body>.
    expect(await focused(page)).toBe('event-start');
    await page.keyboard.press('Escape');
    await page.getByTestId('event-type').waitFor({ state: 'hidden' });
    await page.locator('[data-testid="view-title"]:focus').waitFor();
  });

  it('keeps a message typed and not sent when the user moves to another task and back', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.openHit('Review API limits', 'Tasks');
    await page.getByTestId('detail-panel').waitFor();
    await page.keyboard.press('c');
    await page.locator('textarea[id^="composer-"]:focus').waitFor();
    await page.keyboard.type('A long thought, half written');
    await palette.openHit('Ship login flow', 'Tasks');
    await eventually(
      () => page.getByTestId('task-title').inputValue(),
      (title) => title === 'Ship login flow',
      { timeout: 5_000 },
    );
    expect(await page.locator('textarea[id^="composer-"]').inputValue()).toBe('');
    // Before: back on the first task, the message box was empty.
    await page.keyboard.press('Alt+ArrowLeft');
    await eventually(
      () => page.locator('textarea[id^="composer-"]').inputValue(),
      (text) => text === 'A long thought, half written',
      { timeout: 5_000 },
    );
    // Sent, it is gone for good.
    await page.locator('textarea[id^="composer-"]').press('Control+Enter');
    await eventually(
      () => page.locator('textarea[id^="composer-"]').inputValue(),
      (text) => text === '',
      { timeout: 5_000 },
    );
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
  });

  it('lists Ctrl+F in the shortcuts help, as it does what the help says', async () => {
    const { page, ui } = suite;
    const palette = new PalettePage(page);
    await ui.goToAssigned();
    await page.getByTestId('view-title').focus();
    await page.keyboard.press('?');
    await palette.help.waitFor();
    // Before: Ctrl+F focused the sidebar's search box, and the help did not say so.
    const row = palette.help.locator('dt', { hasText: 'Ctrl+F' });
    expect(await row.count()).toBe(1);
    expect(await row.locator('xpath=following-sibling::dd[1]').innerText()).toBe('Search box (results page)');
    await page.keyboard.press('Escape');
    await palette.help.waitFor({ state: 'hidden' });
    await page.keyboard.press('Control+f');
    await page.locator('#global-search:focus').waitFor();
    // The same from the palette, after it closed and handed the focus back.
    await page.getByTestId('view-title').focus();
    expect(await palette.runCommand('search box')).toBe('Search box (results page)');
    await page.locator('#global-search:focus').waitFor();
  });

  it('tells once that another user handed a task over, and the notice opens the task', async () => {
    const { app, page, ui } = suite;
    await ui.goToChanges();
    const users = app.service!.users;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p3/tasks');
    const task = tasks.find((t) => t.actionRequiredUserId !== users.actingUserId);
    if (!task) throw new Error('every task of the project already waits for the acting user');
    const notice = await handOver(app, page, task, 'Over to you');
    await notice.waitFor();
    // A later sync finds the task still waiting: no second notice.
    await app.api(`/task/${task.id}/comment`, {
      method: 'POST',
      body: { userId: users.bob, message: 'And one more thing' },
    });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    expect(await notice.count()).toBe(1);
    await screenshot(page, 'review7-action-required-notice');
    // Before: the notice said which task, and nothing led to it.
    await notice.getByRole('button', { name: 'Open' }).click();
    await notice.waitFor({ state: 'hidden' });
    // Changes has no list to open it beside: the task opens full size, its title takes the focus.
    await ui.waitForTitle(task.name);
    expect(await page.getByTestId('task-title').inputValue()).toBe(task.name);
    await page.locator('[data-testid="view-title"]:focus').waitFor();
    await page.keyboard.press('Alt+ArrowLeft');
    await ui.waitForTitle('Changes');
  });
});

describe('a manager’s day: dates that do not fit', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1024, height: 700 } });

  it('refuses a project that ends before it starts in the dialog, naming the field, and creates nothing', async () => {
    const { app, page, ui } = suite;
    await new PalettePage(page).runCommand('New project');
    const dialog = page.getByTestId('new-project-dialog');
    await dialog.getByLabel('Name').fill('Backwards launch');
    await dialog.getByTestId('np-startDate').fill('2026-11-23');
    await dialog.getByTestId('np-endDate').fill('2026-11-20');
    await dialog.getByTestId('np-create').click();
    // Before: "Created", then the new project's page said "not in the cache" and the change was
    // refused in Changes as "endDate: must not be before startDate", its dates not editable.
    await dialog.getByText('End date: must not be before the start date').waitFor();
    expect(await dialog.getByTestId('np-endDate').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'review7-project-dates-refused');
    expect(await app.core.dispatch('outbox.pending', {})).toMatchObject({ ok: true, value: [] });
    await dialog.getByTestId('np-endDate').fill('2026-12-20');
    await dialog.getByTestId('np-create').click();
    await ui.waitForTitle('Backwards launch');
    const projects = await eventually(
      () => app.api<{ id: string; name: string; endDate: string | null }[]>('/projects'),
      (all) => all.some((p) => p.name === 'Backwards launch'),
    );
    expect(projects.find((p) => p.name === 'Backwards launch')?.endDate).toBe('2026-12-20');
  });

  it('moves a new event’s end with its start, and words a refusal with the fields’ labels', async () => {
    const { page } = suite;
    await new PalettePage(page).runCommand('New calendar event');
    const dialog = page.getByTestId('new-event');
    await dialog.getByTestId('event-name').fill('Offsite');
    const day = await dialog.getByTestId('event-end').inputValue();
    const later = new Date(Date.parse(`${day}T12:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByTestId('event-start').fill(later);
    // Before: the end stayed on the day the form opened with, and Create said
    // "End date: must not be before startDate".
    expect(await dialog.getByTestId('event-end').inputValue()).toBe(later);
    await dialog.getByTestId('event-end').fill(day);
    await dialog.getByTestId('event-create').click();
    expect(await dialog.getByTestId('event-problem').innerText()).toBe(
      'End date: must not be before start date',
    );
    await page.keyboard.press('Escape');
  });

  it('refuses a task date that ends it before it starts, and shows a change the service refused on the task', async () => {
    const { app, page } = suite;
    const tasks =
      await app.api<(ServiceTask & { startDate: string | null; endDate: string | null })[]>(
        '/project/g7-p4/tasks',
      );
    const task = tasks.find((t) => !t.startDate && !t.endDate);
    if (!task) throw new Error('the demo project has a task without dates');
    const palette = new PalettePage(page);
    await palette.openHit(task.name, 'Tasks');
    const panel = page.locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`);
    await panel.waitFor();
    await panel.getByTestId('field-start').fill('2027-02-10');
    await panel.getByTestId('field-start').blur();
    await eventually(
      () => app.api<{ startDate: string | null }>(`/task/${task.id}`),
      (t) => t.startDate === '2027-02-10',
    );
    // Before: sent, shown as saved, and refused by the service later: "1 refused" in the status
    // bar, nothing on the task.
    await panel.getByTestId('field-end').fill('2027-02-01');
    await panel.getByTestId('field-end').blur();
    await panel
      .getByRole('alert')
      .filter({ hasText: 'End date: must not be before the start date' })
      .waitFor();
    expect(await app.core.dispatch('outbox.pending', {})).toMatchObject({ ok: true, value: [] });

    // Another client moves the start later; the end typed here fits what this app knows, and the
    // service refuses it: the task says so, with Retry and Discard.
    await app.api(`/task/${task.id}/update`, {
      method: 'PUT',
      body: { userId: app.service!.users.bob, startDate: '2027-03-01' },
    });
    await panel.getByTestId('field-end').fill('2027-02-20');
    await panel.getByTestId('field-end').blur();
    const refusal = panel.getByTestId('task-service-refusal');
    await refusal.waitFor({ timeout: 15_000 });
    expect(await refusal.innerText()).toContain('End date: must not be before start date');
    await screenshot(page, 'review7-task-refusal');
    await refusal.getByRole('button', { name: 'Discard' }).click();
    await refusal.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
  });

  it('keeps a picker’s list inside the window, the options’ names whole', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.openHit('Ship invoice export', 'Tasks');
    const panel = page.getByTestId('detail-panel');
    await panel.waitFor();
    await panel.getByTestId('field-project').click();
    const list = page.getByRole('listbox', { name: 'Project' });
    await list.waitFor();
    // Before: at 1024 px the list ran 95 px past the window's right edge and the names were cut
    // ("Mo…" for both Mobile app 5 and Mobile app 6) to leave room for the folder paths.
    const box = await page.locator('.popover').boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1024);
    const cut = await list
      .locator('[role="option"] .label')
      .evaluateAll((labels) => labels.filter((label) => label.scrollWidth > label.clientWidth).length);
    expect(cut).toBe(0);
    await screenshot(page, 'review7-picker-in-window');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
  });

  it('fits a project’s overview beside an open task', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Partner API 3');
    await page.getByTestId('layout-overview').click();
    const overview = page.getByTestId('project-overview');
    await overview.waitFor();
    const palette = new PalettePage(page);
    await palette.openHit('Ship invoice export', 'Tasks');
    await page.getByTestId('detail-panel').waitFor();
    // Before: the columns kept a 380 px minimum in a 340 px view, and the name, description and
    // status fields ran under the panel.
    const overflow = await overview.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, 'review7-overview-beside-task');
    await page.keyboard.press('Escape');
  });
});
