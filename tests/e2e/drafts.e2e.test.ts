// What was typed and not sent is kept by the core: a comment half-written on a task and a New
// task dialog closed with a title come back after the page is loaded again (the renderer starts
// over, as after a restart or a crash of the window). A message, its staged files and a title
// edit also stay with their task when the user moves to another task and back.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { NewTaskDialogPage } from './pages/new-task';
import type { Page } from 'playwright-core';
import { eventually } from './support/wait';
import { PalettePage } from './pages/palette';

interface ServiceTask {
  id: string;
  name: string;
  parentTaskId: string | null;
}

interface ServiceMessage {
  message: string | null;
  attachments?: { name: string; size: number }[] | null;
}

/** The open task's id, as its message box names it. */
async function openTaskId(page: Page): Promise<string> {
  const id = await page.locator('textarea[id^="composer-"]').getAttribute('id');
  if (!id) throw new Error('no message box');
  return id.slice('composer-'.length);
}

/** Opens a task found by name in the palette, and waits for its title. */
async function openTask(page: Page, name: string): Promise<void> {
  await new PalettePage(page).openHit(name, 'Tasks');
  await eventually(
    () => page.getByTestId('task-title').inputValue(),
    (title) => title === name,
    { timeout: 5_000 },
  );
}

describe('drafts survive the window starting over and a move to another task', () => {
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

  it('keeps a message typed and not sent when the user moves to another task and back', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
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
    await expect.poll(() => page.locator('textarea[id^="composer-"]').inputValue()).toBe('');
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
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('keeps the files staged in a message box with its draft when the user moves to another task', async () => {
    const { app, page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    await openTask(page, 'Review API limits');
    const taskId = await openTaskId(page);
    const composer = page.getByTestId('composer');
    await composer.getByTestId('attach-files-input').setInputFiles([
      { name: 'limits.csv', mimeType: 'text/csv', buffer: Buffer.from('endpoint,limit\n/tasks,100\n') },
      { name: 'scratch.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one') },
    ]);
    await composer.getByTestId('staged-file').filter({ hasText: 'scratch.txt' }).waitFor();
    await composer.locator('textarea').fill('The limits, measured');

    await openTask(page, 'Ship login flow');
    await expect.poll(() => page.getByTestId('composer').getByTestId('staged-file').count()).toBe(0);
    // Before: back on the first task, the text was there and the files were not.
    await page.keyboard.press('Alt+ArrowLeft');
    await composer.getByTestId('staged-file').filter({ hasText: 'limits.csv' }).waitFor();
    await expect
      .poll(() => composer.getByTestId('staged-file').allInnerTexts())
      .toEqual([expect.stringContaining('limits.csv'), expect.stringContaining('scratch.txt')]);
    await expect.poll(() => composer.locator('textarea').inputValue()).toBe('The limits, measured');
    await composer.scrollIntoViewIfNeeded();
    await screenshot(page, 'drafts-staged-files-kept');

    // Erasing the text keeps the files, as it always did; a file removed stays removed.
    await composer.locator('textarea').fill('');
    await composer.getByRole('button', { name: 'Remove scratch.txt' }).click();
    await openTask(page, 'Ship login flow');
    await page.keyboard.press('Alt+ArrowLeft');
    await composer.getByTestId('staged-file').filter({ hasText: 'limits.csv' }).waitFor();
    await expect.poll(() => composer.getByTestId('staged-file').count()).toBe(1);

    // Sent, the spooled copy arrives, and the draft is gone for good.
    await composer.getByTestId('send-message').click();
    const messages = await eventually(
      () => app.api<ServiceMessage[]>(`/task/${taskId}/messages`),
      (list) => list.some((m) => m.attachments?.some((a) => a.name === 'limits.csv')),
      { timeout: 10_000 },
    );
    const sent = messages.filter((m) => m.attachments?.some((a) => a.name === 'limits.csv'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.attachments).toEqual([expect.objectContaining({ name: 'limits.csv', size: 26 })]);
    await composer.getByTestId('staged-file').waitFor({ state: 'detached' });
    await openTask(page, 'Ship login flow');
    await page.keyboard.press('Alt+ArrowLeft');
    await eventually(
      () => openTaskId(page),
      (id) => id === taskId,
      { timeout: 5_000 },
    );
    await expect.poll(() => composer.getByTestId('staged-file').count()).toBe(0);
    await expect.poll(() => composer.locator('textarea').inputValue()).toBe('');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('commits a title edit left by Alt+← to the task it was typed on, with no warning', async () => {
    const { app, page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    const warnings: string[] = [];
    const onConsole = (message: { type(): string; text(): string }): void => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    };
    page.on('console', onConsole);
    try {
      await openTask(page, 'Ship login flow');
      await openTask(page, 'Review API limits');
      const taskId = await openTaskId(page);
      await page.getByTestId('task-title').fill('Review API limits, renamed');
      // Before: the blur commit read the destroyed panel's derived task (`derived_inert`).
      await page.keyboard.press('Alt+ArrowLeft');
      const task = await eventually(
        () => app.api<ServiceTask>(`/task/${taskId}`),
        (t) => t.name === 'Review API limits, renamed',
        { timeout: 10_000 },
      );
      expect(task.name).toBe('Review API limits, renamed');
      await expect.poll(() => page.getByTestId('task-title').inputValue()).toBe('Ship login flow');
      expect(warnings.filter((w) => w.includes('derived_inert'))).toEqual([]);
    } finally {
      page.off('console', onConsole);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
