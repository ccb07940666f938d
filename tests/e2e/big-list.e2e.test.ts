/// <reference lib="dom" />
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openDatabase } from '../../src/server/db/open';
import { generateWorkspace } from '../../src/server/seed/generate';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { TaskListPage } from './pages/task-list';

const TASKS = 10_000;

describe('a project of 10,000 tasks', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let projectName: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'workdesk-e2e-big-'));
    const db = openDatabase(join(dataDir, 'service.sqlite'));
    const generated = generateWorkspace(db, { projects: 1, tasks: TASKS, messagesPerTask: 0, seed: 5 });
    projectName = (
      db.prepare('SELECT name FROM projects WHERE id = ?').get(generated.projectIds[0]) as { name: string }
    ).name;
    db.close();
    app = await startApp({ service: { seed: 'empty', dataDir } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await new AppPage(page).open(app.host.url);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists every task with a few dozen rows in the page, and scrolls to the last one', async () => {
    const ui = new AppPage(page);
    const list = new TaskListPage(page);
    await ui.expand('Company Workspace');
    await ui.openProject(projectName);
    await list.setToggle('toggle-closed', true);
    await list.waitForTotal(TASKS);
    await list.sortBy('Name');
    await list.waitForRows();

    // Only the rows in view (and a few either side) are in the page.
    expect(await list.rows.count()).toBeLessThan(80);

    // Scroll through the whole list in big steps; every step paints rows, never blanks.
    for (let step = 0; step < 20; step++) {
      await list.scrollBy(16_000);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="task-row"]').length > 0);
    }
    await page.evaluate(() => {
      const scroller = document.querySelector('[data-testid="task-table"] [data-testid="virtual-list"]');
      scroller?.scrollTo(0, scroller.scrollHeight);
    });
    const last = (await app.api<{ name: string }[]>(`/project/${await projectId(page)}/tasks?closed=true`))
      .map((task) => task.name)
      .sort((a, b) => a.localeCompare(b))
      .at(-1);
    await page.waitForFunction(
      (name) =>
        [...document.querySelectorAll('[data-testid="task-row"] .task-name')].some(
          (el) => el.textContent === name,
        ),
      last,
    );
    expect(await list.rows.count()).toBeLessThan(80);
    await screenshot(page, 'big-list-bottom');
  });
});

/** The id of the project open in the list (from the tree's current item). */
async function projectId(page: Page): Promise<string> {
  const id = await page
    .getByTestId('project-tree')
    .locator('[aria-selected="true"]')
    .getAttribute('data-project-id');
  if (!id) throw new Error('no project is open');
  return id;
}
