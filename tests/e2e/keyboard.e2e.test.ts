/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { PalettePage } from './pages/palette';
import { TaskListPage } from './pages/task-list';
import { appSuite } from './support/suite';

interface ServiceTask {
  id: string;
  name: string;
  priority: number;
  assignedToUserId: string | null;
  status: { id: string; name: string };
}
interface ServiceMessage {
  message: string;
}

describe('keyboard: shortcuts on the selected task, and a detail that keeps what is typed', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let list: TaskListPage;

  const task = (id: string): Promise<ServiceTask> => app.api<ServiceTask>(`/task/${id}`);
  /** The task of the grid's active row (the one the keys act on). */
  const activeTaskId = (): Promise<string> =>
    page.evaluate(() => {
      const grid = document.querySelector('[data-testid="task-table"]');
      const id = grid?.getAttribute('aria-activedescendant');
      return (id && document.getElementById(id)?.getAttribute('data-task-id')) || '';
    });
  /** Types into whatever has the focus, as a user does; then Enter. */
  async function typeAndEnter(text: string): Promise<void> {
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    ui = new AppPage(page);
    list = new TaskListPage(page);
    await ui.open(app.host.url);
    await ui.openDemoProject('Support desk 1');
    await list.waitForRows();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('sets priority, assignee and status of the active row, comments and opens it, by keys alone', async () => {
    await list.table.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const id = await activeTaskId();
    expect(id).not.toBe('');
    const before = await task(id);
    const priority = before.priority === 9 ? '8' : '9';

    await page.keyboard.press('p');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    await typeAndEnter(priority);
    await eventually(
      () => task(id),
      (t) => t.priority === Number(priority),
    );

    await page.keyboard.press('a');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    await typeAndEnter('Dan Whitfield');
    await eventually(
      () => task(id),
      (t) => t.assignedToUserId === app.service!.users.dan,
    );

    const status = before.status.name === 'On Hold' ? 'In Progress' : 'On Hold';
    await page.keyboard.press('s');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    await typeAndEnter(status);
    await eventually(
      () => task(id),
      (t) => t.status.name === status,
    );

    // C opens the task beside the list with the focus in its message box.
    await page.keyboard.press('c');
    await page.waitForFunction((taskId) => document.activeElement?.id === `composer-${taskId}`, id);
    await page.keyboard.type('Picked up from the keyboard');
    await page.keyboard.press('Control+Enter');
    await eventually(
      () => app.api<ServiceMessage[]>(`/task/${id}/messages`),
      (messages) => messages.some((m) => m.message === 'Picked up from the keyboard'),
    );
    await screenshot(page, 'keyboard-list');

    // Out of the message box (Tab), O opens the open task full size; P there uses its field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('o');
    await page.waitForFunction(() => !document.querySelector('[data-testid="detail-panel"]'));
    await page.getByTestId('task-detail').waitFor();
    await page.keyboard.press('p');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    await typeAndEnter('Blocker');
    await eventually(
      () => task(id),
      (t) => t.priority === 50,
    );
    await screenshot(page, 'keyboard-full-view');
    await ui.back();
    await list.waitForRows();
  });

  it('acts on a focused board card through the task’s detail', async () => {
    await page.getByTestId('layout-board').click();
    const card = page.getByTestId('board-card').first();
    await card.waitFor();
    const id = (await card.getAttribute('data-task-id'))!;
    const before = await task(id);
    await card.focus();
    await page.keyboard.press('s');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    const status = before.status.name === 'Done' ? 'On Hold' : 'Done';
    // A status chosen applies at once; "With a message…" asks for the status and a message.
    await typeAndEnter('With a message');
    const dialog = page.getByTestId('status-dialog');
    await dialog.waitFor();
    // The dialog opens with the focus on its first field, the new status; once chosen, the
    // focus moves on to the message.
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'status-dialog-status',
    );
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    await typeAndEnter(status);
    await page.waitForFunction(() => document.activeElement?.id === 'status-message');
    await page.keyboard.type('Moved from the board');
    await page.keyboard.press('Control+Enter');
    await eventually(
      () => task(id),
      (t) => t.status.name === status,
    );
    await screenshot(page, 'keyboard-board');
  });

  it('acts on the active row of My Work the same way', async () => {
    await ui.goToAssigned();
    await list.waitForRows();
    await list.table.focus();
    await page.keyboard.press('ArrowDown');
    const id = await activeTaskId();
    expect(id).not.toBe('');
    // (Assigning it away would drop the row from this list; priority keeps it here.)
    const priority = (await task(id)).priority === 3 ? '2' : '3';
    await page.keyboard.press('p');
    await page.getByRole('combobox', { name: /^Filter / }).waitFor();
    await typeAndEnter(priority);
    await eventually(
      () => task(id),
      (t) => t.priority === Number(priority),
    );
    await list.table.focus();
    await page.keyboard.press('o');
    await page.getByTestId('detail-panel').waitFor();
    await page.waitForFunction((taskId) => !!document.getElementById(`title-${taskId}`), id);
    await screenshot(page, 'keyboard-my-work');
    await ui.back();
    await ui.back();
    await ui.waitForTitle('Support desk 1');
  });

  it('keeps a half-typed comment while the place around the open task changes', async () => {
    // The task stays open beside the list while the layout switches board -> list -> board.
    await page.getByTestId('layout-board').click();
    const card = page.getByTestId('board-card').first();
    await card.click();
    const box = page.locator('[data-testid="detail-panel"] textarea[id^="composer-"]');
    await box.fill('Half a thou');
    await page.getByTestId('layout-list').click();
    await list.waitForRows();
    await page.getByTestId('layout-board').click();
    await page.getByTestId('board-card').first().waitFor();
    await expect.poll(() => box.inputValue()).toBe('Half a thou');
    await box.fill('');
  });

  it('lists the task keys in the shortcuts help', async () => {
    await page.getByTestId('view-title').click();
    await page.keyboard.press('?');
    const help = new PalettePage(page).help;
    await help.waitFor();
    const text = await help.innerText();
    expect(text).toMatch(/selected task\n/i);
    expect(text).toContain('Change the status of the selected task');
    expect(text).toContain('Comment on the selected task');
    await screenshot(page, 'keyboard-shortcuts-help');
    await page.keyboard.press('Escape');
  });
});

describe('keyboard: O opens the open task full size, Ctrl+F reaches the search box', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('opens a task full size with O when its row is already open beside the list', async () => {
    const { page, ui } = suite;
    const {
      list,
      task: { id },
    } = await ui.openBeside('Mobile app 5', 1);
    await list.table.focus();
    // Before: O opened the same task beside the list again, which did nothing.
    await page.keyboard.press('o');
    await page.waitForFunction(() => !document.querySelector('[data-testid="detail-panel"]'));
    await page.waitForFunction((taskId) => !!document.getElementById(`title-${taskId}`), id);
    await screenshot(page, 'keyboard-o-full-size');
    await ui.back();
    await page.getByTestId('detail-panel').waitFor();
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
    await expect.poll(() => row.count()).toBe(1);
    await expect
      .poll(() => row.locator('xpath=following-sibling::dd[1]').innerText())
      .toBe('Search box (results page)');
    await page.keyboard.press('Escape');
    await palette.help.waitFor({ state: 'hidden' });
    await page.keyboard.press('Control+f');
    await page.locator('#global-search:focus').waitFor();
    // The same from the palette, after it closed and handed the focus back.
    await page.getByTestId('view-title').focus();
    expect(await palette.runCommand('search box')).toBe('Search box (results page)');
    await page.locator('#global-search:focus').waitFor();
  });
});

// On macOS the shortcuts are Cmd chords (the app binds Cmd there, and the shortcuts help says
// so): Home, the search box, the New task tooltip, the composer and an empty project's hint say
// Cmd too, never Ctrl.
describe('the key hints on macOS', () => {
  const suite = appSuite({ service: { seed: 'demo' }, page: false });

  it('name Cmd wherever the app names the primary key', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => Object.defineProperty(navigator, 'platform', { get: () => 'MacIntel' }));
    const ui = new AppPage(page);
    await ui.open(suite.app.host.url);
    await ui.waitForTitle('Home');
    const hint = await page.locator('.hint').first().innerText();
    expect(hint).toContain('Cmd+N new task');
    expect(hint).toContain('Cmd+, settings');
    await expect
      .poll(() => page.locator('#global-search').getAttribute('placeholder'))
      .toBe('Search  (Cmd+K)');
    expect(
      await page
        .getByRole('button', { name: /New task/ })
        .first()
        .getAttribute('title'),
    ).toBe('New task (Cmd+N)');
    const list = new TaskListPage(page);
    await ui.openDemoProject('Mobile app 5');
    await list.waitForRows();
    await list.openRow(0);
    await page.getByTestId('detail-panel').getByText('Cmd+Enter to send').waitFor();
    await expect.poll(() => page.locator('body').innerText()).not.toMatch(/Ctrl\+/);
    expect(ui.errors).toEqual([]);
    await page.close();
  });
});
