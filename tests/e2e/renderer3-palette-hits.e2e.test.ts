import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';
import { TaskDetailPage } from './pages/task-detail';

/** The palette's message and document hits (the index's other kinds are driven elsewhere). */
describe('palette: messages and documents from the index', () => {
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
    await screenshot(page, 'renderer3-palette-message');
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
    expect(await reader.getByRole('heading').first().innerText()).toBe('Project brief');
    await screenshot(page, 'renderer3-palette-document');
  });
});
