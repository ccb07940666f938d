import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';

interface ServiceProject {
  id: string;
  name: string;
  parentProjectId: string | null;
}

describe('the sidebar tree: create a folder, drag a project into it, archived toggle', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 860 } });

  it('creates a folder and moves a project into it by drag and drop; the service follows', async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    await page.getByTestId('new-folder').click();
    const dialog = page.getByTestId('new-project-dialog');
    await dialog.getByLabel('Name').fill('Archive 2026');
    await dialog.getByTestId('np-create').click();
    await ui.expand('Company Workspace');
    await ui.treeItem('Archive 2026').waitFor();
    const folder = await eventually(
      () => app.api<ServiceProject[]>('/projects'),
      (all) => all.some((p) => p.name === 'Archive 2026' && !p.id.startsWith('local-')),
    ).then((all) => all.find((p) => p.name === 'Archive 2026')!);

    await ui.expand('Website relaunch area 1');
    await ui.treeItem('Mobile app 5').dragTo(ui.treeItem('Archive 2026'));
    await page.getByTestId('toast').filter({ hasText: "Moved 'Mobile app 5' into 'Archive 2026'" }).waitFor();
    await screenshot(page, 'tree-after-move');
    await eventually(
      () => app.api<ServiceProject>('/project/g7-p5'),
      (p) => p.parentProjectId === folder.id,
    );
  });

  it('remembers which folders are open and hides archived projects unless asked', async () => {
    const { page, ui } = suite;
    await page.reload();
    await ui.treeItem('Archive 2026').waitFor();
    await page.getByTestId('toggle-archived').click();
    await expect.poll(() => page.getByTestId('toggle-archived').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('toggle-archived').click();
    await expect.poll(() => page.getByTestId('toggle-archived').getAttribute('aria-pressed')).toBe('false');
  });
});
