/// <reference lib="dom" />
// Files dropped on the app in Chromium through the web host: on a task row, on the task
// detail, on the composer and on the new-task dialog. Each drop is simulated with a
// DataTransfer of File objects; the page streams the bytes over the bridge into the spool,
// the outbox uploads them, and the message shows them (name, size, type icon).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { choose } from './pages/picker';
import { TaskDetailPage } from './pages/task-detail';
import { TaskListPage } from './pages/task-list';
import { NewTaskDialogPage } from './pages/new-task';
import { CalendarPage } from './pages/calendar';

interface FileSpec {
  name: string;
  size: number;
  type: string;
}
interface ServiceMessage {
  message: string;
  toUserId?: string;
  attachments?: { name: string; size: number | null; mime: string }[];
}
interface ServiceTask {
  id: string;
  name: string;
  parentTaskId?: string | null;
  actionRequiredUserId?: string | null;
}

/** Starts dragging files over `target` (dragenter + dragover), as the system would. */
async function dragOver(target: Locator, files: FileSpec[]): Promise<void> {
  await target.evaluate((el, specs) => {
    const data = new DataTransfer();
    for (const f of specs) {
      const bytes = new Uint8Array(f.size);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
      data.items.add(new File([bytes], f.name, { type: f.type }));
    }
    (window as unknown as { __drag: DataTransfer }).__drag = data;
    const init = { bubbles: true, cancelable: true, dataTransfer: data };
    el.dispatchEvent(new DragEvent('dragenter', init));
    el.dispatchEvent(new DragEvent('dragover', init));
  }, files);
}

/** Drops the files being dragged on `target`. */
async function drop(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    const data = (window as unknown as { __drag: DataTransfer }).__drag;
    el.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
  });
}

describe('attachments: drop files on a row, the detail, the composer and the new-task dialog, and nowhere else', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 860 } });

  beforeAll(async () => {
    const { app, ui } = suite;
    const list = new TaskListPage(suite.page);
    // The demo's generated names may change; its project ids do not.
    const project = await app.api<{ name: string; parentProjectId: string | null }>('/project/g7-p1');
    const folder = await app.api<{ name: string }>(`/project/${project.parentProjectId}`);
    await ui.treeItem('Company Workspace').waitFor();
    await ui.expand('Company Workspace');
    await ui.expand(folder.name);
    await ui.openProject(project.name);
    await list.waitForRows();
  });

  async function serviceTask(name: string): Promise<ServiceTask> {
    const { app } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks?closed=true');
    const task = tasks.find((t) => t.name === name);
    if (!task) throw new Error(`no task ${name}`);
    return task;
  }
  async function serviceMessages(name: string): Promise<ServiceMessage[]> {
    const { app } = suite;
    return app.api<ServiceMessage[]>(`/task/${(await serviceTask(name)).id}/messages`);
  }
  async function waitFor(check: () => Promise<boolean>, timeout = 20_000): Promise<void> {
    const end = Date.now() + timeout;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('a drop on a task row says what it will do, then attaches the files while offline and after', async () => {
    const { app, page, ui } = suite;
    const list = new TaskListPage(page);
    const [name] = await list.visibleNames();
    const task = { id: (await list.rows.first().getAttribute('data-task-id'))!, name: name! };
    const row = list.row(task);
    await app.stopService();
    await ui.waitForOnline(false);
    await dragOver(row, [
      { name: 'site-plan.png', size: 120_000, type: 'image/png' },
      { name: 'budget.pdf', size: 60_000, type: 'application/pdf' },
    ]);
    const hint = row.getByTestId('drop-hint');
    await expect.poll(() => hint.innerText()).toBe(`Attach 2 files to '${name}'`);
    await screenshot(page, 'attachments-drag-row');
    await drop(row);
    // Offline: the files are in the spool, the status bar says they wait.
    await page.getByTestId('upload-status').waitFor();
    await expect
      .poll(() => page.getByTestId('upload-status').innerText())
      .toMatch(/2 files waiting to upload/);
    await list.open(task);
    const draft = page.getByTestId('message').last();
    await draft.getByTestId('attachment').first().waitFor();
    await expect
      .poll(() => draft.getByTestId('attachment').allInnerTexts())
      .toEqual([expect.stringContaining('site-plan.png'), expect.stringContaining('budget.pdf')]);
    await expect
      .poll(() => draft.getByTestId('upload-progress').first().getAttribute('data-phase'))
      .toBe('waiting');
    await screenshot(page, 'attachments-waiting-offline');

    await app.restartService();
    await ui.waitForOnline(true);
    await page.getByTestId('upload-status').waitFor({ state: 'detached', timeout: 30_000 });
    await waitFor(async () => (await serviceMessages(name!)).some((m) => m.message === 'Attached 2 files'));
    const sent = (await serviceMessages(name!)).find((m) => m.message === 'Attached 2 files')!;
    expect(sent.attachments!.map((a) => [a.name, a.size, a.mime])).toEqual([
      ['site-plan.png', 120_000, 'image/png'],
      ['budget.pdf', 60_000, 'application/pdf'],
    ]);
    await screenshot(page, 'attachments-row-attached');
  });

  it('a drop on the task detail attaches the file to the open task', async () => {
    const { page } = suite;
    const detail = page.getByTestId('task-detail');
    const title = await page.getByTestId('task-title').inputValue();
    await dragOver(detail.getByRole('heading').first(), [
      { name: 'notes.txt', size: 2_000, type: 'text/plain' },
    ]);
    await expect.poll(() => detail.getByTestId('drop-hint').innerText()).toBe(`Attach 1 file to '${title}'`);
    await screenshot(page, 'attachments-drag-detail');
    await drop(detail.getByRole('heading').first());
    await waitFor(async () => (await serviceMessages(title)).some((m) => m.message === 'Attached 1 file'));
    const last = page.getByTestId('message').last();
    await last.getByTestId('attachment').filter({ hasText: 'notes.txt' }).waitFor();
  });

  it('a drop on the composer stages the file; the comment carries it, with progress shown', async () => {
    const { app, page, ui } = suite;
    const title = await page.getByTestId('task-title').inputValue();
    const composer = page.getByTestId('composer');
    await dragOver(composer, [{ name: 'spec.docx', size: 3_000_000, type: '' }]);
    await expect.poll(() => composer.getByTestId('drop-hint').innerText()).toBe('Add 1 file to this comment');
    await screenshot(page, 'attachments-drag-composer');
    await drop(composer);
    await composer.getByTestId('staged-file').filter({ hasText: 'spec.docx' }).waitFor();
    await composer.getByPlaceholder('Write a comment…').fill('The spec, signed');
    await app.stopService();
    await ui.waitForOnline(false);
    await composer.getByTestId('send-message').click();
    const last = page.getByTestId('message').last();
    await last.getByTestId('upload-progress').waitFor();
    await expect.poll(() => last.innerText()).toContain('The spec, signed');
    await screenshot(page, 'attachments-composer-progress');
    await app.restartService();
    await waitFor(async () => (await serviceMessages(title)).some((m) => m.message === 'The spec, signed'));
    const sent = (await serviceMessages(title)).find((m) => m.message === 'The spec, signed')!;
    // No type from the system: inferred from the name.
    expect(sent.attachments).toEqual([
      expect.objectContaining({
        name: 'spec.docx',
        size: 3_000_000,
        mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    ]);
    await last.getByTestId('upload-progress').waitFor({ state: 'detached', timeout: 30_000 });
    await screenshot(page, 'attachments-composer-sent');
  });

  it('a drop on the new-task dialog creates the task with the file', async () => {
    const { app, page } = suite;
    const list = new TaskListPage(page);
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title: 'Task born with a file' });
    const form = dialog.root.locator('form');
    await dragOver(form, [{ name: 'brief.pdf', size: 8_000, type: 'application/pdf' }]);
    await expect.poll(() => form.getByTestId('drop-hint').innerText()).toBe('Create the task with 1 file');
    await screenshot(page, 'attachments-drag-new-task');
    await drop(form);
    await dialog.root.getByTestId('staged-file').filter({ hasText: 'brief.pdf' }).waitFor();
    await dialog.submit();
    await waitFor(async () => {
      const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks?closed=true');
      return tasks.some((t) => t.name === 'Task born with a file');
    });
    const [first] = await serviceMessages('Task born with a file');
    expect(first!.attachments!.map((a) => a.name)).toEqual(['brief.pdf']);
    await screenshot(page, 'attachments-new-task-created');
    await page.keyboard.press('Escape');
    const created = await serviceTask('Task born with a file');
    await list.row(created).waitFor();
    await list.open(created);
    await page.getByTestId('attachment').filter({ hasText: 'brief.pdf' }).first().waitFor();
    await screenshot(page, 'attachments-new-task');
  });

  it('refuses files dropped where nothing takes them, and says where they go', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
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
    await expect.poll(() => toast.innerText()).toContain('drop on a task in a list, an open task');
    await screenshot(page, 'attachments-stray-drop');
    await page.setViewportSize({ width: 1440, height: 860 });
  });
});

/** The reply operation's `attachments`: a file picked in the composer goes with the reply. */
describe('a reply that hands the task over carries a picked file', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it('sends the reply with the file to the service, and Bob must act next', async () => {
    const { app, page, ui } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const target = tasks.find((t) => t.parentTaskId === null && t.actionRequiredUserId !== 'u-bob')!;
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 1');
    const list = new TaskListPage(page);
    await list.waitForRows();
    await list.open(target);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(target.name);

    const composer = page.getByTestId('composer');
    await composer.getByTestId('mode-reply').check();
    await choose(page, composer.getByTestId('reply-to'), 'Bob Okafor');
    await composer.getByTestId('attach-files-input').setInputFiles({
      name: 'measurements.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('width,height\n120,80\n'),
    });
    await composer.getByTestId('staged-file').filter({ hasText: 'measurements.csv' }).waitFor();
    await composer.getByPlaceholder('Reply (optional)…').fill('Measurements attached, over to you.');
    await screenshot(page, 'attachments-reply-staged');
    await composer.getByTestId('send-message').click();
    await detail.messages.filter({ hasText: 'Measurements attached' }).waitFor();
    await ui.waitForPendingCount(0);

    const messages = await eventually(
      () => app.api<ServiceMessage[]>(`/task/${target.id}/messages`),
      (list) => list.some((m) => m.message === 'Measurements attached, over to you.'),
    );
    const sent = messages.find((m) => m.message === 'Measurements attached, over to you.')!;
    expect(sent.toUserId).toBe('u-bob');
    expect(sent.attachments).toEqual([expect.objectContaining({ name: 'measurements.csv', size: 20 })]);
    expect((await app.api<ServiceTask>(`/task/${target.id}`)).actionRequiredUserId).toBe('u-bob');
    await screenshot(page, 'attachments-reply-sent');
  });
});
