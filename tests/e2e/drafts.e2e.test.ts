// What was typed and not sent is kept by the core: a comment half-written on a task and a New
// task dialog closed with a title come back after the page is loaded again (the renderer starts
// over, as after a restart or a crash of the window).
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { NewTaskDialogPage } from './pages/new-task';

interface ServiceTask {
  id: string;
  name: string;
  parentTaskId: string | null;
}

describe('drafts survive the window starting over', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  async function openSupportDesk(): Promise<TaskListPage> {
    const { ui, page } = suite;
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 1');
    const list = new TaskListPage(page);
    await list.waitForRows();
    return list;
  }

  it('keeps a half-written comment and a New task draft across a reload', async () => {
    const { app, page, ui } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const target = tasks.find((t) => t.parentTaskId === null)!;
    let list = await openSupportDesk();
    await list.open(target);
    await new TaskDetailPage(page).waitFor(target.name);
    const box = page.getByTestId('composer').getByRole('textbox', { name: 'Message' });
    await box.fill('Checked the logs: the timeout is on the proxy, not');
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title: 'Ask the proxy team about the timeout' });
    // Written after a short pause in typing.
    await page.waitForTimeout(600);
    await page.keyboard.press('Escape');

    await page.reload();
    await ui.sidebar.waitFor();
    list = await openSupportDesk();
    await list.open(target);
    await new TaskDetailPage(page).waitFor(target.name);
    await expect.poll(() => box.inputValue()).toBe('Checked the logs: the timeout is on the proxy, not');
    await dialog.openWithShortcut();
    await expect
      .poll(() => page.getByTestId('nt-title').inputValue())
      .toBe('Ask the proxy team about the timeout');
    await page.getByTestId('nt-restored').waitFor();
    await screenshot(page, 'drafts-restored-after-reload');
    await page.keyboard.press('Escape');
  });
});
