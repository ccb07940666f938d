/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { PalettePage } from './pages/palette';
import { appSuite } from './support/suite';
import { TaskDetailPage } from './pages/task-detail';

interface ServiceTask {
  id: string;
  name: string;
  actionRequiredUserId: string | null;
}

describe('command palette and shortcuts help', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let palette: PalettePage;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
    ui = new AppPage(page);
    palette = new PalettePage(page);
    await ui.open(app.host.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists every command on Ctrl+K and runs one with the keyboard', async () => {
    await palette.open();
    expect(await palette.groupNames()).toEqual(['Commands']);
    await expect.poll(() => palette.items.count()).toBeGreaterThan(10);
    await palette.search('calendar agenda');
    expect(await palette.activeLabel()).toBe('Go to Calendar · Agenda');
    await page.keyboard.press('Enter');
    await ui.waitForTitle('Calendar');
    await page.getByTestId('agenda').waitFor();
  });

  it('finds a task by a word of its name, grouped, and opens it with arrows and Enter', async () => {
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const target = tasks[0];
    if (!target) throw new Error('the demo project has no tasks');
    const word = target.name.split(/\s+/).find((w) => w.length > 3) ?? target.name;
    await palette.open();
    await palette.search(word, 'Tasks');
    const groups = await palette.groupNames();
    expect(groups[0]).toBe('Tasks');
    expect(groups.indexOf('Tasks')).toBeLessThan(
      groups.indexOf('Commands') === -1 ? 99 : groups.indexOf('Commands'),
    );
    const labels = await palette.dialog.locator('[data-group="Tasks"] .label').allInnerTexts();
    const index = labels.findIndex((label) => label.trim() === target.name);
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    expect(await palette.activeLabel()).toBe(target.name);
    await screenshot(page, 'palette');
    await page.keyboard.press('Enter');
    await palette.dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('detail-panel').waitFor();
    // The window's title names the task once its detail is read (after the panel shows).
    await expect.poll(() => page.title()).toContain(target.name);
  });

  it('finds projects by name and CRM records from the index', async () => {
    await palette.open();
    await palette.search('Support desk', 'Projects');
    await palette.search('Northwind', 'Accounts');
    expect(await palette.groupNames()).toContain('Accounts');
    await page.keyboard.press('Escape');
    await palette.dialog.waitFor({ state: 'hidden' });
  });

  it('shows the shortcuts help on ?, not while typing', async () => {
    await page.locator('body').click({ position: { x: 700, y: 400 } });
    await page.keyboard.press('?');
    await palette.help.waitFor();
    await expect.poll(() => palette.help.innerText()).toContain('Ctrl+K');
    await screenshot(page, 'palette-shortcuts-help');
    await page.keyboard.press('Escape');
    await palette.help.waitFor({ state: 'hidden' });
    await page.locator('#global-search').focus();
    await page.keyboard.press('?');
    await expect.poll(() => palette.help.isVisible()).toBe(false);
  });

  it('raises a toast when another user hands a task to the acting user', async () => {
    const users = app.service!.users;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const task = tasks.find((t) => t.actionRequiredUserId !== users.actingUserId);
    if (!task) throw new Error('every demo task already waits for the acting user');
    await app.api(`/task/${task.id}/reply`, {
      method: 'POST',
      body: { userId: users.bob, actionRequiredUserId: users.actingUserId, message: 'Over to you' },
    });
    const toast = page.getByTestId('toast').filter({ hasText: `Your action is required: “${task.name}”` });
    await toast.first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'palette-action-required-toast');
  });

  // Last: its sync.now restarts the sync schedule the toast test above waits on.
  it('finds a project by a word of its description, in the Projects group, and opens it', async () => {
    const projects = await app.api<{ id: string; name: string }[]>('/projects');
    const target = projects.find((p) => p.name.startsWith('Support desk')) ?? projects[0];
    if (!target) throw new Error('the demo seed has projects');
    const userId = app.service?.users.actingUserId;
    await app.api(`/project/${target.id}`, {
      method: 'PUT',
      body: { userId, description: 'Escalations from the zanzibar helpline' },
    });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await palette.open();
    await palette.search('zanzibar', 'Projects');
    expect(await palette.groupNames()).toEqual(['Projects']);
    expect(await palette.activeLabel()).toBe(target.name);
    await expect
      .poll(() => palette.dialog.locator('[data-group="Projects"] mark').allInnerTexts())
      .toEqual(['zanzibar']);
    await screenshot(page, 'palette-projects');
    await page.keyboard.press('Enter');
    await palette.dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.title()).toContain(target.name);
  });
});

/** The palette's task, message and document hits: the tasks a word names come before the messages repeating it. */
describe('palette: tasks, messages and documents from the index', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it('finds a message by its words and opens its task, whose thread holds it', async () => {
    const { page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    const palette = new PalettePage(page);
    await palette.open();
    await palette.search('take a look', 'Messages');
    const hit = palette.dialog.locator('[data-group="Messages"]').first();
    await hit.click();
    await palette.dialog.waitFor({ state: 'hidden' });
    const detail = new TaskDetailPage(page);
    await detail.root.waitFor();
    await detail.messages.filter({ hasText: 'Can you take a look?' }).first().waitFor();
    await screenshot(page, 'palette-message-hit');
  });

  it('finds a document by its name and opens it in the reader of its project', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.open();
    await palette.search('project brief', 'Documents');
    expect(await palette.groupNames()).toContain('Documents');
    const label = (
      await palette.dialog.locator('[data-group="Documents"] .label').first().innerText()
    ).trim();
    expect(label).toBe('Project brief');
    await palette.dialog.locator('[data-group="Documents"]').first().click();
    const reader = page.getByTestId('document-reader');
    await reader.getByTestId('document-content').waitFor();
    await expect.poll(() => reader.getByRole('heading').first().innerText()).toBe('Project brief');
    await screenshot(page, 'palette-document-hit');
  });

  it('lists the tasks a word names in the palette, not only messages that repeat it', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
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
    await screenshot(page, 'palette-palette-tasks');
    const first = (await tasks.first().innerText()).trim();
    expect(await palette.activeLabel()).toBe(first);
    await page.keyboard.press('Enter');
    await palette.dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('detail-panel').waitFor();
    await expect.poll(() => page.title()).toContain(first);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
