import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { ProjectOverviewPage } from './pages/project-overview';

interface ServiceProject {
  id: string;
  name: string;
  ownerUserId?: string | null;
}
interface ServiceDocument {
  id: string;
  name: string;
  projectId: string;
}

/**
 * Reachable operations no other suite drives: the `subfolders` of the tasks and documents
 * endpoints (a folder's list and overview), Assigned to me with closed tasks (the
 * assigned-tasks endpoint's `closed`), and update-project's `ownerUserId: null` ("No owner").
 */
describe("subfolders of a folder's tasks and documents, my closed tasks, a project without an owner", () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  /** The demo folder's own items of a kind, and those with its subfolders', from the service. */
  async function folderLists<T>(kind: 'tasks' | 'documents') {
    const { app } = suite;
    const folder = (await app.api<ServiceProject[]>('/projects')).find(
      (p) => p.name === 'Website relaunch area 1',
    )!;
    const own = await app.api<T[]>(`/project/${folder.id}/${kind}`);
    const below = await app.api<T[]>(`/project/${folder.id}/${kind}?subfolders=true`);
    expect(below.length).toBeGreaterThan(own.length);
    return { folder, own, below };
  }

  it("lists a folder's open tasks with those of every project below it, as the service does", async () => {
    const { page, ui } = suite;
    const { own, below } = await folderLists<unknown>('tasks');

    await ui.expand('Company Workspace');
    await ui.openProject('Website relaunch area 1');
    const list = new TaskListPage(page);
    await list.setToggle('toggle-subfolders', true);
    await list.waitForTotal(below.length);
    await list.waitForRows();
    await screenshot(page, 'subfolders-folder-tasks');
    await list.setToggle('toggle-subfolders', false);
    await list.waitForTotal(own.length);
  });

  it("lists the documents of every project below a folder, as the service's subfolders answer does", async () => {
    const { app, page } = suite;
    const { folder, own, below } = await folderLists<ServiceDocument>('documents');
    // The demo keeps its documents in projects, not in the folder itself (open since the test before).
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    await overview.field('project-documents').waitFor();
    await expect.poll(() => overview.documents.count()).toBe(own.length);

    await overview.field('documents-subfolders').check();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="document-open"]').length === count,
      below.length,
    );
    await expect.poll(() => page.locator('#ov-docs .count').innerText()).toBe(String(below.length));
    const names = await overview.documents.locator('.name').allInnerTexts();
    expect(names.sort()).toEqual(below.map((d) => d.name).sort());
    // Each names the project it lives in.
    const support = below.find((d) => d.projectId !== folder.id)!;
    const projectName = (await app.api<ServiceProject>(`/project/${support.projectId}`)).name;
    await expect
      .poll(() => overview.field('project-documents').getByText(`in ${projectName}`).count())
      .toBeGreaterThan(0);
    await screenshot(page, 'subfolders-documents');

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

  it('lists the tasks assigned to the acting user with the closed ones, as the service does', async () => {
    const { app, page, ui } = suite;
    const open = await app.api<unknown[]>('/user/u-ada/assigned-tasks');
    const all = await app.api<unknown[]>('/user/u-ada/assigned-tasks?closed=true');
    expect(all.length).toBeGreaterThan(open.length);
    await ui.goToAssigned();
    const list = new TaskListPage(page);
    await list.waitForTotal(open.length);
    await list.setToggle('toggle-closed', true);
    await list.waitForTotal(all.length);
    await list.setToggle('toggle-closed', false);
    await list.waitForTotal(open.length);
  });

  it('removes the owner of a project with "No owner"; the service holds none', async () => {
    const { app, page, ui } = suite;
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 1');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    await overview.members.first().waitFor();
    const project = (await app.api<ServiceProject[]>('/projects')).find((p) => p.name === 'Support desk 1')!;
    expect((await app.api<ServiceProject>(`/project/${project.id}`)).ownerUserId).toBeTruthy();

    // The clearing row is offered while the picker's filter is empty.
    await overview.field('project-owner').click();
    await page.getByRole('option', { name: 'No owner', exact: true }).click();
    await expect
      .poll(() => overview.field('project-owner').getAttribute('aria-label'))
      .toBe('Owner: No owner');
    await ui.waitForPendingCount(0);
    await eventually(
      () => app.api<ServiceProject>(`/project/${project.id}`),
      (p) => p.ownerUserId === null,
    );
    await screenshot(page, 'subfolders-project-no-owner');
  });
});
