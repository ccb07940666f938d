import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { BoardPage } from './pages/board';
import { NewTaskDialogPage } from './pages/new-task';

interface ServiceTask {
  id: string;
  name: string;
  status: { id: string; name: string };
  priority: number;
  deadline: string | null;
  assignedToUserId: string | null;
  actionRequiredUserId: string | null;
  progress: number | null;
  estimate: number | null;
  projectId: string;
  customFieldsData: Record<string, unknown>;
  tags?: string[];
  subtasks?: { id: string; name: string }[];
}
interface ServiceMessage {
  message: string;
  fromUserId: string;
  toUserId: string;
}

describe('the daily loop, editing: inline, bulk, board, task detail, new task', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });
  let tasks: ServiceTask[];
  const task = (id: string) => suite.app.api<ServiceTask>(`/task/${id}`);

  beforeAll(async () => {
    const { app, page, ui } = suite;
    tasks = await app.api<ServiceTask[]>('/project/g7-p2/tasks');
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 2');
    await new TaskListPage(page).waitForRows();
  });

  it('edits name, status, assignee, priority and deadline inline; the service gets each change', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    const [a, b] = [tasks[0]!, tasks[1]!];
    await list.rename(a, `${a.name} (renamed)`);
    const renamed = { id: a.id, name: `${a.name} (renamed)` };
    await list.row(renamed).locator('.task-name', { hasText: renamed.name }).waitFor();
    await list.setStatusInline(renamed, 'In Progress');
    await list.setAssigneeInline(renamed, 'Cleo Martins');
    await list.setPriorityInline(b, 'Emergency');
    await list.setDeadlineInline(b, '2027-03-15');
    await list.row(b).getByTestId('cell-priority').filter({ hasText: 'Emergency' }).waitFor();
    await screenshot(page, 'inline-edit');
    await ui.waitForPendingCount(0);
    const [sa, sb] = await Promise.all([task(a.id), task(b.id)]);
    expect(sa).toMatchObject({
      name: `${a.name} (renamed)`,
      status: { name: 'In Progress' },
      assignedToUserId: 'u-cleo',
    });
    expect(sb).toMatchObject({ priority: 100, deadline: '2027-03-15' });
  });

  it('changes the priority of several selected tasks at once', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    const [c, d] = [tasks[2]!, tasks[3]!];
    await list.select([c, d]);
    await page.getByTestId('bulk-bar').waitFor();
    await list.bulk('priority', 'Blocker');
    await ui.waitForPendingCount(0);
    await eventually(
      () => Promise.all([task(c.id), task(d.id)]),
      (both) => both.every((t) => t.priority === 50),
    );
    await screenshot(page, 'bulk-edit');
    await page.keyboard.press('Escape');
  });

  it('drags a card on the board to another status', async () => {
    const { page } = suite;
    const e = tasks[4]!;
    const target = e.status.name === 'On Hold' ? 'New' : 'On Hold';
    await page.getByTestId('layout-board').click();
    const board = new BoardPage(page);
    await board.card(e.name).waitFor();
    await board.drag(e.name, target);
    await board.column(target).getByTestId('board-card').filter({ hasText: e.name }).waitFor();
    await screenshot(page, 'board-after-drag');
    await eventually(
      () => task(e.id),
      (t) => t.status.name === target,
    );
    await page.getByTestId('layout-list').click();
  });

  it('edits every kind of field in the task detail, comments, replies, tags and adds a subtask', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const f = tasks[5]!;
    await list.open(f);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(f.name);

    await detail.setStatus('On Hold', 'Waiting for the customer');
    await detail.pick('field-priority', '7');
    await detail.field('field-progress').fill('40');
    await detail.field('field-progress').press('Tab');
    await detail.root.getByLabel('Estimate hours').fill('2');
    await detail.root.getByLabel('Estimate minutes').fill('30');
    await detail.root.getByLabel('Estimate minutes').press('Tab');
    await detail.field('field-deadline').fill('2027-01-20');
    await detail.field('field-deadline').press('Tab');
    await detail.addTag('Urgent');
    await detail.tags.filter({ hasText: 'Urgent' }).waitFor();

    // Custom fields of several value types.
    await detail.customField('Customer reference').locator('input').fill('ACME-42');
    await detail.customField('Customer reference').locator('input').press('Tab');
    await detail.customField('Billable').locator('input').check();
    await detail.customField('Budget').locator('input').fill('1250.5');
    await detail.customField('Budget').locator('input').press('Tab');
    await detail.customField('RAG').getByRole('radio', { name: 'Green' }).click();
    await detail.customField('Platforms').getByText('Web').click();
    await detail.customField('Satisfaction').getByRole('radio', { name: '4 of 5' }).click();

    await detail.comment('Looked at it today.');
    await detail.messages.filter({ hasText: 'Looked at it today.' }).waitFor();
    await detail.reply('Bob Okafor', 'Over to you, Bob.');
    await detail.messages.filter({ hasText: 'Over to you, Bob.' }).waitFor();
    await detail.addSubtask('Call the customer');
    await detail.subtasks.filter({ hasText: 'Call the customer' }).waitFor();
    await screenshot(page, 'task-detail-edited');

    await ui.waitForPendingCount(0);
    const s = await eventually(
      () => task(f.id),
      (t) => t.actionRequiredUserId === 'u-bob',
    );
    expect(s).toMatchObject({
      status: { name: 'On Hold' },
      priority: 7,
      progress: 40,
      estimate: 150,
      deadline: '2027-01-20',
    });
    expect(s.customFieldsData).toMatchObject({
      'cf-text': 'ACME-42',
      'cf-checkbox': true,
      'cf-currency': 1250.5,
      'cf-rag': 2,
      'cf-multiSelect': [1],
      'cf-rating': 4,
    });
    expect(s.tags).toContain('tag-urgent');
    expect(s.subtasks?.map((sub) => sub.name)).toContain('Call the customer');
    const messages = await app.api<ServiceMessage[]>(`/task/${f.id}/messages`);
    expect(messages.map((m) => m.message)).toEqual(
      expect.arrayContaining(['Waiting for the customer', 'Looked at it today.', 'Over to you, Bob.']),
    );
    expect(messages.find((m) => m.message === 'Over to you, Bob.')?.toUserId).toBe('u-bob');

    await detail.removeTag('Urgent');
    await ui.waitForPendingCount(0);
    await eventually(
      () => task(f.id),
      (t) => !(t.tags ?? []).includes('tag-urgent'),
    );
  });

  it('moves a task to another project and deletes one after confirmation', async () => {
    const { app, page } = suite;
    const list = new TaskListPage(page);
    const g = tasks[6]!;
    const h = tasks[7]!;
    await page.keyboard.press('Escape');
    await list.open(g);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(g.name);
    await detail.pick('field-project', 'Partner API 3');
    await eventually(
      () => task(g.id),
      (t) => t.projectId === 'g7-p3',
    );

    await list.open(h);
    await detail.waitFor(h.name);
    await detail.root.getByTestId('delete-task').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, 'delete-confirmation');
    await page.getByTestId('confirm-dialog').getByTestId('confirm').click();
    await list.row(h).waitFor({ state: 'detached' });
    await eventually(
      () => app.api<ServiceTask[]>('/project/g7-p2/tasks?closed=true'),
      (all) => !all.some((t) => t.id === h.id),
    );
  });

  it('creates a task with Ctrl+N, names the missing field, and remembers the last project', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const dialog = new NewTaskDialogPage(page);
    await ui.goToActionRequired();
    await dialog.openWithShortcut();
    await dialog.fill({ title: '' });
    await dialog.submit();
    await dialog.error.waitFor();
    await expect.poll(() => dialog.error.innerText()).toMatch(/^Project: /);
    await dialog.fill({ project: 'Support desk 2' });
    await dialog.submit();
    await expect.poll(() => dialog.error.innerText()).toMatch(/^Title: /);
    await dialog.fill({
      title: 'Prepare the demo',
      assignee: 'Dan Whitfield',
      priority: 'Blocker',
      deadline: '2027-02-01',
      description: 'For the Friday review.',
    });
    await screenshot(page, 'new-task-dialog');
    await dialog.submit();
    await ui.waitForTitle('Support desk 2');
    await list.rows.locator('.task-name', { hasText: 'Prepare the demo' }).waitFor();
    await page.getByTestId('toast').filter({ hasText: "Created 'Prepare the demo'" }).waitFor();
    await ui.waitForPendingCount(0);
    const created = await eventually(
      () => app.api<ServiceTask[]>('/project/g7-p2/tasks'),
      (all) => all.some((t) => t.name === 'Prepare the demo'),
    );
    expect(created.find((t) => t.name === 'Prepare the demo')).toMatchObject({
      assignedToUserId: 'u-dan',
      priority: 50,
      deadline: '2027-02-01',
    });

    await dialog.openWithShortcut();
    expect(await dialog.projectLabel()).toBe('Project: Support desk 2');
    await page.keyboard.press('Escape');
  });

  it('shows a refused edit in words that name the field', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    await ui.openProject('Support desk 2');
    await list.waitForRows();
    const first = tasks[8]!;
    await list.rename(first, 'x'.repeat(1001));
    const toast = page.getByTestId('toast').filter({ hasText: 'Title' });
    await toast.waitFor();
    await expect.poll(() => toast.innerText()).toMatch(/Title: must be at most 1000 characters/);
    await screenshot(page, 'error-toast');
  });
});
