/// <reference lib="dom" />
// Print one task with its thread (the web host: window.print() with a print style that shows
// the task's sheet alone), and export a task list as shown to CSV (its filter and sort).
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';

interface ServiceTask {
  id: string;
  name: string;
  shortId: string;
  parentTaskId: string | null;
  priority: number;
  momentClosed: string | null;
}

describe('print a task, export a list', () => {
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

  it('exports the list as shown: its columns, its filter and its sort', async () => {
    const { app, page } = suite;
    const list = await openSupportDesk();
    await list.sortBy('Name');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-csv').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Support desk 1 \d{4}-\d{2}-\d{2}\.csv$/);
    const chunks: Buffer[] = [];
    for await (const part of await download.createReadStream()) chunks.push(part as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(
      text.startsWith('\uFEFFID,Name,Status,Assignee,Action required,Priority,Deadline,Progress,Files\r\n'),
    ).toBe(true);
    const lines = text.trim().split('\r\n').slice(1);
    const open = (await app.api<ServiceTask[]>('/project/g7-p1/tasks')).filter((t) => !t.momentClosed);
    expect(lines).toHaveLength(open.length);
    expect(await list.total()).toBe(open.length);
    // Sorted by name as the list is.
    const names = lines.map((line) => line.split(',')[1]!.replace(/^"|"$/g, ''));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })));
    expect(names[0]).toBe(await list.visibleNames().then((v) => v[0]));
    await screenshot(page, 'print-export-list');
  });

  it('prints one task with its thread: a sheet of its fields and messages, alone on the page', async () => {
    const { app, page } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const target = tasks.find((t) => t.parentTaskId === null)!;
    await app.api(`/task/${target.id}/comment`, {
      method: 'POST',
      body: { userId: 'u-bob', message: 'Printed on paper: <b>not bold</b>' },
    });
    await app.core.engine!.sync.now();
    const list = new TaskListPage(page);
    await list.open(target);
    await new TaskDetailPage(page).waitFor(target.name);
    // The browser's print dialog cannot be driven: window.print records the sheet it prints.
    await page.evaluate(() => {
      window.print = () => {
        (window as unknown as { printed: string }).printed =
          document.querySelector('body > .print-sheet')?.outerHTML ?? '';
      };
    });
    await page.getByTestId('print-task').click();
    const printed = await page.evaluate(() => (window as unknown as { printed: string }).printed);
    await expect.poll(() => page.locator('body > .print-sheet').count()).toBe(0);
    await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), printed);
    const sheet = page.locator('body > .print-sheet');
    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => sheet.locator('h1').innerText()).toBe(target.name);
    const text = await sheet.innerText();
    expect(text).toContain(`#${target.shortId}`);
    expect(text).toContain('Printed on paper: <b>not bold</b>');
    await expect.poll(() => sheet.locator('b').count()).toBe(0);
    await expect.poll(() => page.locator('.frame').isVisible()).toBe(false);
    await screenshot(page, 'print-export-task-sheet');
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => document.querySelector('body > .print-sheet')?.remove());
  });
});
