import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { choose } from './pages/picker';
import { PalettePage } from './pages/palette';
import { ProjectOverviewPage } from './pages/project-overview';

interface ServiceProject {
  id: string;
  name: string;
  parentProjectId: string | null;
  settings?: unknown;
  ownerUserId?: string | null;
  startDate: string | null;
  endDate: string | null;
  deadline?: string | null;
  isFolder?: boolean;
}

describe('the New project dialog', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('offers the service templates by name and creates the project from the one chosen', async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    await page.getByTestId('new-project').click();
    const dialog = page.getByTestId('new-project-dialog');
    const picker = dialog.getByTestId('np-template');
    // A first project starts from the first template listed, by name.
    await expect
      .poll(() => picker.getAttribute('aria-label'))
      .toMatch(/^Template: (Kanban board|Standard project)$/);
    await dialog.getByLabel('Name').fill('Launch plan');
    await choose(page, picker, 'Kanban board');
    await expect.poll(() => picker.getAttribute('aria-label')).toBe('Template: Kanban board');
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
    await expect
      .poll(() => dialog.getByTestId('np-template').getAttribute('aria-label'))
      .toBe('Template: Kanban board');
    await page.keyboard.press('Escape');
  });
});

/**
 * New-project's owner, start and end dates and deadline (the deadline is set nowhere else:
 * update-project takes none), and New project / New folder as palette commands.
 */
describe('new project from the palette: owner, dates and deadline, dates that do not fit', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 900 } });
  const projectNamed = async (name: string): Promise<ServiceProject> =>
    (
      await eventually(
        () => suite.app.api<ServiceProject[]>('/projects'),
        (all) => all.some((p) => p.name === name && !p.id.startsWith('local-')),
      )
    ).find((p) => p.name === name)!;

  it('creates a project owned by another member, with its dates and deadline', async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    expect(await new PalettePage(page).runCommand('new project')).toBe('New project');

    const dialog = page.getByTestId('new-project-dialog');
    await dialog.getByLabel('Name').fill('Warehouse move');
    await choose(page, dialog.getByTestId('np-owner'), 'Bob Okafor');
    await dialog.getByTestId('np-startDate').fill('2027-04-01');
    await dialog.getByTestId('np-endDate').fill('2027-05-31');
    await dialog.getByTestId('np-deadline').fill('2027-06-15');
    await screenshot(page, 'new-project-palette-dialog');
    await dialog.getByTestId('np-create').click();
    await ui.waitForTitle('Warehouse move');

    const created = await projectNamed('Warehouse move');
    const service = await app.api<ServiceProject>(`/project/${created.id}`);
    expect(service).toMatchObject({
      ownerUserId: 'u-bob',
      startDate: '2027-04-01',
      endDate: '2027-05-31',
      deadline: '2027-06-15',
    });

    // The overview shows the deadline, read-only, beside the editable dates.
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    await expect.poll(() => overview.field('project-deadline').innerText()).toMatch(/2027/);
    await expect.poll(() => overview.field('project-start').inputValue()).toBe('2027-04-01');
    await screenshot(page, 'new-project-palette-overview');
  });

  it('creates a folder through the palette command', async () => {
    const { page, ui } = suite;
    expect(await new PalettePage(page).runCommand('new folder')).toBe('New folder');
    const dialog = page.getByTestId('new-project-dialog');
    await expect.poll(() => dialog.getByRole('heading').first().innerText()).toBe('New folder');
    // A folder has no owner, dates or template.
    await expect.poll(() => dialog.getByTestId('np-owner').count()).toBe(0);
    await dialog.getByLabel('Name').fill('Operations');
    await dialog.getByTestId('np-create').click();
    await ui.treeItem('Operations').waitFor();
    expect((await projectNamed('Operations')).isFolder).toBe(true);
  });

  it('refuses a project that ends before it starts in the dialog, naming the field, and creates nothing', async () => {
    const { app, page, ui } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await new PalettePage(page).runCommand('New project');
    const dialog = page.getByTestId('new-project-dialog');
    await dialog.getByLabel('Name').fill('Backwards launch');
    await dialog.getByTestId('np-startDate').fill('2026-11-23');
    await dialog.getByTestId('np-endDate').fill('2026-11-20');
    await dialog.getByTestId('np-create').click();
    // Before: "Created", then the new project's page said "not in the cache" and the change was
    // refused in Changes as "endDate: must not be before startDate", its dates not editable.
    await dialog.getByText('End date: must not be before the start date').waitFor();
    await expect.poll(() => dialog.getByTestId('np-endDate').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'new-project-project-dates-refused');
    expect(await app.core.dispatch('outbox.pending', {})).toMatchObject({ ok: true, value: [] });
    await dialog.getByTestId('np-endDate').fill('2026-12-20');
    await dialog.getByTestId('np-create').click();
    await ui.waitForTitle('Backwards launch');
    const projects = await eventually(
      () => app.api<{ id: string; name: string; endDate: string | null }[]>('/projects'),
      (all) => all.some((p) => p.name === 'Backwards launch'),
    );
    expect(projects.find((p) => p.name === 'Backwards launch')?.endDate).toBe('2026-12-20');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
