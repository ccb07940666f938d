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

/**
 * Reachable operations no suite drove: the task list's "Subfolders" (the tasks endpoint's
 * `subfolders`), Assigned to me with closed tasks (the assigned-tasks endpoint's `closed`), and
 * update-project's `ownerUserId: null` ("No owner").
 */
describe("list toggles (a folder's subfolders, my closed tasks), and a project without an owner", () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it("lists a folder's open tasks with those of every project below it, as the service does", async () => {
    const { app, page, ui } = suite;
    const folder = (await app.api<ServiceProject[]>('/projects')).find(
      (p) => p.name === 'Website relaunch area 1',
    )!;
    const own = await app.api<unknown[]>(`/project/${folder.id}/tasks`);
    const below = await app.api<unknown[]>(`/project/${folder.id}/tasks?subfolders=true`);
    expect(below.length).toBeGreaterThan(own.length);

    await ui.expand('Company Workspace');
    await ui.openProject('Website relaunch area 1');
    const list = new TaskListPage(page);
    await list.setToggle('toggle-subfolders', true);
    await list.waitForTotal(below.length);
    await list.waitForRows();
    await screenshot(page, 'renderer3-folder-subfolders');
    await list.setToggle('toggle-subfolders', false);
    await list.waitForTotal(own.length);
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
    expect(await overview.field('project-owner').getAttribute('aria-label')).toBe('Owner: No owner');
    await ui.waitForPendingCount(0);
    await eventually(
      () => app.api<ServiceProject>(`/project/${project.id}`),
      (p) => p.ownerUserId === null,
    );
    await screenshot(page, 'renderer3-project-no-owner');
  });
});
