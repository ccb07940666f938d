import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { CalendarPage } from './pages/calendar';
import { CrmPage } from './pages/crm';
import { PalettePage } from './pages/palette';
import { ProjectOverviewPage } from './pages/project-overview';
import { TaskListPage } from './pages/task-list';

// Session 6 review's second pass: what got in the way in the flows session 5 covered least
// (/work/notes/s6-review.md).
describe('a second pass over the palette, members, CRM, custom fields and events', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('lists the tasks a word names in the palette, not only messages that repeat it', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.open();
    // Every demo task has a message repeating its name ("Please plan audit log."). Before: those
    // messages took every place of one mixed search, and "audit" listed no task.
    await palette.search('audit', 'Messages');
    const groups = await palette.groupNames();
    expect(groups[0]).toBe('Tasks');
    expect(groups).toContain('Messages');
    const tasks = palette.dialog.locator('[data-group="Tasks"] .label');
    expect((await tasks.allInnerTexts()).every((label) => /audit/i.test(label))).toBe(true);
    await screenshot(page, 'review6-palette-tasks');
    const first = (await tasks.first().innerText()).trim();
    expect(await palette.activeLabel()).toBe(first);
    await page.keyboard.press('Enter');
    await palette.dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('detail-panel').waitFor();
    expect(await page.title()).toContain(first);
    await page.keyboard.press('Escape');
  });

  it('lists the tasks a word names first on the search results page, then the messages', async () => {
    const { page, ui } = suite;
    const box = page.locator('#global-search');
    await box.fill('audit');
    await box.press('Enter');
    await ui.waitForTitle('Search');
    const hits = page.getByRole('list', { name: 'Search results' }).locator('.hit');
    await hits.first().waitFor();
    // Before: one mixed search ranked the messages repeating "audit" above every task.
    const kinds = await hits.locator('.kind').allTextContents();
    expect(kinds[0]).toBe('Task');
    expect(kinds).toContain('Message');
    expect(kinds.lastIndexOf('Task')).toBeLessThan(kinds.indexOf('Message'));
    await screenshot(page, 'review6-search-results');
    await box.fill('');
  });

  it('shows a member’s real access after a Cancel, and says why the owner cannot be removed', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Q3 campaign 8');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const member = overview.members.filter({ hasNotText: 'Owner' }).first();
    const access = member.getByTestId('member-access');
    const before = await access.inputValue();
    await access.selectOption({ label: 'Read only' });
    const confirm = page.getByRole('dialog', { name: /read-only\?$/ });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    // Before: the picker went on saying "Read only" though nothing had changed.
    expect(await access.inputValue()).toBe(before);

    // Before: the remove button asked "Remove …?", then the service refused.
    const owner = overview.members.filter({ hasText: 'Owner' });
    const remove = owner.getByTestId('member-remove');
    expect(await remove.isDisabled()).toBe(true);
    expect(await remove.getAttribute('title')).toMatch(/owner cannot be removed: choose another owner/);
    await screenshot(page, 'review6-members');
  });

  it('shows a contact’s linked tasks before its custom fields, with the link search’s results in view', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 900, height: 700 });
    const crm = new CrmPage(page);
    await crm.openContacts();
    await crm.rows.filter({ hasText: 'Maya Novak' }).click();
    // The record is drawn after the click: read its headings once both are there.
    const headings = crm.detail.locator('h3');
    await headings.filter({ hasText: 'Custom fields' }).first().waitFor();
    const order = await headings.allInnerTexts();
    // Before: a dozen empty custom fields came first and put the tasks below the fold.
    expect(order.indexOf('Tasks')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('Tasks')).toBeLessThan(order.indexOf('Custom fields'));
    await crm.detail.getByTestId('link-task-search').fill('audit');
    const results = page.getByRole('listbox', { name: 'Items found' });
    await results.waitFor();
    const [list, record] = await Promise.all([results.boundingBox(), crm.detail.boundingBox()]);
    if (!list || !record) throw new Error('the results or the record are not drawn');
    expect(list.y + list.height).toBeLessThanOrEqual(record.y + record.height);
    await screenshot(page, 'review6-contact-link-search');
    await page.keyboard.press('Escape');
    await crm.detail.getByTestId('link-task-search').fill('');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps a task’s custom fields in place while their values are set', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openDemoProject('Partner API 9');
    await list.waitForRows();
    const task = await list.openRow(0);
    const panel = page.getByTestId('detail-panel');
    const section = panel.getByRole('region', { name: 'Custom fields' });
    await section.waitFor();
    const labels = (): Promise<string[]> => section.locator('dt label').allInnerTexts();
    const order = await labels();
    const units = section.getByLabel('Units', { exact: true });
    const fieldId = ((await units.getAttribute('id')) ?? '').slice(`cf-${task.id}-`.length);
    await units.fill('12');
    await units.press('Tab');
    const after = await page.evaluate(() => document.activeElement?.id);
    // The value reached the service and came back into the cache the list is drawn from.
    await eventually(
      () => app.api<{ customFieldsData: Record<string, unknown> }>(`/task/${task.id}`),
      (read) => read.customFieldsData[fieldId] === 12,
    );
    await page.locator('[data-testid="pending-count"][data-count="0"]').waitFor();
    // Before: the field just set jumped to the top of the list, away from where the focus went.
    expect(await labels()).toEqual(order);
    const next = order[order.indexOf('Units') + 1] ?? '';
    expect(after).toBe(await section.getByLabel(next, { exact: true }).getAttribute('id'));
    await screenshot(page, 'review6-custom-fields');
    await page.keyboard.press('Escape');
  });

  it('marks today on the timeline and names each bar and milestone on hover', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Mobile app 5');
    await page.getByTestId('layout-timeline').click();
    const strip = page.getByTestId('timeline');
    await strip.locator('rect.bar').first().waitFor();
    // Before: no line for today, and a bar said nothing to the mouse (its name and dates were
    // only spoken).
    await strip.getByTestId('timeline-today').waitFor({ state: 'attached' });
    const bar = strip.locator('rect.bar').first();
    expect(await bar.locator('title').textContent()).toBe(await bar.getAttribute('aria-label'));
    expect(await bar.getAttribute('aria-label')).toMatch(/^.+, .+/);
    await screenshot(page, 'review6-timeline');
  });

  it('refuses files dropped where nothing takes them, and says where they go', async () => {
    const { page } = suite;
    await new CalendarPage(page).open();
    const grid = page.getByTestId('month-grid');
    // What a browser does with a drop nobody takes is open the file in place of the app.
    const taken = await grid.evaluate((el) => {
      const data = new DataTransfer();
      data.items.add(new File(['notes'], 'notes.txt', { type: 'text/plain' }));
      const init = { bubbles: true, cancelable: true, dataTransfer: data };
      const over = new DragEvent('dragover', init);
      el.dispatchEvent(over);
      const drop = new DragEvent('drop', init);
      el.dispatchEvent(drop);
      return { over: over.defaultPrevented, drop: drop.defaultPrevented, effect: data.dropEffect };
    });
    // Before: neither was prevented, and nothing was said.
    expect(taken).toEqual({ over: true, drop: true, effect: 'none' });
    const toast = page.getByTestId('toast').filter({ hasText: 'Nothing here takes a file' });
    await toast.waitFor();
    expect(await toast.innerText()).toContain('drop on a task in a list, an open task');
    await screenshot(page, 'review6-stray-drop');
  });

  it('opens an event a task depends on from the task’s dependencies, in the calendar', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    // The demo's milestone waits for a task; go to that task from the milestone's detail.
    const milestone = new Date();
    milestone.setDate(milestone.getDate() - 5);
    if (milestone.getMonth() !== new Date().getMonth()) await page.getByTestId('month-prev').click();
    await calendar.chips.filter({ hasText: 'project milestone 1' }).first().click();
    await calendar.detail.getByTestId('predecessors').getByRole('button').first().click();
    // Before: the task opened beside the calendar, behind the event's (modal) dialog.
    await calendar.detail.getByRole('heading').waitFor({ state: 'detached' });
    const panel = page.getByTestId('detail-panel');
    const blocks = panel.getByTestId('successors');
    await blocks.waitFor();
    // Before: the event was a disabled link; nothing led back to it.
    const link = blocks.locator('.link-button', { hasText: 'project milestone 1' });
    expect(await link.isDisabled()).toBe(false);
    await link.click();
    await calendar.detail.getByRole('heading', { name: 'project milestone 1' }).waitFor();
    await screenshot(page, 'review6-event-from-dependency');
    await page.keyboard.press('Escape');
    await calendar.detail.getByRole('heading').waitFor({ state: 'detached' });
  });

  it('names the event type in words when a new event misses its person or project', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    await page.getByTestId('event-new').click();
    await calendar.newEvent.waitFor();
    await page.getByTestId('event-type').selectOption('personal-vacation');
    await page.getByTestId('event-name').fill('Trip');
    await calendar.newEvent.getByRole('button', { name: 'Create' }).click();
    const problem = calendar.newEvent.getByRole('alert');
    // Before: "Person: is required for personal-vacation" (the service's type id).
    await page.waitForFunction(() => document.querySelector('dialog[open] [role="alert"]')?.textContent);
    expect((await problem.innerText()).trim()).toBe('Person: is required for a vacation');
    await page.getByTestId('event-type').selectOption('project-milestone');
    await calendar.newEvent.getByRole('button', { name: 'Create' }).click();
    await page.waitForFunction(() =>
      document.querySelector('dialog[open] [role="alert"]')?.textContent?.includes('milestone'),
    );
    expect((await problem.innerText()).trim()).toBe('Project: is required for a milestone');
    await screenshot(page, 'review6-new-event-problem');
    await page.keyboard.press('Escape');
  });
});
