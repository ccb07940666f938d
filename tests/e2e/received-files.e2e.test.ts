/// <reference lib="dom" />
// Files someone else sent, in Chromium through the web host: the task row's paperclip counts
// them; a chip opens a text file or an image in the in-app preview, and saves a file with the
// browser's download (the bytes are the service's); the project's Files view lists every file of
// its tasks with who, when and the task, sortable and searchable.
import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';

interface UploadUrl {
  fileId: string;
  uploadUrl: string;
  mime: string;
}

/** CRC-32 of PNG chunks (node 20's zlib has none to export). */
function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A small PNG: two colour bands, enough to be seen in the preview. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(...(y < height / 2 ? [37, 99, 235] : [245, 158, 11]));
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const NOTES = 'Meeting notes\n\n- Move the launch to Thursday\n- Cleo checks the copy\n';

describe('received files: open, save, the paperclip and the Files view', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 860 } });
  let task: { id: string; name: string };

  /** Bob sends a file on the task, as another user's app would. */
  async function receive(name: string, bytes: Buffer, message: string): Promise<void> {
    const { app } = suite;
    const [url] = await app.api<UploadUrl[]>('/attachments/upload-urls', {
      method: 'POST',
      body: { files: [{ name }] },
    });
    const put = await fetch(url!.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': url!.mime },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    await app.api(`/task/${task.id}/comment`, {
      method: 'POST',
      body: { userId: 'u-bob', message, attachments: [{ fileId: url!.fileId, name, size: bytes.length }] },
    });
  }

  beforeAll(async () => {
    const { app, ui } = suite;
    const created = await app.api<{ id: string }>('/tasks', {
      method: 'POST',
      body: { projectId: 'g7-p1', title: 'Launch checklist with files', fromUserId: 'u-ada' },
    });
    task = { id: created.id, name: 'Launch checklist with files' };
    await receive('meeting-notes.txt', Buffer.from(NOTES), 'Notes from today');
    await receive('site-plan.png', png(320, 200), 'The plan');
    await receive('budget.xlsx', Buffer.from('PK fake spreadsheet bytes'), 'Budget');
    await app.core.engine!.sync.now();
    const project = await app.api<{ name: string; parentProjectId: string | null }>('/project/g7-p1');
    const folder = await app.api<{ name: string }>(`/project/${project.parentProjectId}`);
    await ui.treeItem('Company Workspace').waitFor();
    await ui.expand('Company Workspace');
    await ui.expand(folder.name);
    await ui.openProject(project.name);
    await new TaskListPage(suite.page).waitForRows();
  });

  it('shows a paperclip with the count on the task row', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    const row = list.row(task);
    // Its fresh comments make it the most recently active task, at the top of the list.
    await row.waitFor();
    const clip = row.locator('.row-files');
    await expect.poll(() => clip.innerText()).toBe('3');
    await expect.poll(() => clip.getAttribute('aria-label')).toBe('3 files');
    // Rows of tasks without files show none.
    await expect.poll(() => list.rows.locator('.row-files.none').count()).toBeGreaterThan(0);
    await screenshot(page, 'received-files-paperclip');
  });

  it('opens a text file and an image in the preview, and saves a file with its bytes', async () => {
    const { page } = suite;
    const list = new TaskListPage(page);
    await list.open(task);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(task.name);
    const chip = (name: string) => page.getByTestId('attachment').filter({ hasText: name });

    await chip('meeting-notes.txt').getByTestId('attachment-open').click();
    const preview = page.getByTestId('file-preview');
    await preview.getByTestId('file-preview-text').waitFor();
    await expect.poll(() => preview.getByTestId('file-preview-text').textContent()).toBe(NOTES);
    await screenshot(page, 'received-files-preview-text');
    // Save as… from the preview: the browser's download, with the file's name and bytes.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByTestId('file-preview-save').click(),
    ]);
    expect(download.suggestedFilename()).toBe('meeting-notes.txt');
    const saved = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const part of saved) chunks.push(part as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(NOTES);
    await preview.getByRole('button', { name: 'Close' }).first().click();
    await preview.waitFor({ state: 'hidden' });
    // Opened once, it is kept for offline reading: the chip says so.
    await chip('meeting-notes.txt').getByTestId('attachment-local').waitFor();

    await chip('site-plan.png').getByTestId('attachment-open').click();
    const image = preview.getByTestId('file-preview-image');
    await image.waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="file-preview-image"]') as HTMLImageElement | null)
          ?.naturalWidth === 320,
    );
    await screenshot(page, 'received-files-preview-image');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });

    // A file the app does not preview: Save as… from the chip's menu (and right-click opens it too).
    await chip('budget.xlsx').click({ button: 'right' });
    const menu = chip('budget.xlsx').getByRole('menu');
    await menu.waitFor();
    await expect.poll(() => menu.getByRole('menuitem').allInnerTexts()).toEqual(['Open', 'Save as…', 'Copy']);
    await screenshot(page, 'received-files-chip-menu');
    const [sheet] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('menuitem', { name: 'Save as…' }).click(),
    ]);
    expect(sheet.suggestedFilename()).toBe('budget.xlsx');
    const sheetChunks: Buffer[] = [];
    for await (const part of await sheet.createReadStream()) sheetChunks.push(part as Buffer);
    expect(Buffer.concat(sheetChunks).toString()).toBe('PK fake spreadsheet bytes');
  });

  it("lists the project's files, sortable and searchable, and opens a file's task", async () => {
    const { page } = suite;
    await page.getByRole('radio', { name: 'Files' }).click();
    const rows = page.getByTestId('files-row');
    await rows.first().waitFor();
    const names = async (): Promise<string[]> =>
      (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-name') ?? ''))).filter((n) =>
        ['meeting-notes.txt', 'site-plan.png', 'budget.xlsx'].includes(n),
      );
    // Newest first by default.
    expect(await names()).toEqual(['budget.xlsx', 'site-plan.png', 'meeting-notes.txt']);
    const row = rows.filter({ hasText: 'site-plan.png' });
    await expect
      .poll(() => row.innerText())
      .toMatch(/site-plan\.png[\s\S]*Bob Okafor[\s\S]*Launch checklist with files/);
    await screenshot(page, 'received-files-files-view');

    await page.getByTestId('files-sort-name').click();
    expect(await names()).toEqual(['budget.xlsx', 'meeting-notes.txt', 'site-plan.png']);
    await page.getByTestId('files-sort-size').click();
    expect((await names())[0]).toBe('site-plan.png');

    await page.getByTestId('files-search').fill('notes bob');
    await expect.poll(async () => (await rows.allInnerTexts()).length).toBe(1);
    await expect.poll(() => rows.first().getAttribute('data-name')).toBe('meeting-notes.txt');
    await screenshot(page, 'received-files-files-search');

    await rows
      .first()
      .getByRole('button', { name: /Launch checklist with files/ })
      .click();
    await new TaskDetailPage(page).waitFor(task.name);
  });

  it('removes the files kept offline from Settings', async () => {
    const { page, ui } = suite;
    await ui.goToSettings();
    const usage = page.getByTestId('download-usage');
    // The three files opened or saved above are kept.
    await expect.poll(() => usage.innerText()).toMatch(/^3 files kept/);
    await usage.getByRole('button', { name: 'Remove them' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Removed the files kept offline' }).waitFor();
    await expect.poll(() => usage.innerText()).toMatch(/^0 files kept/);
    await screenshot(page, 'received-files-settings-removed');
  });
});
