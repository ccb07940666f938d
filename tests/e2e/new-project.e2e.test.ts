import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { AppPage } from './pages/app';
import { choose } from './pages/picker';

interface ServiceProject {
  id: string;
  name: string;
  parentProjectId: string | null;
  settings?: unknown;
}

describe('the New project dialog', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    ui = new AppPage(page);
    await ui.open(app.host.url);
  });
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('offers the service templates by name and creates the project from the one chosen', async () => {
    await ui.treeItem('Company Workspace').waitFor();
    await page.getByTestId('new-project').click();
    const dialog = page.getByTestId('new-project-dialog');
    const picker = dialog.getByTestId('np-template');
    // A first project starts from the first template listed, by name.
    expect(await picker.getAttribute('aria-label')).toMatch(/^Template: (Kanban board|Standard project)$/);
    await dialog.getByLabel('Name').fill('Launch plan');
    await choose(page, picker, 'Kanban board');
    expect(await picker.getAttribute('aria-label')).toBe('Template: Kanban board');
    await screenshot(page, 'new-project-dialog');
    await dialog.getByTestId('np-create').click();
    await ui.waitForTitle('Launch plan');

    const created = await eventually(
      () => app.api<ServiceProject[]>('/projects'),
      (all) => all.some((p) => p.name === 'Launch plan' && !p.id.startsWith('local-')),
    ).then((all) => all.find((p) => p.name === 'Launch plan')!);
    // A project's settings come from its template: the Kanban board's, not the standard one's.
    const [mine, standard] = await Promise.all([
      app.api<ServiceProject>(`/project/${created.id}`),
      app.api<ServiceProject>('/project/g7-p4'),
    ]);
    expect(mine.settings).not.toEqual(standard.settings);

    // The next project starts from the template used last.
    await page.getByTestId('new-project').click();
    expect(await dialog.getByTestId('np-template').getAttribute('aria-label')).toBe('Template: Kanban board');
    await page.keyboard.press('Escape');
  });
});
