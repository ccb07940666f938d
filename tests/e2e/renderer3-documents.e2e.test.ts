import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { ProjectOverviewPage } from './pages/project-overview';

interface ServiceProject {
  id: string;
  name: string;
}
interface ServiceDocument {
  id: string;
  name: string;
  projectId: string;
}

/** The documents endpoint's `subfolders`: a folder's overview lists the documents below it. */
describe('project documents: include subfolders', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 900 } });

  it("lists the documents of every project below a folder, as the service's subfolders answer does", async () => {
    const { app, page, ui } = suite;
    const folder = (await app.api<ServiceProject[]>('/projects')).find(
      (p) => p.name === 'Website relaunch area 1',
    )!;
    const own = await app.api<ServiceDocument[]>(`/project/${folder.id}/documents`);
    const below = await app.api<ServiceDocument[]>(`/project/${folder.id}/documents?subfolders=true`);
    // The demo keeps its documents in projects, not in the folder itself.
    expect(below.length).toBeGreaterThan(own.length);

    await ui.expand('Company Workspace');
    await ui.openProject('Website relaunch area 1');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    await overview.field('project-documents').waitFor();
    expect(await overview.documents.count()).toBe(own.length);

    await overview.field('documents-subfolders').check();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="document-open"]').length === count,
      below.length,
    );
    expect(await page.locator('#ov-docs .count').innerText()).toBe(String(below.length));
    const names = await overview.documents.locator('.name').allInnerTexts();
    expect(names.sort()).toEqual(below.map((d) => d.name).sort());
    // Each names the project it lives in.
    const support = below.find((d) => d.projectId !== folder.id)!;
    const projectName = (await app.api<ServiceProject>(`/project/${support.projectId}`)).name;
    expect(await overview.field('project-documents').getByText(`in ${projectName}`).count()).toBeGreaterThan(
      0,
    );
    await screenshot(page, 'renderer3-documents-subfolders');

    // A document of a subproject opens in the reader.
    await overview.documents
      .filter({ hasText: `in ${projectName}` })
      .first()
      .click();
    await overview.reader.getByTestId('document-content').waitFor();
    await page.keyboard.press('Escape');
    await overview.reader.waitFor({ state: 'hidden' });

    await overview.field('documents-subfolders').uncheck();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="document-open"]').length === count,
      own.length,
    );
  });
});
