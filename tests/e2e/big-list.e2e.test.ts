import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDatabase } from '../../src/server/db/open';
import { generateWorkspace } from '../../src/server/seed/generate';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';

const TASKS = 10_000;

describe('a project of 10,000 tasks', () => {
  let projectName: string;
  const suite = appSuite({
    service: {
      seed: 'empty',
      prepare(dataDir) {
        const db = openDatabase(join(dataDir, 'service.sqlite'));
        const generated = generateWorkspace(db, { projects: 1, tasks: TASKS, messagesPerTask: 0, seed: 5 });
        projectName = (
          db.prepare('SELECT name FROM projects WHERE id = ?').get(generated.projectIds[0]) as {
            name: string;
          }
        ).name;
        db.close();
      },
    },
    viewport: { width: 1280, height: 800 },
    startTimeoutMs: 180_000,
  });

  it('lists every task with a few dozen rows in the page, and scrolls to the last one', async () => {
    const { app, page, ui } = suite;
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
