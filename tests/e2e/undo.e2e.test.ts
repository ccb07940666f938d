// Undo as a daily user meets it: an edit's toast offers Undo, Ctrl+Z takes the last edit back and
// Ctrl+Shift+Z does it again; a change still queued is withdrawn, one already sent is reverted,
// and a task delete waits a few seconds so its Undo can keep the task on the service.
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { BoardPage } from './pages/board';
import { NewTaskDialogPage } from './pages/new-task';
import { CrmPage } from './pages/crm';
import { CalendarPage } from './pages/calendar';
import { dayString } from './support/demo';

interface ServiceTask {
  id: string;
  name: string;
  status: { id: string; name: string };
  priority: number;
}
interface ServiceContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  isDeleted?: boolean;
}

describe('undo and redo of edits', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });
  let tasks: ServiceTask[];
  const task = (id: string) => suite.app.api<ServiceTask>(`/task/${id}`);
  const toast = (text: string) => suite.page.getByTestId('toast').filter({ hasText: text });

  beforeAll(async () => {
    const { app, page, ui } = suite;
    // Open tasks whose names are unique in the project: a board card is found by its name.
    const all = await app.api<ServiceTask[]>('/project/g7-p2/tasks');
    tasks = all.filter((t) => t.status.name !== 'Done' && all.filter((o) => o.name === t.name).length === 1);
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 2');
    await new TaskListPage(page).waitForRows();
  });

  it('marks a row Done, shows "Marked Done" with Undo, and Undo brings the row back with its status', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    const a = tasks[0]!;
    await list.setStatusInline(a, 'Done');
    const marked = toast('Marked Done');
    await marked.getByRole('button', { name: 'Undo' }).waitFor();
    await screenshot(page, 'undo-toast-marked-done');
    await marked.getByRole('button', { name: 'Undo' }).click();
    await toast('Undone: Marked Done').waitFor();
    await expect.poll(() => list.row(a).getByTestId('cell-status').innerText()).toContain(a.status.name);
    // Withdrawn before it was sent, or sent and then reverted: the service ends at the old status.
    await eventually(
      () => task(a.id),
      (t) => t.status.id === a.status.id,
    );
    await suite.ui.waitForPendingCount(0);
    expect((await task(a.id)).status.name).toBe(a.status.name);
  });

  it('drags a card on the board, then Ctrl+Z puts it back in its column', async () => {
    const { page } = suite;
    const b = tasks[1]!;
    const target = b.status.name === 'On Hold' ? 'New' : 'On Hold';
    await page.getByTestId('layout-board').click();
    const board = new BoardPage(page);
    await board.card(b.name).waitFor();
    await board.drag(b.name, target);
    await board.column(target).getByTestId('board-card').filter({ hasText: b.name }).waitFor();
    await toast(`Marked ${target}`).getByRole('button', { name: 'Undo' }).waitFor();
    await screenshot(page, 'undo-toast-board-drag');
    // Ctrl+Z acts where no text field has the focus.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await expect
      .poll(() => board.column(b.status.name).getByTestId('board-card').filter({ hasText: b.name }).count())
      .toBe(1);
    await eventually(
      () => task(b.id),
      (t) => t.status.id === b.status.id,
    );
    await screenshot(page, 'undo-board-after-ctrl-z');
    await page.getByTestId('layout-list').click();
  });

  it('edits a field in the task detail; Ctrl+Z takes it back and Ctrl+Shift+Z does it again', async () => {
    const { page, ui } = suite;
    const list = new TaskListPage(page);
    const c = tasks[2]!;
    const next = c.priority === 7 ? '8' : '7';
    await list.open(c);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(c.name);
    await detail.pick('field-priority', next);
    await expect.poll(() => detail.field('field-priority').innerText()).toContain(next);
    await ui.waitForPendingCount(0);
    await eventually(
      () => task(c.id),
      (t) => t.priority === Number(next),
    );
    // Not while typing: the title field's own undo wins there.
    await detail.root.getByTestId('task-title').focus();
    await page.keyboard.press('Control+z');
    expect((await task(c.id)).priority).toBe(Number(next));
    await detail.root.getByTestId('task-title').blur();

    await page.keyboard.press('Control+z');
    await toast('Undone:').first().waitFor();
    await eventually(
      () => task(c.id),
      (t) => t.priority === c.priority,
    );
    await expect.poll(() => detail.field('field-priority').innerText()).not.toContain(next);
    await screenshot(page, 'undo-detail-after-ctrl-z');

    await page.keyboard.press('Control+Shift+z');
    await toast('Redone:').first().waitFor();
    await expect.poll(() => detail.field('field-priority').innerText()).toContain(next);
    await eventually(
      () => task(c.id),
      (t) => t.priority === Number(next),
    );
    await page.keyboard.press('Escape');
  });

  it('deletes a task, and Undo within its hold keeps it on the service', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    const d = tasks[3]!;
    await list.open(d);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(d.name);
    await detail.root.getByTestId('delete-task').click();
    const confirm = page.getByTestId('confirm-dialog');
    await expect.poll(() => confirm.locator('p').first().innerText()).toContain('cannot come back');
    await confirm.getByTestId('confirm').click();
    await list.row(d).waitFor({ state: 'detached' });
    const deleted = toast(`Deleted '${d.name}'`);
    await deleted.getByRole('button', { name: 'Undo' }).waitFor();
    await screenshot(page, 'undo-toast-deleted');
    await deleted.getByRole('button', { name: 'Undo' }).click();
    await list.row(d).waitFor();
    // Past the hold: nothing was sent, the service still has the task.
    await new Promise((done) => setTimeout(done, 6_000));
    await suite.ui.waitForPendingCount(0);
    expect((await task(d.id)).name).toBe(d.name);
    await screenshot(page, 'undo-delete-restored');
  });

  it('creates a task, and Ctrl+Z once it was sent deletes it on the service after asking', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const dialog = new NewTaskDialogPage(page);
    const title = 'Undo this new task';
    await dialog.openWithShortcut();
    await dialog.fill({ title, project: 'Support desk 2' });
    await dialog.submit();
    const row = list.rows.filter({ has: page.locator('.task-name', { hasText: title }) });
    await row.waitFor();
    await ui.waitForPendingCount(0);
    const made = await eventually(
      () => app.api<ServiceTask[]>('/project/g7-p2/tasks'),
      (all) => all.some((t) => t.name === title),
    );
    const id = made.find((t) => t.name === title)!.id;

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    // Sent already: the undo is a delete, which the user agrees to first.
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await expect
      .poll(() => confirm.locator('p').first().innerText())
      .toContain('Delete the task you created?');
    await screenshot(page, 'undo-created-task-confirm');
    await confirm.getByTestId('confirm').click();
    await expect
      .poll(() => toast(`Undone: Created '${title}'`).innerText())
      .toContain('the task was deleted on the service');
    await row.waitFor({ state: 'detached' });
    // The detail open beside the list says the task is gone rather than showing it still.
    await page.getByText('This task is not here any more').waitFor();
    await screenshot(page, 'undo-created-task-deleted');
    await eventually(
      () => app.api<ServiceTask[]>('/project/g7-p2/tasks'),
      (all) => !all.some((t) => t.id === id),
    );

    // Redo makes it again from what was typed: a new task, which the toast says.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+Shift+z');
    await expect
      .poll(() => toast(`Redone: Created '${title}'`).innerText())
      .toContain('it was made again as a new task');
    await row.waitFor();
    await ui.waitForPendingCount(0);
    await screenshot(page, 'undo-created-task-redone');
    const again = await eventually(
      () => app.api<ServiceTask[]>('/project/g7-p2/tasks'),
      (all) => all.some((t) => t.name === title),
    );
    expect(again.filter((t) => t.name === title).map((t) => t.id)).not.toContain(id);
  });

  it('deletes a CRM contact, and Undo within its hold keeps it on the service', async () => {
    const { app, page, ui } = suite;
    const crm = new CrmPage(page);
    const live = (await app.api<ServiceContact[]>('/crm/contacts')).filter((c) => !c.isDeleted && c.email);
    const contact = live.find((c) => live.filter((o) => o.email === c.email).length === 1)!;
    const name = `${contact.firstName} ${contact.lastName}`.trim();
    await crm.openContacts();
    await crm.openFound(contact.email);
    await crm.detail.getByTestId('crm-delete').click();
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    // Said before it is sent: the service has no undelete.
    await expect.poll(() => confirm.locator('p').first().innerText()).toContain('cannot come back');
    await confirm.getByTestId('confirm').click();
    const deleted = toast(`Deleted '${name}'`);
    await deleted.getByRole('button', { name: 'Undo' }).waitFor();
    await expect.poll(() => crm.rows.count()).toBe(0);
    await screenshot(page, 'undo-toast-contact-deleted');
    await deleted.getByRole('button', { name: 'Undo' }).click();
    await toast(`Undone: Deleted '${name}'`).waitFor();
    await crm.rows.first().waitFor();
    // Past the hold: nothing was sent, the service still has the contact.
    await new Promise((done) => setTimeout(done, 6_000));
    await ui.waitForPendingCount(0);
    const after = await app.api<ServiceContact[]>('/crm/contacts');
    expect(after.find((c) => c.id === contact.id)?.isDeleted ?? false).toBe(false);
    expect(after.some((c) => c.id === contact.id)).toBe(true);
    await screenshot(page, 'undo-contact-restored');
  });

  it('deletes a calendar event, and Undo within its hold keeps it on the service under its own id', async () => {
    const { app, page, ui } = suite;
    const calendar = new CalendarPage(page);
    const name = 'Undo holiday';
    const events = () =>
      app.api<{ id: string; name: string }[]>(`/events?startDate=${dayString(-40)}&endDate=${dayString(40)}`);
    await calendar.open();
    await page.getByTestId('event-new').click();
    await calendar.newEvent.waitFor();
    await page.getByTestId('event-type').selectOption('company-holiday');
    await page.getByTestId('event-name').fill(name);
    await page.getByTestId('event-create').click();
    await calendar.newEvent.waitFor({ state: 'hidden' });
    await ui.waitForPendingCount(0);
    const made = await eventually(events, (list) => list.some((e) => e.name === name));
    const id = made.find((e) => e.name === name)!.id;

    await calendar.chips.filter({ hasText: name }).first().click();
    await calendar.detail.getByTestId('event-delete').click();
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await expect.poll(() => confirm.locator('p').first().innerText()).toContain('Undo brings it back');
    await confirm.getByTestId('confirm').click();
    const deleted = toast(`Deleted the event '${name}'`);
    await deleted.getByRole('button', { name: 'Undo' }).waitFor();
    await expect.poll(() => calendar.chips.filter({ hasText: name }).count()).toBe(0);
    await screenshot(page, 'undo-toast-event-deleted');
    await deleted.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => toast(`Undone: Deleted the event '${name}'`).innerText())
      .toContain('nothing was sent');
    await calendar.chips.filter({ hasText: name }).first().waitFor();
    // Past the hold: nothing was sent, the service still has the event under its own id.
    await new Promise((done) => setTimeout(done, 6_000));
    await ui.waitForPendingCount(0);
    expect((await events()).filter((e) => e.name === name).map((e) => e.id)).toEqual([id]);
    await screenshot(page, 'undo-event-restored');
  });
});
