/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { ProjectOverviewPage } from './pages/project-overview';
import { SEEDED_USERS } from '../support/service';

/** The demo's "Support desk 1" (generated id g7-p1): Ada, Bob, Cleo and Dan are its members. */
const PROJECT = { id: 'g7-p1', name: 'Support desk 1' };

/**
 * "Add a member" offers the organization's users who can be added: members of the project's
 * Workspace (the demo's "Company Workspace": everyone but Gita Guest) not yet in the project. The
 * service refuses to add anyone else to a project inside a Workspace.
 */
describe('Add a member offers the Workspace’s members only', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 1000 } });

  it('offers a Workspace member who left the project, and not a user outside the Workspace', async () => {
    const { app, page, ui } = suite;
    const overview = new ProjectOverviewPage(page);
    await ui.openDemoProject(PROJECT.name);
    await overview.open();
    await overview.members.first().waitFor();
    // Bob leaves the project (the app's own write: the cache has it at once).
    expect(
      await app.core.dispatch('members.remove', { projectId: PROJECT.id, userId: SEEDED_USERS.bob }),
    ).toMatchObject({ ok: true });
    await expect.poll(() => overview.members.count()).toBe(3);

    await page.getByTestId('member-add-user').click();
    const offered = page.getByRole('listbox', { name: 'New member' }).getByRole('option');
    const names = (): Promise<(string | null)[]> =>
      offered.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    // Before, every user of the organization not in the project was offered: Gita Guest too.
    await expect.poll(names).toEqual(['Bob Okafor']);
    await screenshot(page, 'project-member-picker');
  });
});
