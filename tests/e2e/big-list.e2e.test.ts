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
    // The list's reads, as the page sends them to the core.
    await page.evaluate(() => {
      const asked: { offset: number; limit: number }[] = [];
      Object.assign(window, { asked });
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const message = JSON.parse(data) as { channel: string; arg: { offset: number; limit: number } };
        if (message.channel === 'tasks.list')
          asked.push({ offset: message.arg.offset, limit: message.arg.limit });
        send.call(this, data);
      };
    });
    await ui.openProject(projectName);
    await list.waitForRows();
    // A first screen's rows are asked for first, then the rest of the first page (FIRST_ROWS).
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { asked: unknown[] }).asked.slice(0, 2)))
      .toEqual([
        { offset: 0, limit: 60 },
        { offset: 60, limit: 140 },
      ]);
    await list.setToggle('toggle-closed', true);
    await list.waitForTotal(TASKS);
    await list.sortBy('Name');
    await list.waitForRows();

    // Only the rows in view (and a few either side) are in the page.
    await expect.poll(() => list.rows.count()).toBeLessThan(80);

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
    await expect.poll(() => list.rows.count()).toBeLessThan(80);
    await screenshot(page, 'big-list-bottom');
  });

  it('shows the short id and name of each row during a fling, and every cell once it stops', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    await list.waitForRows();
    const statusCells = list.rows.getByTestId('cell-status');
    await expect.poll(() => statusCells.count()).toBeGreaterThan(0);

    // 600 px a frame is ~18 rows: more than a frame can fill whole (VirtualList's FLING_ROWS).
    await startFling(page, 600);
    await expect.poll(() => statusCells.count()).toBe(0);
    const names = await list.rows.locator('.task-name').allInnerTexts();
    expect(names.length).toBeGreaterThan(10);
    expect(names.every((name) => name.length > 0)).toBe(true);
    await screenshot(page, 'big-list-fling');

    await page.evaluate(() => (window as unknown as { stopFling: () => void }).stopFling());
    // Every row in the page gets its cells back once the list is still.
    await expect.poll(async () => (await statusCells.count()) === (await list.rows.count())).toBe(true);
    await expect.poll(() => list.rows.getByTestId('cell-priority').count()).toBe(await list.rows.count());
    await screenshot(page, 'big-list-after-fling');
  });
});

/**
 * Starts a fling: the grid scrolls by `step` px at every frame until `window.stopFling()`. It is
 * left running so that the test can look at the rows while the list moves.
 */
async function startFling(page: Page, step: number): Promise<void> {
  await page.evaluate((dy) => {
    const scroller = document.querySelector('[data-testid="task-table"] [data-testid="virtual-list"]');
    if (!scroller) throw new Error('no task grid');
    let flinging = true;
    Object.assign(window, { stopFling: () => (flinging = false) });
    const frame = (): void => {
      if (!flinging) return;
      // Back to the top at the end, so the fling lasts as long as the test needs.
      scroller.scrollTop =
        scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1 ? 0 : scroller.scrollTop + dy;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, step);
}

/** The id of the project open in the list (from the tree's current item). */
async function projectId(page: Page): Promise<string> {
  const id = await page
    .getByTestId('project-tree')
    .locator('[aria-selected="true"]')
    .getAttribute('data-project-id');
  if (!id) throw new Error('no project is open');
  return id;
}
