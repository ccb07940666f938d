import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { uniquelyNamed } from './support/demo';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { choose } from './pages/picker';
import { PalettePage } from './pages/palette';

interface ServiceTask {
  id: string;
  name: string;
  parentTaskId: string | null;
  projectId: string;
  startDate: string | null;
  endDate: string | null;
  scheduleDate: string | null;
  storyPoints?: number | null;
  customFieldsData: Record<string, unknown>;
  subtasks?: { id: string }[];
}

/**
 * The task fields the daily-loop suite does not drive: start, end and schedule dates, story
 * points, the parent task (update-task's parentTaskId), and the nine custom-field types it leaves.
 * Each is checked on the service.
 */
describe('task detail: dates, story points, parent task, custom fields, refusals in words, pickers in the window', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 1000 } });
  const task = (id: string) => suite.app.api<ServiceTask>(`/task/${id}`);
  let child: ServiceTask;
  let parent: ServiceTask;
  let detail: TaskDetailPage;

  it('sets start, end and schedule dates and story points; the service holds each', async () => {
    const { app, page, ui } = suite;
    const all = await app.api<ServiceTask[]>('/project/g7-p2/tasks');
    // Two top-level tasks, each found alone by its name.
    [child, parent] = uniquelyNamed(all.filter((t) => t.parentTaskId === null)) as [ServiceTask, ServiceTask];
    const list = new TaskListPage(page);
    detail = new TaskDetailPage(page);
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 2');
    await list.waitForRows();
    await list.open(child);
    await detail.waitFor(child.name);

    for (const [testId, value] of [
      ['field-start', '2027-02-01'],
      ['field-end', '2027-02-10'],
      ['field-schedule', '2027-02-03'],
      ['field-points', '5'],
    ] as const) {
      await detail.field(testId).fill(value);
      await detail.field(testId).press('Tab');
    }
    await screenshot(page, 'task-fields-dates');
    const after = await eventually(
      () => task(child.id),
      (t) => t.storyPoints === 5 && t.scheduleDate === '2027-02-03',
    );
    expect(after).toMatchObject({ startDate: '2027-02-01', endDate: '2027-02-10' });
  });

  it('refuses story points that are not a whole number, and sends nothing', async () => {
    const { ui } = suite;
    await ui.waitForPendingCount(0);
    await detail.field('field-points').fill('2.5');
    await detail.field('field-points').press('Tab');
    await expect.poll(() => detail.field('field-points').getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => detail.root.getByRole('alert').innerText())
      .toBe('Story points must be a whole number, 0 or more');
    expect(await ui.pendingCount()).toBe(0);
    expect((await task(child.id)).storyPoints).toBe(5);
  });

  it('makes the task a subtask of another found by its name', async () => {
    const { page, ui } = suite;
    const search = detail.field('parent-search');
    await search.fill(parent.name);
    // Tasks of other projects may share the name: each result names its project.
    const result = detail.root
      .getByTestId('dependency-result')
      .filter({ hasText: parent.name })
      .filter({ hasText: /· Support desk 2$/ });
    await result.first().waitFor();
    await expect.poll(() => result.count()).toBe(1);
    await result.click();
    // The detail names its parent at once (the crumb above the title and the field).
    await detail.field('field-parent').getByText(parent.name, { exact: true }).waitFor();
    await screenshot(page, 'task-fields-parent');
    await ui.waitForPendingCount(0);
    const after = await eventually(
      () => task(child.id),
      (t) => t.parentTaskId === parent.id,
    );
    expect(after.projectId).toBe(parent.projectId);
    expect((await task(parent.id)).subtasks?.map((s) => s.id)).toContain(child.id);
  });

  it('edits the custom-field types the daily loop leaves: textarea, number, percentage, date, dropdown, email, phone, URL, user', async () => {
    const { page, ui } = suite;
    const typeInto = async (field: string, value: string, selector = 'input') => {
      const input = detail.customField(field).locator(selector);
      await input.fill(value);
      await input.press('Tab');
    };
    await typeInto('Acceptance notes', 'Signed off by the customer.\nNo open points.', 'textarea');
    await typeInto('Units', '12');
    await typeInto('Discount', '15');
    await typeInto('Go-live date', '2027-03-01');
    await typeInto('Contact email', 'lena@example.test');
    await typeInto('Contact phone', '+31 20 555 0100');
    await typeInto('Spec link', 'https://example.test/spec');
    await choose(page, detail.customField('Impact').getByRole('button').first(), 'High');
    await choose(page, detail.customField('Reviewer').getByRole('button').first(), 'Cleo Martins');
    await screenshot(page, 'task-fields-custom');
    await ui.waitForPendingCount(0);
    const after = await eventually(
      () => task(child.id),
      (t) => t.customFieldsData['cf-user'] === 'u-cleo' && t.customFieldsData['cf-dropdown'] === 3,
    );
    expect(after.customFieldsData).toMatchObject({
      'cf-textarea': 'Signed off by the customer.\nNo open points.',
      'cf-number': 12,
      'cf-percentage': 15,
      'cf-date': '2027-03-01',
      'cf-email': 'lena@example.test',
      'cf-phone': '+31 20 555 0100',
      'cf-url': 'https://example.test/spec',
    });
  });

  it('keeps a task’s custom fields in place while their values are set', async () => {
    const { app, page, ui } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
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
    await screenshot(page, 'task-fields-custom-in-place');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('asks before a delete in words that are true: no "its 0 subtasks"', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    const {
      task: { name },
    } = await suite.ui.openBeside('Partner API 9', 3);
    const panel = page.getByTestId('detail-panel');
    await panel.getByRole('heading', { name: /^Messages/ }).waitFor();
    const subtasks = await panel.getByTestId('subtask').count();
    await panel.getByTestId('delete-task').click();
    const confirm = page.getByTestId('confirm-dialog');
    const text = await confirm.locator('p').first().innerText();
    const expected =
      subtasks === 0
        ? `'${name}' and all its messages will be deleted.`
        : `'${name}', its ${subtasks === 1 ? 'subtask' : `${subtasks} subtasks`} and all its messages will be deleted.`;
    expect(text.startsWith(expected)).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.getByRole('heading').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('refuses a task date that ends it before it starts, and shows a change the service refused on the task', async () => {
    const { app, page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    const tasks =
      await app.api<(ServiceTask & { startDate: string | null; endDate: string | null; shortId: string })[]>(
        '/project/g7-p4/tasks',
      );
    const task = tasks.find((t) => !t.startDate && !t.endDate);
    if (!task) throw new Error('the demo project has a task without dates');
    const palette = new PalettePage(page);
    // By its number: the demo has several tasks of this name, and which one a name finds first
    // depends on the order the first sync stored them in.
    await palette.openHit(`#${task.shortId}`, 'Tasks');
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
    await expect.poll(() => refusal.innerText()).toContain('End date: must not be before start date');
    await screenshot(page, 'task-fields-date-refusal');
    await refusal.getByRole('button', { name: 'Discard' }).click();
    await refusal.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('keeps a picker’s list inside the window, the options’ names whole', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
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
    await screenshot(page, 'task-fields-picker-in-window');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('keeps the progress and the estimate typed while the task is read again, and saves them', async () => {
    const { app, page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    const { task } = await suite.ui.openBeside('Support desk 2', 2);
    const panel = page.getByTestId('detail-panel');
    await panel.getByTestId('task-fields').waitFor();
    // A colleague renames the task and a pull brings it while a field is being typed in: the
    // detail is read again. Before, the boxes were filled again from the cache, so a progress
    // typed before Tab, or an estimate's hours typed before its minutes, were lost.
    const renameAndPull = async (name: string): Promise<void> => {
      await app.api(`/task/${task.id}/update`, {
        method: 'PUT',
        body: { userId: app.service!.users.bob, title: name },
      });
      expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
      await panel.getByText(name).first().waitFor();
    };
    const progress = panel.getByTestId('field-progress');
    await progress.fill('35');
    await renameAndPull(`${task.name} (renamed by Bob)`);
    await expect.poll(() => progress.inputValue()).toBe('35');
    await progress.press('Tab');

    const hours = panel.getByLabel('Estimate hours');
    await hours.fill('3');
    await renameAndPull(`${task.name} (renamed by Bob again)`);
    await expect.poll(() => hours.inputValue()).toBe('3');
    await panel.getByLabel('Estimate minutes').fill('15');
    await panel.getByLabel('Estimate minutes').press('Tab');
    await screenshot(page, 'task-fields-typing-kept');
    const saved = await eventually(
      () => app.api<{ estimate: number | null; progress: number | null }>(`/task/${task.id}`),
      (t) => t.estimate === 195 && t.progress === 35,
    );
    expect(saved).toMatchObject({ estimate: 195, progress: 35 });
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  // Last of the describe: it leaves the open task with a refused estimate.
  it('says what a refused estimate must be', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    await suite.ui.openBeside('Support desk 2', 1);
    const panel = page.getByTestId('detail-panel');
    await panel.getByTestId('task-fields').waitFor();
    const hours = panel.getByLabel('Estimate hours');
    await hours.fill('-3');
    await hours.press('Tab');
    // The pair is read when the focus leaves it.
    await panel.getByLabel('Estimate minutes').press('Tab');
    // Before: "hours must be a whole number", which -3 is.
    await panel.getByText('Estimate: hours must be a whole number, 0 or more, and minutes 0 to 59').waitFor();
    await page.setViewportSize({ width: 1440, height: 1000 });
  });
});
