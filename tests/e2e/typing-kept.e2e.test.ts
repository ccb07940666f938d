import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { CrmPage } from './pages/crm';
import { ProjectOverviewPage } from './pages/project-overview';
import { NewTaskDialogPage } from './pages/new-task';
import { TaskListPage, type TaskRef } from './pages/task-list';

interface ServiceTask {
  id: string;
  name: string;
  storyPoints?: number | null;
  deadline?: string | null;
  progress?: number | null;
  projectId: string;
  customFieldsData: Record<string, unknown>;
}
interface ServiceProject {
  id: string;
  name: string;
  description: string | null;
  statusComments: string | null;
}
interface ServiceMessage {
  message: string | null;
}
interface ServiceContact {
  id: string;
  firstName: string;
  email: string | null;
  phone: string | null;
  isDeleted?: boolean;
}

/**
 * What a user types and has not saved yet stays in its box, with the focus, while the item is
 * read again: a colleague's change made on the service and pulled mid-typing (the re-read is
 * awaited by what it shows), then the user saves and the service holds what was typed. Before,
 * such a re-read filled the boxes again from the cache (or emptied a form), and nothing, or the
 * wrong value, was sent.
 */
describe('typing kept: a box being typed in keeps its text and focus while its item is read again', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });
  const bob = (): string => suite.app.service!.users.bob;
  /** A colleague's change, made on the service, then pulled. */
  const colleague = async (path: string, method: 'PUT' | 'POST', body: Record<string, unknown>) => {
    await suite.app.api(path, { method, body });
    expect(await suite.app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
  };
  const focused = (box: Locator): Promise<boolean> => box.evaluate((el) => el === document.activeElement);
  /** The box still holds what was typed, and the focus. */
  const kept = async (box: Locator, typed: string): Promise<void> => {
    await expect.poll(() => box.inputValue()).toBe(typed);
    expect(await focused(box)).toBe(true);
  };
  /** Types as a user does (a key at a time), into a box emptied first. */
  const typeInto = async (box: Locator, text: string): Promise<void> => {
    await box.click();
    await box.press('ControlOrMeta+a');
    await box.press('Delete');
    await box.pressSequentially(text);
  };

  /** The task the task tests type in, opened beside its list by the first. */
  let task: TaskRef;
  const panel = (): Locator => suite.page.getByTestId('detail-panel');
  const serviceTask = (): Promise<ServiceTask> => suite.app.api<ServiceTask>(`/task/${task.id}`);
  // A colleague's change shown in a box nobody types in: the task was read again.
  let bobsProgress = 10;
  const progressByBob = async (): Promise<void> => {
    bobsProgress += 5;
    await colleague(`/task/${task.id}/update`, 'PUT', { userId: bob(), progress: bobsProgress });
    await expect.poll(() => panel().getByTestId('field-progress').inputValue()).toBe(String(bobsProgress));
  };

  it('keeps a task title typed while the task is read again, and saves it', async () => {
    ({ task } = await suite.ui.openBeside('Support desk 2', 3));
    await panel().getByTestId('task-fields').waitFor();
    const title = panel().getByTestId('task-title');
    await typeInto(title, 'Title typed while Bob works');
    await progressByBob();
    await kept(title, 'Title typed while Bob works');
    await title.press('Enter');
    await eventually(serviceTask, (t) => t.name === 'Title typed while Bob works');
  });

  it('keeps story points typed while the task is read again, and saves them', async () => {
    const points = panel().getByTestId('field-points');
    await typeInto(points, '8');
    await progressByBob();
    await kept(points, '8');
    await points.press('Tab');
    await eventually(serviceTask, (t) => t.storyPoints === 8);
  });

  it('refuses story points over the service’s limit in the box, and takes them off when it is emptied', async () => {
    const points = panel().getByTestId('field-points');
    await typeInto(points, '2000000');
    await points.press('Tab');
    await expect.poll(() => points.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => panel().getByRole('alert').innerText())
      .toBe('Story points must be 1,000,000 at most');
    expect(await suite.ui.pendingCount()).toBe(0);
    expect((await serviceTask()).storyPoints).toBe(8);
    // Emptied: the points are taken off (before, nothing was sent and the box stayed empty while
    // the task kept its 8 points).
    await typeInto(points, '');
    await points.press('Tab');
    await eventually(serviceTask, (t) => t.storyPoints === null || t.storyPoints === undefined);
    await suite.ui.waitForPendingCount(0);
    expect(await points.inputValue()).toBe('');
    // Back to the 8 points the tests below expect of this task.
    await typeInto(points, '8');
    await points.press('Tab');
    await eventually(serviceTask, (t) => t.storyPoints === 8);
  });

  it('shows the stored title again when the core refuses the one typed', async () => {
    // A title of 1,001 characters: the core refuses it (a toast names the field). Before, the
    // refused text stayed in the box with nothing telling that the task kept its old name.
    const title = panel().getByTestId('task-title');
    const stored = (await serviceTask()).name;
    await title.fill('x'.repeat(1001));
    await title.press('Enter');
    await suite.page.getByTestId('toast').filter({ hasText: 'Could not change' }).first().waitFor();
    await expect.poll(() => title.inputValue()).toBe(stored);
    // Enter commits once: one refusal, one toast.
    expect(await suite.page.getByTestId('toast').filter({ hasText: 'Could not change' }).count()).toBe(1);
    expect(await suite.ui.pendingCount()).toBe(0);
    expect((await serviceTask()).name).toBe(stored);
  });

  it('keeps a text custom field typed while a colleague changes it, and saves it', async () => {
    // A colleague changing the same field meanwhile: the typing is kept all the same, and saving
    // it goes through the outbox's conflict check.
    const reference = panel().getByTestId('cf-Customer reference').locator('input');
    await typeInto(reference, 'REF-TYPED-7');
    await colleague(`/task/${task.id}/custom-fields`, 'PUT', {
      userId: bob(),
      customFields: [{ id: 'cf-text', value: 'REF-BOB' }],
    });
    await progressByBob();
    await kept(reference, 'REF-TYPED-7');
    await reference.press('Tab');
    await eventually(serviceTask, (t) => t.customFieldsData['cf-text'] === 'REF-TYPED-7');
  });

  it('keeps a deadline typed a part at a time while a colleague sets it, and saves the date typed', async () => {
    // Month and day typed, the year not yet (the box holds no date until it is whole). Bob sets
    // the deadline meanwhile; the parts typed stay, and the year completes the user's date, not
    // Bob's.
    const deadline = panel().getByTestId('field-deadline');
    await deadline.click();
    await deadline.press('ArrowLeft');
    await deadline.press('ArrowLeft');
    await deadline.pressSequentially('0314');
    await colleague(`/task/${task.id}/update`, 'PUT', { userId: bob(), deadline: '2026-09-20' });
    await progressByBob();
    await kept(deadline, '');
    await deadline.pressSequentially('2027');
    await expect.poll(() => deadline.inputValue()).toBe('2027-03-14');
    // A date typed is saved on Enter or when the box is left (Tab goes to its picker button first).
    await deadline.press('Enter');
    await screenshot(suite.page, 'typing-kept-task');
    await suite.ui.waitForPendingCount(0);
    expect(await eventually(serviceTask, (t) => t.deadline === '2027-03-14')).toMatchObject({
      name: 'Title typed while Bob works',
      storyPoints: 8,
      deadline: '2027-03-14',
    });
  });

  it('keeps a message being written while the task is read again, and sends it', async () => {
    const { app } = suite;
    const taskId = task.id;
    const composer = panel().getByTestId('composer').locator('textarea');
    await typeInto(composer, 'A comment written while Bob renames the task');
    await colleague(`/task/${taskId}/update`, 'PUT', { userId: bob(), title: 'Renamed by Bob mid-comment' });
    await panel().getByText('Renamed by Bob mid-comment').first().waitFor();
    await kept(composer, 'A comment written while Bob renames the task');
    await composer.press('ControlOrMeta+Enter');
    await expect.poll(() => composer.inputValue()).toBe('');
    await eventually(
      () => app.api<ServiceMessage[]>(`/task/${taskId}/messages`),
      (messages) => messages.some((m) => m.message === 'A comment written while Bob renames the task'),
    );
  });

  /** The project the project tests type in. */
  let projectId = '';

  it('keeps a project name typed while the project is read again, and saves it', async () => {
    const { app, page, ui } = suite;
    await ui.openDemoProject('Partner API 9');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const projects = await app.api<ServiceProject[]>('/projects');
    projectId = projects.find((p) => p.name === 'Partner API 9')?.id ?? '';
    const name = overview.field('project-name');
    const comments = overview.field('project-status-comments');

    await typeInto(name, 'Partner API, typed');
    await colleague(`/project/${projectId}`, 'PUT', { userId: bob(), statusComments: 'Comments by Bob' });
    await expect.poll(() => comments.inputValue()).toBe('Comments by Bob');
    await kept(name, 'Partner API, typed');
    await name.press('Tab');
    await eventually(
      () => app.api<ServiceProject>(`/project/${projectId}`),
      (p) => p.name === 'Partner API, typed',
    );
  });

  it('keeps a project description typed while a colleague changes it, and saves it', async () => {
    const { app, page, ui } = suite;
    const overview = new ProjectOverviewPage(page);
    const name = overview.field('project-name');
    const description = overview.field('project-description');
    // The description with Bob changing it, and the name, meanwhile.
    await typeInto(description, 'The description as the user typed it');
    await colleague(`/project/${projectId}`, 'PUT', {
      userId: bob(),
      name: 'Partner API by Bob',
      description: 'The description by Bob',
    });
    await expect.poll(() => name.inputValue()).toBe('Partner API by Bob');
    await kept(description, 'The description as the user typed it');
    await description.press('Tab');
    await ui.waitForPendingCount(0);
    await eventually(
      () => app.api<ServiceProject>(`/project/${projectId}`),
      (p) => p.description === 'The description as the user typed it',
    );
  });

  it('keeps what is typed in a contact being edited, and takes a colleague’s change to another field', async () => {
    const { app, page, ui } = suite;
    const crm = new CrmPage(page);
    await crm.openContacts();
    const contacts = (await app.api<ServiceContact[]>('/crm/contacts')).filter((c) => !c.isDeleted);
    const contact = contacts.find((c) => c.email);
    if (!contact) throw new Error('the demo seed has a contact with an email');
    await crm.openFound(contact.email ?? '');
    await crm.detail.waitFor();
    await crm.detail.getByTestId('crm-edit').click();
    const form = page.getByTestId('contact-form');
    const phone = form.getByLabel('Phone');
    const email = form.getByTestId('contact-email');
    await typeInto(phone, '+31 6 1234 5678');
    await colleague(`/crm/contact/${contact.id}`, 'PUT', {
      updatedByUserId: bob(),
      email: 'changed.by.bob@example.test',
    });
    // Bob's change reaches the field the user left alone.
    await expect.poll(() => email.inputValue()).toBe('changed.by.bob@example.test');
    await kept(phone, '+31 6 1234 5678');
    await form.getByTestId('contact-save').click();
    await form.waitFor({ state: 'hidden' });
    await ui.waitForPendingCount(0);
    const saved = await eventually(
      () => app.api<{ contact: ServiceContact }>(`/crm/contact/${contact.id}`),
      (c) => c.contact.phone === '+31 6 1234 5678',
    );
    expect(saved.contact.email).toBe('changed.by.bob@example.test');
  });

  it('keeps the new task typed while the project tree is read again, and creates it', async () => {
    const { app, page, ui } = suite;
    // Opened away from a project: the dialog offers the project last used.
    const projects = await app.api<ServiceProject[]>('/projects');
    const offered = projects.find((p) => p.name === 'Support desk 2')?.id ?? '';
    const renamed = projects.find((p) => p.name === 'Support desk 1')?.id ?? '';
    await page.evaluate(
      (id) => localStorage.setItem('workdesk.newTask.project', JSON.stringify(id)),
      offered,
    );
    // The renamed project is in view in the tree, where the re-read shows.
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.goToAssigned();
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await expect.poll(() => dialog.projectLabel()).toBe('Project: Support desk 2');
    const title = page.getByTestId('nt-title');
    const deadline = page.getByTestId('nt-deadline');
    const points = page.locator('#nt-points');
    await typeInto(title, 'A task typed while Bob renames a project');
    await deadline.fill('2027-05-01');
    await typeInto(points, '5');
    await colleague(`/project/${renamed}`, 'PUT', { userId: bob(), name: 'Project renamed by Bob' });
    await page
      .getByRole('treeitem', { name: /Project renamed by Bob/ })
      .first()
      .waitFor({ state: 'attached' });
    // Before, the re-read tree filled the whole dialog afresh: the dates and points were emptied
    // (the title came back a moment later from its draft).
    await kept(points, '5');
    expect(await deadline.inputValue()).toBe('2027-05-01');
    expect(await title.inputValue()).toBe('A task typed while Bob renames a project');
    await dialog.submit();
    await dialog.root.waitFor({ state: 'hidden' });
    const created = await eventually(
      () => app.api<ServiceTask[]>(`/project/${offered}/tasks`),
      (tasks) => tasks.some((t) => t.name === 'A task typed while Bob renames a project'),
    );
    expect(created.find((t) => t.name === 'A task typed while Bob renames a project')).toMatchObject({
      storyPoints: 5,
      deadline: '2027-05-01',
    });
  });

  it('keeps a name being typed in a list row while a colleague’s new task moves the rows, and saves it', async () => {
    const { app, page, ui } = suite;
    await page.keyboard.press('Escape');
    await ui.openDemoProject('Mobile app 5');
    const list = new TaskListPage(page);
    await list.waitForRows();
    const row = list.rows.nth(2);
    const task = {
      id: (await row.getAttribute('data-task-id')) ?? '',
      name: await row.locator('.task-name').innerText(),
    };
    await list
      .row(task)
      .getByRole('button', { name: `Rename ${task.name}` })
      .click();
    const rename = page.getByRole('textbox', { name: `Name of ${task.name}` });
    await rename.waitFor();
    await rename.pressSequentially('Renamed in its row, typed');
    // The list is newest first: Bob's new task takes the top row and every row moves down one.
    const projectId = (await app.api<ServiceTask>(`/task/${task.id}`)).projectId;
    await colleague('/tasks', 'POST', { projectId, title: 'A task Bob adds above', fromUserId: bob() });
    await list.rows.first().filter({ hasText: 'A task Bob adds above' }).waitFor();
    // Before, the box went away with its row (and the focus with it).
    await expect.poll(() => rename.count()).toBe(1);
    await kept(rename, 'Renamed in its row, typed');
    expect(await rename.evaluate((el) => (el as HTMLInputElement).selectionStart)).toBe(
      'Renamed in its row, typed'.length,
    );
    await screenshot(page, 'typing-kept-row-rename');
    await rename.press('Enter');
    await eventually(
      () => app.api<ServiceTask>(`/task/${task.id}`),
      (t) => t.name === 'Renamed in its row, typed',
    );
  });
});
