// A new user adds an account on a service that answers as GoodDay's live one (our service's
// goodday profile): address, header and token, then who they are picked from the organization's
// users by name; then the tree, My Work, a project and a task with its messages are there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { SettingsPage } from './pages/settings';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { ProjectOverviewPage } from './pages/project-overview';

/** A task of `projectId` with messages, read from the service as the live service answers. */
async function taskWithMessages(
  svc: RunningService,
  projectId: string,
): Promise<{ id: string; name: string }> {
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(`${svc.baseUrl}${path}`, { headers: { 'gd-api-token': svc.token } });
    expect(res.status).toBe(200);
    return res.json();
  };
  const tasks = (await get(`/project/${projectId}/tasks`)) as {
    id: string;
    name: string;
    parentTaskId: string | null;
  }[];
  for (const task of tasks.filter((t) => !t.parentTaskId)) {
    if (((await get(`/task/${task.id}/messages`)) as unknown[]).length) return task;
  }
  throw new Error(`no task of ${projectId} has messages`);
}

describe('an account on a service that answers as the live one', () => {
  let live: RunningService;
  beforeAll(async () => {
    live = await startService({ seed: 'demo', profile: 'goodday', token: 'live-service-token' });
  });
  afterAll(async () => {
    await live?.close();
  });
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  it('is added by picking the user by name, and shows the tree, My Work, a project and a task with messages', async () => {
    const { page, ui } = suite;
    await ui.goToSettings();
    const settings = new SettingsPage(page);
    await settings.connect({
      label: 'GoodDay',
      baseUrl: live.baseUrl.replace(/\/2\.0$/, ''),
      token: live.token,
      tokenHeader: 'gd-api-token',
    });
    // The organization's users, by name and e-mail; the filter narrows them.
    const users = page.getByTestId('account-user');
    await users.first().waitFor();
    await expect.poll(() => users.count()).toBe(5);
    await page.getByLabel('Who are you?').fill('bob');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="account-user"]').length === 1);
    await expect.poll(() => users.first().innerText()).toContain('bob@example.test');
    await page.getByLabel('Who are you?').fill('');
    await users.filter({ hasText: 'Dan Whitfield' }).click();
    await screenshot(page, 'live-account-pick-user');
    await page.getByRole('button', { name: 'Add as Dan Whitfield' }).click();

    const account = page.getByTestId('account').filter({ hasText: 'GoodDay' });
    await account.waitFor();
    await expect.poll(() => account.innerText()).toContain('acting as');
    await account.getByRole('button', { name: 'Switch to' }).click();
    await page.getByTestId('account').filter({ hasText: 'In use' }).filter({ hasText: 'GoodDay' }).waitFor();
    // The account and user in use, at all times in the status bar.
    const who = ui.statusBar.getByTestId('active-account');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="active-account"]')?.textContent?.includes('Dan Whitfield'),
    );
    await expect.poll(() => who.innerText()).toContain('GoodDay');
    // The first pull ends with nothing it could not read.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="last-synced"]')?.textContent?.startsWith('Synced'),
      undefined,
      { timeout: 60_000 },
    );
    await expect.poll(() => page.getByTestId('read-problems').count()).toBe(0);

    // The tree, folders as folders.
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await screenshot(page, 'live-account-tree');

    // My Work: Action required is an inbox (tests/e2e/inbox.e2e.test.ts), a row per task with who
    // handed it over.
    await ui.goToActionRequired();
    const inbox = page.getByTestId('inbox-row');
    await inbox.first().waitFor();
    await expect.poll(() => inbox.count()).toBeGreaterThan(0);
    await expect.poll(() => inbox.first().getByTestId('inbox-handed').innerText()).toMatch(/^From\s+\S/);
    await screenshot(page, 'live-account-my-work');
    const list = new TaskListPage(page);

    // A project, its overview, and a task with its messages.
    await ui.openProject('Support desk 1');
    await list.waitForRows();
    const projectId = (await ui.treeItem('Support desk 1').getAttribute('data-project-id')) ?? '';
    expect(projectId).not.toBe('');
    const task = await taskWithMessages(live, projectId);
    await list.open(task);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(task.name);
    await page.getByTestId('message').first().waitFor();
    await expect.poll(() => page.getByTestId('message').count()).toBeGreaterThan(0);
    await page.getByTestId('message').last().scrollIntoViewIfNeeded();
    await screenshot(page, 'live-account-task-messages');

    const overview = new ProjectOverviewPage(page);
    await overview.open();
    await overview.members.first().waitFor();
    await screenshot(page, 'live-account-project-overview');
  });
});
