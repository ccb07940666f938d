import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { uniquelyNamed } from './support/demo';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { choose } from './pages/picker';

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
describe('task detail: dates, story points, parent task, the other custom-field types', () => {
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
    expect(await detail.field('field-points').getAttribute('aria-invalid')).toBe('true');
    expect(await detail.root.getByRole('alert').innerText()).toBe(
      'Story points must be a whole number, 0 or more',
    );
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
    expect(await result.count()).toBe(1);
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
});
