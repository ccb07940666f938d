/// <reference lib="dom" />
// Tasks found by number and link everywhere (palette, pickers, the search view), and documents
// found by their text before anyone opened them.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { PalettePage } from './pages/palette';
import { TaskDetailPage } from './pages/task-detail';
import { TaskListPage } from './pages/task-list';

interface ServiceTask {
  id: string;
  shortId: string;
  name: string;
  projectId: string;
}

describe('search: tasks by number and link, documents by their text, tasks before messages', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  const tasksOf = (projectId: string) => suite.app.api<ServiceTask[]>(`/project/${projectId}/tasks`);
  const projectName = async (projectId: string) =>
    (await suite.app.api<{ name: string }>(`/project/${projectId}`)).name;

  it('finds a task by #number in the palette, showing its number and project, and opens it', async () => {
    const { page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    const [task] = await tasksOf('g7-p1');
    const project = await projectName('g7-p1');
    const palette = new PalettePage(page);
    await palette.open();
    await palette.search(`#${task!.shortId}`, 'Tasks');
    const first = palette.dialog.locator('[data-group="Tasks"]').first();
    expect((await first.getByTestId('palette-number').innerText()).trim()).toBe(`#${task!.shortId}`);
    expect((await first.locator('.label').innerText()).trim()).toBe(task!.name);
    expect((await first.locator('.detail').innerText()).trim()).toBe(project);
    await screenshot(page, 'search-palette-by-number');
    await page.keyboard.press('Enter');
    await new TaskDetailPage(page).waitFor(task!.name);
  });

  it("finds a task by its number with its project's name, and by its links", async () => {
    const { page } = suite;
    const [, task] = await tasksOf('g7-p1');
    const project = await projectName('g7-p1');
    const palette = new PalettePage(page);
    for (const text of [
      `${project.split(' ')[0]} ${task!.shortId}`,
      `https://www.goodday.work/t/${task!.shortId}`,
      `workdesk://task/${task!.id}`,
    ]) {
      await palette.open();
      await palette.search(text, 'Tasks');
      expect(await palette.activeLabel(), text).toBe(task!.name);
      await page.keyboard.press('Escape');
    }
  });

  it('finds a document by words of its text before it was ever opened', async () => {
    const { page } = suite;
    const palette = new PalettePage(page);
    await palette.open();
    // The demo's documents were listed by the first pull and their text fetched after it.
    const documents = palette.dialog.locator('[data-group="Documents"]');
    await eventually(
      async () => {
        await palette.search('');
        await palette.search('owners scope');
        await page.waitForTimeout(300);
        return documents.count();
      },
      (count) => count > 0,
    );
    const hit = documents.first();
    const snippet = (await hit.locator('.snippet').innerText()).trim();
    expect(snippet).toContain('owners of this project');
    expect(snippet).not.toMatch(/#/);
    await screenshot(page, 'search-palette-document-text');
    await page.keyboard.press('Escape');
  });

  it('finds a parent task by number in the picker, with number and project shown', async () => {
    const { page, ui } = suite;
    const tasks = await tasksOf('g7-p1');
    const [task, parent] = [tasks[2]!, tasks[3]!];
    await ui.openDemoProject('Support desk 1');
    const list = new TaskListPage(page);
    await list.waitForRows();
    await list.open(task);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(task.name);
    const search = detail.root.getByTestId('parent-search');
    await search.scrollIntoViewIfNeeded();
    await search.fill(`#${parent.shortId}`);
    const result = detail.root.getByTestId('dependency-result').first();
    await result.waitFor();
    const text = await result.innerText();
    expect(text).toContain(`#${parent.shortId}`);
    expect(text).toContain(parent.name);
    expect(text).toContain(await projectName('g7-p1'));
    await screenshot(page, 'search-parent-picker-by-number');
    await search.fill('');
  });

  it('lists a number, with its task first, in the search view', async () => {
    const { page } = suite;
    const [task] = await tasksOf('g7-p1');
    const input = page.locator('#global-search');
    await input.fill(`#${task!.shortId}`);
    await input.press('Enter');
    const first = page.getByTestId('search-hit').first();
    await first.waitFor();
    await expect.poll(() => first.innerText()).toContain(`#${task!.shortId}`);
    await expect.poll(() => first.innerText()).toContain(task!.name);
    await screenshot(page, 'search-view-by-number');
  });

  it('lists the tasks a word names first on the search results page, then the messages', async () => {
    const { page, ui } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    const box = page.locator('#global-search');
    await box.fill('audit');
    await box.press('Enter');
    await ui.waitForTitle('Search');
    const hits = page.getByRole('list', { name: 'Search results' }).locator('.hit');
    await hits.first().waitFor();
    // Before: one mixed search ranked the messages repeating "audit" above every task.
    const kinds = await hits.locator('.kind').allTextContents();
    expect(kinds[0]).toBe('Task');
    expect(kinds).toContain('Message');
    expect(kinds.lastIndexOf('Task')).toBeLessThan(kinds.indexOf('Message'));
    await screenshot(page, 'search-search-results');
    await box.fill('');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('empties the search box once the results are left, and shows the query again on the way back', async () => {
    const { page, ui } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    const box = page.locator('#global-search');
    await box.fill('login');
    await box.press('Enter');
    await ui.waitForTitle('Search');
    await ui.goToSettings();
    // Before: "login" stayed in the box over Settings, as if it filtered the page.
    await expect.poll(() => box.inputValue()).toBe('');
    await ui.back();
    await ui.waitForTitle('Search');
    await expect.poll(() => box.inputValue()).toBe('login');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
